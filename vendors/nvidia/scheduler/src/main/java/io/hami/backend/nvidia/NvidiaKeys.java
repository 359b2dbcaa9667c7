package io.hami.backend.nvidia;

import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.spi.VendorKeys;
import java.util.Optional;

/** Every annotation key the NVIDIA backend owns (design D1 in docs/design.md#d1, docs/upstream.md#keys). */
public final class NvidiaKeys {
    /** The type keyword in pod device strings. */
    public static final String VENDOR = "NVIDIA";

    /** Node: the device inventory, JSON. */
    public static final String REGISTER = "hami.io/node-nvidia-register";
    /** Node: the handshake, without a vendor suffix. */
    public static final String HANDSHAKE = "hami.io/node-handshake";

    /**
     * Node: pair scores between the node's GPUs (upstream's {@code DevicePairScore} list), written by the plugin when
     * topology scoring is on; read by the {@code topology-aware} policy. Codec: {@code topology.DevicePairScoreCodec}.
     */
    public static final String SCORE = "hami.io/node-nvidia-score";

    public static final String TO_ALLOCATE = "hami.io/vgpu-devices-to-allocate";
    public static final String ALLOCATED = "hami.io/vgpu-devices-allocated";
    /** Node: comma list of device IDs taken out of scheduling. */
    public static final String DEVICE_CORDON = "hami.io/device-cordon";

    /** Pod: {@code true} keeps the devices of one request on one NUMA node (Go {@code strconv.ParseBool}). */
    public static final String NUMA_BIND = "nvidia.com/numa-bind";
    /** Pod: only devices whose mode is a substring of this value. */
    public static final String VGPU_MODE = "nvidia.com/vgpu-mode";

    public static final DeviceSelector TYPE_SELECTOR =
            new DeviceSelector("nvidia.com/use-gputype", "nvidia.com/nouse-gputype");
    public static final DeviceSelector UUID_SELECTOR =
            new DeviceSelector("nvidia.com/use-gpuuuid", "nvidia.com/nouse-gpuuuid");

    static final VendorKeys VENDOR_KEYS = new VendorKeys(
            Optional.of(REGISTER), Optional.of(RegisterCodec.JSON), Optional.of(HANDSHAKE), TO_ALLOCATE, ALLOCATED);

    private NvidiaKeys() {}
}
