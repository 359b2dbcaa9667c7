package io.hami.e2e.mixed;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.MockPlugin;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The nodes and pods of the mixed-cluster classes, and the steps each of them repeats. */
final class MixedPods {
    static final Duration PATIENCE = Duration.ofSeconds(90);

    private MixedPods() {}

    /**
     * A node for a class of its own ({@code hami.io/e2e=<ns>} taint) whose kubelet reports what a plugin of 2 GPUs
     * split 10 ways registered: {@code nvidia.com/gpu: 20}.
     */
    static Node gpuNode(String name, String ns) {
        return Cluster.node(name)
                .editSpec()
                .addToTaints(Cluster.e2eTaint(ns))
                .endSpec()
                .editStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity("20"))
                .addToCapacity("nvidia.com/gpu", new Quantity("20"))
                .endStatus()
                .build();
    }

    /** One container asking for one GPU with {@code memMiB} and {@code cores}, for {@code schedulerName}. */
    static Pod gpuPod(String ns, String name, String schedulerName, int memMiB, int cores) {
        return new PodBuilder(Cluster.pod(
                                ns,
                                name,
                                Cluster.container(
                                        "cuda",
                                        "nvidia.com/gpu",
                                        "1",
                                        "nvidia.com/gpumem",
                                        String.valueOf(memMiB),
                                        "nvidia.com/gpucores",
                                        String.valueOf(cores)))
                        .build())
                .editSpec()
                .withSchedulerName(schedulerName)
                .addToTolerations(Cluster.e2eToleration())
                .endSpec()
                .build();
    }

    static Pod pod(KubernetesClient admin, String ns, String name) {
        return admin.pods().inNamespace(ns).withName(name).get();
    }

    static Map<String, String> nodeAnnotations(KubernetesClient admin, String node) {
        return annotations(admin.nodes().withName(node).get());
    }

    /** Waits until kube-scheduler bound the pod to {@code node}; returns its annotations then. */
    static Map<String, String> awaitBound(KubernetesClient admin, String ns, String name, String node) {
        await(ns + "/" + name + " bound to " + node)
                .atMost(PATIENCE)
                .until(() -> node.equals(pod(admin, ns, name).getSpec().getNodeName()));
        return annotations(pod(admin, ns, name));
    }

    /** Waits until kube-scheduler marked the pod unschedulable (its scheduler's filter found no fit). */
    static String awaitUnschedulable(KubernetesClient admin, String ns, String name) {
        await(ns + "/" + name + " unschedulable")
                .atMost(PATIENCE)
                .until(() -> unschedulableMessage(pod(admin, ns, name)) != null);
        return unschedulableMessage(pod(admin, ns, name));
    }

    private static String unschedulableMessage(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("PodScheduled")
                        && c.getStatus().equals("False")
                        && "Unschedulable".equals(c.getReason()))
                .map(c -> String.valueOf(c.getMessage()))
                .findFirst()
                .orElse(null);
    }

    /** The first device of the first container of an NVIDIA decision. */
    static ContainerDevice decided(Map<String, String> podAnnotations) throws AnnotationFormatException {
        return PodDevicesCodec.decode(podAnnotations.get(NvidiaKeys.TO_ALLOCATE))
                .containers()
                .getFirst()
                .getFirst();
    }

    /** Our plugin's Allocate for the pod holding the node lock, then the protocol's end: success, lock released. */
    static void allocateWithOurPlugin(
            KubernetesClient admin, MockPlugin plugin, String ns, String name, String node, ContainerDevice device) {
        plugin.allocate(device.uuid() + "-0");
        awaitServed(admin, ns, name, node);
    }

    /**
     * The variables HAMi-core reads, as an Allocate answered them for a one-GPU decision of 3000 MiB and 30 %;
     * returns them for the run's table.
     */
    static String assertHamiCoreEnv(Map<String, String> envs, ContainerDevice chosen) {
        assertThat(envs)
                .containsEntry("NVIDIA_VISIBLE_DEVICES", chosen.uuid())
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "3000m")
                .containsEntry("CUDA_DEVICE_SM_LIMIT", "30");
        return "NVIDIA_VISIBLE_DEVICES=" + envs.get("NVIDIA_VISIBLE_DEVICES") + ", CUDA_DEVICE_MEMORY_LIMIT_0="
                + envs.get("CUDA_DEVICE_MEMORY_LIMIT_0") + ", CUDA_DEVICE_SM_LIMIT=" + envs.get("CUDA_DEVICE_SM_LIMIT");
    }

    /**
     * The protocol's end after an Allocate: {@code bind-phase=success}, the node lock released, the to-allocate entry
     * consumed (in either implementation's form: ours {@code ;}, upstream's {@code ;;}) and the allocated value as
     * decided; returns the values for the run's table.
     */
    static String assertFinished(
            KubernetesClient admin, String ns, String name, String node, Map<String, String> decided)
            throws AnnotationFormatException {
        awaitServed(admin, ns, name, node);
        var after = annotations(pod(admin, ns, name));
        assertThat(PodDevicesCodec.decode(after.get(NvidiaKeys.TO_ALLOCATE)).containers().stream()
                        .allMatch(List::isEmpty))
                .as("to-allocate consumed: %s", after.get(NvidiaKeys.TO_ALLOCATE))
                .isTrue();
        assertThat(after.get(NvidiaKeys.ALLOCATED)).isEqualTo(decided.get(NvidiaKeys.ALLOCATED));
        return ProtocolKeys.BIND_PHASE + "=success; " + NvidiaKeys.TO_ALLOCATE + "=" + after.get(NvidiaKeys.TO_ALLOCATE)
                + "; " + NvidiaKeys.ALLOCATED + "=" + after.get(NvidiaKeys.ALLOCATED) + "; lock released";
    }

    /** Waits until the pod is {@code bind-phase=success} and its node's lock is released. */
    static void awaitServed(KubernetesClient admin, String ns, String name, String node) {
        await(ns + "/" + name + " served and " + node + " unlocked")
                .atMost(PATIENCE)
                .until(() -> ProtocolKeys.PHASE_SUCCESS.equals(
                                annotations(pod(admin, ns, name)).get(ProtocolKeys.BIND_PHASE))
                        && !nodeAnnotations(admin, node).containsKey(ProtocolKeys.NODE_LOCK));
    }
}
