package io.hami.scheduler.gang;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a pod belongs to a gang: scheduler-plugins' coscheduling label or Volcano's annotation names its group. Only
 * the name is read; the group itself (its size, its Permit) is the coscheduling plugin's business, not ours.
 */
public final class GangMembership {
    /** scheduler-plugins' coscheduling: the PodGroup a pod belongs to. */
    public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";
    /** Volcano: the PodGroup a pod belongs to. */
    public static final String VOLCANO_GROUP_ANNOTATION = "scheduling.k8s.io/group-name";

    private GangMembership() {}

    /** The pod's group name, or empty when it belongs to none (absent or blank values name none). */
    public static Optional<String> group(Pod pod) {
        if (pod == null || pod.getMetadata() == null) {
            return Optional.empty();
        }
        String label = nonBlank(pod.getMetadata().getLabels(), POD_GROUP_LABEL);
        if (label != null) {
            return Optional.of(label);
        }
        return Optional.ofNullable(nonBlank(pod.getMetadata().getAnnotations(), VOLCANO_GROUP_ANNOTATION));
    }

    private static String nonBlank(Map<String, String> values, String key) {
        String v = values == null ? null : values.get(key);
        return v == null || v.isBlank() ? null : v;
    }
}
