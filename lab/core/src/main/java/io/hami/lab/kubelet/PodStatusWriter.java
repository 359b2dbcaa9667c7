package io.hami.lab.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.util.Map;

/**
 * The kubelet's status manager: writes a pod's phase, conditions and container states through the status
 * subresource, retrying when the API server refuses the write.
 */
public final class PodStatusWriter {
    private static final int ATTEMPTS = 20;

    private final KubernetesClient client;

    public PodStatusWriter(KubernetesClient client) {
        this.client = client;
    }

    /** Init containers completed, app containers running. */
    public void running(Pod pod) {
        String now = Instant.now().toString();
        write(
                pod,
                new PodStatusBuilder()
                        .withPhase("Running")
                        .withStartTime(now)
                        .withConditions(
                                condition("PodScheduled", "True", now),
                                condition("Initialized", "True", now),
                                condition("ContainersReady", "True", now),
                                condition("Ready", "True", now))
                        .withInitContainerStatuses(pod.getSpec().getInitContainers().stream()
                                .map(c -> terminated(c, 0, "Completed", now))
                                .toList())
                        .withContainerStatuses(pod.getSpec().getContainers().stream()
                                .map(c -> new ContainerStatusBuilder()
                                        .withName(c.getName())
                                        .withImage(c.getImage())
                                        .withReady(true)
                                        .withStarted(true)
                                        .withRestartCount(0)
                                        .withNewState()
                                        .withNewRunning(now)
                                        .endState()
                                        .build())
                                .toList())
                        .build());
    }

    /** Every app container exited 0. */
    public void succeeded(Pod pod) {
        String now = Instant.now().toString();
        write(
                pod,
                new PodStatusBuilder()
                        .withPhase("Succeeded")
                        .withConditions(
                                condition("PodScheduled", "True", now),
                                condition("Initialized", "True", now),
                                condition("ContainersReady", "False", now),
                                condition("Ready", "False", now))
                        .withContainerStatuses(pod.getSpec().getContainers().stream()
                                .map(c -> terminated(c, 0, "Completed", now))
                                .toList())
                        .build());
    }

    /** The kubelet refused the pod at admission ({@code reason} as the kubelet writes it). */
    public void failed(Pod pod, String reason, String message) {
        write(
                pod,
                new PodStatusBuilder()
                        .withPhase("Failed")
                        .withReason(reason)
                        .withMessage(message)
                        .build());
    }

    private void write(Pod pod, PodStatus status) {
        String patch = client.getKubernetesSerialization().asJson(Map.of("status", status));
        mergePatch(client, pod, true, patch);
    }

    /**
     * Merge-patches the pod (its status subresource, or the object), retrying when the API server refuses the write;
     * a pod that is gone needs nothing more.
     */
    static void mergePatch(KubernetesClient client, Pod pod, boolean status, String patch) {
        var resource = client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName());
        KubernetesClientException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                (status ? resource.subresource("status") : resource)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return;
                }
                last = e;
                try {
                    Thread.sleep(25L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
        throw last;
    }

    private static PodCondition condition(String type, String status, String now) {
        return new PodConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withLastTransitionTime(now)
                .build();
    }

    private static ContainerStatus terminated(Container c, int exitCode, String reason, String now) {
        return new ContainerStatusBuilder()
                .withName(c.getName())
                .withImage(c.getImage())
                .withReady(false)
                .withRestartCount(0)
                .withNewState()
                .withNewTerminated()
                .withExitCode(exitCode)
                .withReason(reason)
                .withFinishedAt(now)
                .endTerminated()
                .endState()
                .build();
    }
}
