package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.kube.patch.MergePatches;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.Placement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** What a bind asks of the API server about pods: read one, write its decision, bind it, find a node's decisions. */
final class PodCalls {
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");

    private final KubernetesClient client;
    private final DeviceBackends backends;

    PodCalls(KubernetesClient client, DeviceBackends backends) {
        this.client = client;
        this.backends = backends;
    }

    /** The pod as the API server has it, or null. */
    Pod read(String ns, String name) {
        return client.pods().inNamespace(ns).withName(name).get();
    }

    /** Whether the pod is bound to {@code node} now; false when that cannot be read. */
    boolean boundTo(String ns, String name, String node) {
        try {
            Pod now = read(ns, name);
            return now != null
                    && now.getSpec() != null
                    && node.equals(now.getSpec().getNodeName());
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    /**
     * One merge patch carrying the whole decision (design D4). Stale keys of vendors not chosen are removed.
     *
     * @param resourceVersion the pod's version the decision was made on, as a precondition (a 409 when the pod has
     *                        changed since), or null for none
     */
    Pod writeDecision(Pod pod, String node, Placement.Placed placed, String now, String resourceVersion) {
        Map<String, String> set = new HashMap<>();
        set.put(ProtocolKeys.VGPU_NODE, node);
        set.put(ProtocolKeys.VGPU_TIME, now);
        set.put(ProtocolKeys.BIND_TIME, now);
        set.put(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING);
        Map<String, String> existing = annotations(pod);
        for (DeviceBackend b : backends.all()) {
            var devices = placed.devices().get(b.vendor());
            String value = devices == null ? null : PodDevicesCodec.encode(devices);
            if (value != null || existing.containsKey(b.keys().toAllocateKey())) {
                set.put(b.keys().toAllocateKey(), value);
            }
            if (value != null || existing.containsKey(b.keys().allocatedKey())) {
                set.put(b.keys().allocatedKey(), value);
            }
        }
        // The label (upstream's too, for the plugins' informers) needs a node name that is a valid label value; for a
        // longer one any label of an earlier decision is removed rather than the whole patch refused.
        Map<String, String> labels = new HashMap<>();
        labels.put(ProtocolKeys.VGPU_NODE, isLabelValue(node) ? node : null);
        String patch = AnnotationPatch.mergePatch(set, labels, resourceVersion);
        return MergePatches.pod(
                client, pod.getMetadata().getNamespace(), pod.getMetadata().getName(), patch);
    }

    /**
     * {@code POST pods/{name}/binding} (RBAC {@code pods/binding}), as kube-scheduler binds; fabric8 has no DSL for
     * this subresource, and the namespaced {@code bindings} collection is deprecated.
     */
    void bind(Pod pod, String node) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        Binding binding = new BindingBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withUid(pod.getMetadata().getUid())
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .endTarget()
                .build();
        client.raw("/api/v1/namespaces/" + ns + "/pods/" + name + "/binding", "POST", binding);
    }

    /**
     * Pods with a decision for {@code node}: by the {@code hami.io/vgpu-node} label, or, for a node whose name cannot
     * be a label value (longer than 63 characters, which a node name may be, so its decisions carry no label), among
     * the pods not bound yet and those bound there.
     */
    List<Pod> decidedFor(String node) {
        if (isLabelValue(node)) {
            return client.pods()
                    .inAnyNamespace()
                    .withLabel(ProtocolKeys.VGPU_NODE, node)
                    .list()
                    .getItems();
        }
        var decided = new ArrayList<Pod>();
        for (Pod p : client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", "")
                .list()
                .getItems()) {
            if (node.equals(annotations(p).get(ProtocolKeys.VGPU_NODE))) {
                decided.add(p);
            }
        }
        decided.addAll(client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .list()
                .getItems());
        return decided;
    }

    /** Whether the API server accepts {@code value} as a label value (and in a label selector). */
    static boolean isLabelValue(String value) {
        return value.length() <= 63 && LABEL_VALUE.matcher(value).matches();
    }

    static Map<String, String> annotations(Pod pod) {
        return pod.getMetadata().getAnnotations() == null
                ? Map.of()
                : pod.getMetadata().getAnnotations();
    }
}
