package io.hami.lab.workload;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.lab.scenario.ContainerSpec;
import io.hami.lab.scenario.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The pod a {@link PodPlan} describes, as a user would submit it: no scheduler name, which the webhook sets. */
public final class PodFactory {
    private PodFactory() {}

    /**
     * @param priority the value of the workload's PriorityClass, written into {@code spec.priority} as the API
     *                 server's Priority admission would (the embedded API server has none); null: none
     */
    public static Pod build(PodPlan plan, Integer priority) {
        Pod pod = build(plan);
        String className = plan.workload().priorityClass();
        if (className != null) {
            pod.getSpec().setPriorityClassName(className);
            pod.getSpec().setPriority(priority);
        }
        if (plan.workload().podGroup() != null) {
            pod.getMetadata()
                    .getLabels()
                    .put(Workload.POD_GROUP_LABEL, plan.workload().podGroup());
        }
        return pod;
    }

    public static Pod build(PodPlan plan) {
        var annotations = new LinkedHashMap<>(plan.workload().annotations());
        if (plan.lifetime() != null) {
            annotations.put(LabKeys.LIFETIME_MS, Long.toString(plan.lifetime().toMillis()));
        }
        String usage = UsageAnnotation.encode(plan.workload().containers());
        if (usage != null) {
            annotations.put(LabKeys.USAGE, usage);
        }
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(LabKeys.NAMESPACE)
                .withName(plan.name())
                .addToLabels(LabKeys.WORKLOAD, plan.workload().name())
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withInitContainers(containers(plan.workload().initContainers()))
                .withContainers(containers(plan.workload().containers()))
                .withRestartPolicy("Never")
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
    }

    private static List<Container> containers(List<ContainerSpec> specs) {
        return specs.stream()
                .map(spec -> {
                    var limits = new TreeMap<String, Quantity>();
                    spec.resources().forEach((name, value) -> limits.put(name, new Quantity(value)));
                    return new ContainerBuilder()
                            .withName(spec.name())
                            .withImage("busybox")
                            .withNewResources()
                            .withLimits(limits)
                            .endResources()
                            .withEnv(env(spec.env()))
                            .build();
                })
                .toList();
    }

    private static List<EnvVar> env(Map<String, String> env) {
        return new TreeMap<>(env)
                .entrySet().stream()
                        .map(e -> new EnvVar(e.getKey(), e.getValue(), null))
                        .toList();
    }
}
