package io.hami.e2e.support;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.LegacyRegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Nodes and pods as a real cluster holds them: what kube-scheduler needs of a node besides our devices. */
public final class Cluster {
    /** Keeps other classes' pods off a class's nodes: every class shares the control plane. */
    private static final String E2E_TAINT = "hami.io/e2e";

    private Cluster() {}

    /** {@code hami.io/e2e=VALUE:NoSchedule}, for a class's nodes. */
    public static Taint e2eTaint(String value) {
        return new TaintBuilder()
                .withKey(E2E_TAINT)
                .withValue(value)
                .withEffect("NoSchedule")
                .build();
    }

    /** Tolerates {@link #e2eTaint}, for a class's own pods. */
    public static Toleration e2eToleration() {
        return new TolerationBuilder()
                .withKey(E2E_TAINT)
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .build();
    }

    /** A node kube-scheduler accepts pods on: hostname label, allocatable pods, CPU and memory. */
    public static NodeBuilder node(String name) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("kubernetes.io/hostname", name)
                .endMetadata()
                .withNewStatus()
                .addToCapacity(
                        Map.of("pods", new Quantity("110"), "cpu", new Quantity("16"), "memory", new Quantity("64Gi")))
                .addToAllocatable(
                        Map.of("pods", new Quantity("110"), "cpu", new Quantity("16"), "memory", new Quantity("64Gi")))
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .endCondition()
                .endStatus();
    }

    public static DeviceInfo gpu(String id, int index, int memMiB, String type) {
        return new DeviceInfo(id, index, 10, memMiB, 100, type, 0, "hami-core", true);
    }

    public static Node nvidia(String name, DeviceInfo... gpus) {
        return node(name)
                .editMetadata()
                .addToAnnotations("hami.io/node-nvidia-register", JsonRegisterCodec.encode(List.of(gpus)))
                .endMetadata()
                .editStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity(String.valueOf(gpus.length * 10)))
                .addToCapacity("nvidia.com/gpu", new Quantity(String.valueOf(gpus.length * 10)))
                .endStatus()
                .build();
    }

    public static Node hygon(String name, DeviceInfo... hcus) {
        return node(name)
                .editMetadata()
                .addToAnnotations("hami.io/node-hcu-register", LegacyRegisterCodec.encode(List.of(hcus)))
                .endMetadata()
                .editStatus()
                .addToAllocatable("hygon.com/hcunum", new Quantity(String.valueOf(hcus.length * 10)))
                .addToCapacity("hygon.com/hcunum", new Quantity(String.valueOf(hcus.length * 10)))
                .endStatus()
                .build();
    }

    /** Cambricon: discovered from Capacity (cores 100 per card, memory in 256 MiB units). */
    public static NodeBuilder cambricon(NodeBuilder node, int cards, int memUnitsPerCard) {
        return node.editStatus()
                .addToCapacity("cambricon.com/mlu.smlu.vcore", new Quantity(String.valueOf(cards * 100)))
                .addToCapacity("cambricon.com/mlu.smlu.vmemory", new Quantity(String.valueOf(cards * memUnitsPerCard)))
                .addToAllocatable("cambricon.com/mlu.smlu.vcore", new Quantity(String.valueOf(cards * 100)))
                .addToAllocatable(
                        "cambricon.com/mlu.smlu.vmemory", new Quantity(String.valueOf(cards * memUnitsPerCard)))
                .endStatus();
    }

    /** Moore Threads: discovered from Capacity (16 cores per GPU, memory in 512 MiB units). */
    public static NodeBuilder mthreads(NodeBuilder node, int gpus, int memUnitsPerGpu) {
        return node.editStatus()
                .addToCapacity("mthreads.com/sgpu-core", new Quantity(String.valueOf(gpus * 16)))
                .addToCapacity("mthreads.com/sgpu-memory", new Quantity(String.valueOf(gpus * memUnitsPerGpu)))
                .addToAllocatable("mthreads.com/sgpu-core", new Quantity(String.valueOf(gpus * 16)))
                .addToAllocatable("mthreads.com/sgpu-memory", new Quantity(String.valueOf(gpus * memUnitsPerGpu)))
                .endStatus();
    }

    /** A container with these limits ({@code name, quantity, name, quantity, ...}). */
    public static Container container(String name, String... resources) {
        var limits = new LinkedHashMap<String, Quantity>();
        for (int i = 0; i < resources.length; i += 2) {
            limits.put(resources[i], new Quantity(resources[i + 1]));
        }
        return new ContainerBuilder()
                .withName(name)
                .withImage("registry.k8s.io/pause:3.10")
                .withNewResources()
                .withLimits(limits)
                .endResources()
                .build();
    }

    /** A pod as a user writes it: no scheduler name (the webhook sets it), no annotations. */
    public static PodBuilder pod(String namespace, String name, Container... containers) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withContainers(containers)
                .withTerminationGracePeriodSeconds(0L)
                .endSpec();
    }

    public static Pod onNode(Pod pod, String node) {
        return new PodBuilder(pod)
                .editSpec()
                .addToNodeSelector("kubernetes.io/hostname", node)
                .endSpec()
                .build();
    }
}
