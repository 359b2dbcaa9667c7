package io.hami.lab.fault;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.codec.UnixTimeCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.spi.DeviceBackend;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The pod of upstream #3041/#3076: it skips the webhook, is placed by {@code nodeName}, asks for one GPU and carries
 * the annotations a scheduler decision would have, written by its own author.
 */
final class SelfGrantPod {
    private SelfGrantPod() {}

    /**
     * @param nvidia        the NVIDIA backend: the grant goes under its to-allocate key (the allocated key is left out,
     *                      so the usage index never counts the pod), the request is for its count resource
     * @param gpu           the scheduler ID of a GPU of {@code node}
     */
    static Pod of(String namespace, String name, String node, DeviceBackend nvidia, String gpu, Instant now) {
        String grant =
                PodDevicesCodec.encode(new PodDevices(List.of(List.of(new ContainerDevice(gpu, "NVIDIA", 3000, 10)))));
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .withLabels(Map.of(ProtocolKeys.WEBHOOK_OPT_OUT, ProtocolKeys.WEBHOOK_IGNORE))
                .withAnnotations(Map.of(
                        ProtocolKeys.VGPU_NODE,
                        node,
                        ProtocolKeys.BIND_PHASE,
                        ProtocolKeys.PHASE_ALLOCATING,
                        ProtocolKeys.BIND_TIME,
                        UnixTimeCodec.encode(now),
                        nvidia.keys().toAllocateKey(),
                        grant))
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("main")
                .withImage("lab/self-grant")
                .withNewResources()
                .addToLimits(nvidia.resources().count(), new Quantity("1"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }
}
