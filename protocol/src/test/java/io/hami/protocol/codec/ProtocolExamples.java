package io.hami.protocol.codec;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.MigPlacement;
import io.hami.protocol.device.MigProfile;
import io.hami.protocol.device.PodDevices;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Every example value of the two protocol documents (docs/upstream.md#protocol-documents) and of
 * docs/upstream.md#colon-form to docs/upstream.md#node-lock, copied verbatim, together with the value each one must
 * decode to, written out by hand from the documents (not produced by the codecs). Shared with the vendor modules
 * through the protocol test-jar.
 */
public final class ProtocolExamples {
    private ProtocolExamples() {}

    // ---------------------------------------------------------------------------------------------
    // the current protocol document

    /** {@code hami.io/node-nvidia-register}: two V100s; the first has index 0, so no "index" key. */
    public static final String CURRENT_NVIDIA_REGISTER =
            "[{\"id\":\"GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec\",\"count\":10,\"devmem\":32768,\"devcore\":100,"
                    + "\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"numa\":1,\"mode\":\"hami-core\",\"health\":true},"
                    + "{\"id\":\"GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448\",\"index\":1,\"count\":10,\"devmem\":32768,"
                    + "\"devcore\":100,\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"numa\":1,\"mode\":\"hami-core\","
                    + "\"health\":true}]";

    public static final List<DeviceInfo> CURRENT_NVIDIA_REGISTER_DEVICES = List.of(
            new DeviceInfo(
                    "GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec",
                    0,
                    10,
                    32768,
                    100,
                    "NVIDIA-Tesla V100-PCIE-32GB",
                    1,
                    "hami-core",
                    true),
            new DeviceInfo(
                    "GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448",
                    1,
                    10,
                    32768,
                    100,
                    "NVIDIA-Tesla V100-PCIE-32GB",
                    1,
                    "hami-core",
                    true));

    /** {@code hami.io/node-handshake}, written by the scheduler. */
    public static final String CURRENT_HANDSHAKE = "Requesting_2024-01-23 04:30:04";

    public static final Handshake CURRENT_HANDSHAKE_VALUE =
            new Handshake(Handshake.State.Requesting, LocalDateTime.of(2024, 1, 23, 4, 30, 4));

    /** {@code hami.io/vgpu-devices-allocated} and {@code hami.io/vgpu-devices-to-allocate} at bind. */
    public static final String CURRENT_POD_DEVICES = "GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448,NVIDIA,3000,0:;";

    public static final PodDevices CURRENT_POD_DEVICES_VALUE = new PodDevices(
            List.of(List.of(new ContainerDevice("GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448", "NVIDIA", 3000, 0))));

    /** {@code hami.io/vgpu-devices-to-allocate} once the one container's entry was consumed. */
    public static final String CURRENT_POD_DEVICES_CONSUMED = ";";

    public static final PodDevices CURRENT_POD_DEVICES_CONSUMED_VALUE = new PodDevices(List.of(List.of()));

    /** {@code hami.io/bind-time}. */
    public static final String CURRENT_BIND_TIME = "1716199325";

    /** 1716199325 s after the epoch (checked with {@code date -u -d @1716199325}). */
    public static final Instant CURRENT_BIND_TIME_VALUE = Instant.parse("2024-05-20T10:02:05Z");

    // ---------------------------------------------------------------------------------------------
    // the older protocol document

    /** NVIDIA handshake in Go's default time format: not a valid handshake value (docs/upstream.md#doc-disagreements, #22). */
    public static final String OLDER_HANDSHAKE_NVIDIA =
            "Reported 2024-01-23 04:30:04.434037031 +0000 UTC m=+1104711.777756895";

    /** MLU handshake with a dotted date: not a valid handshake value (docs/upstream.md#doc-disagreements, #22). */
    public static final String OLDER_HANDSHAKE_MLU = "Requesting_2024.01.10 04:06:57";

    /**
     * The MLU register example; its second entry has only 5 fields, so the whole value is invalid
     * (docs/upstream.md#doc-disagreements, #22).
     */
    public static final String OLDER_MLU_REGISTER =
            "MLU-45013011-2257-0000-0000-000000000000,10,23308,0,MLU-MLU370-X4,0,false:"
                    + "MLU-54043011-2257-0000-0000-000000000000,10,23308,0,";

    /** The second, truncated entry of {@link #OLDER_MLU_REGISTER}. */
    public static final String OLDER_MLU_REGISTER_BAD_ENTRY = "MLU-54043011-2257-0000-0000-000000000000,10,23308,0,";

    /** The first entry of {@link #OLDER_MLU_REGISTER} on its own, ended by ':'; it is well formed. */
    public static final String OLDER_MLU_REGISTER_FIRST_ENTRY =
            "MLU-45013011-2257-0000-0000-000000000000,10,23308,0,MLU-MLU370-X4,0,false:";

    /** A 7-field device: index 0 and mode hami-core (docs/upstream.md#colon-form). */
    public static final DeviceInfo OLDER_MLU_REGISTER_FIRST_DEVICE = new DeviceInfo(
            "MLU-45013011-2257-0000-0000-000000000000", 0, 10, 23308, 0, "MLU-MLU370-X4", 0, "hami-core", false);

    /** The NVIDIA register example in the colon form (7 fields per device). */
    public static final String OLDER_NVIDIA_REGISTER_COLON =
            "GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec,10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true:"
                    + "GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448,10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true:";

    public static final List<DeviceInfo> OLDER_NVIDIA_REGISTER_COLON_DEVICES = List.of(
            new DeviceInfo(
                    "GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec",
                    0,
                    10,
                    32768,
                    100,
                    "NVIDIA-Tesla V100-PCIE-32GB",
                    0,
                    "hami-core",
                    true),
            new DeviceInfo(
                    "GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448",
                    0,
                    10,
                    32768,
                    100,
                    "NVIDIA-Tesla V100-PCIE-32GB",
                    0,
                    "hami-core",
                    true));

    /** {@link #OLDER_NVIDIA_REGISTER_COLON} as our writer emits it: 9 fields, index and mode appended. */
    public static final String OLDER_NVIDIA_REGISTER_COLON_REENCODED =
            "GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec,10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true,0,hami-core:"
                    + "GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448,10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true,0,hami-core:";

    /** Two containers, one GPU each, 3000 and 5000 MiB. */
    public static final String OLDER_POD_DEVICES_TWO_CONTAINERS =
            "GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448,NVIDIA,3000,0:;GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448,NVIDIA,5000,0:;";

    public static final PodDevices OLDER_POD_DEVICES_TWO_CONTAINERS_VALUE = new PodDevices(List.of(
            List.of(new ContainerDevice("GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448", "NVIDIA", 3000, 0)),
            List.of(new ContainerDevice("GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448", "NVIDIA", 5000, 0))));

    /** {@code hami.io/vgpu-time}. */
    public static final String OLDER_VGPU_TIME = "1705054796";

    /** 1705054796 s after the epoch (checked with {@code date -u -d @1705054796}). */
    public static final Instant OLDER_VGPU_TIME_VALUE = Instant.parse("2024-01-12T10:19:56Z");

    // ---------------------------------------------------------------------------------------------
    // docs/upstream.md

    /** docs/upstream.md#colon-form: one device in the 9-field colon form, index 1. */
    public static final String REF_COLON_DEVICE =
            "GPU-ebe7c3f7-303d-558d-435e-99a160631fe4,10,7680,100,NVIDIA-Tesla P4,0,true,1,hami-core:";

    public static final DeviceInfo REF_COLON_DEVICE_VALUE = new DeviceInfo(
            "GPU-ebe7c3f7-303d-558d-435e-99a160631fe4", 1, 10, 7680, 100, "NVIDIA-Tesla P4", 0, "hami-core", true);

    /** docs/upstream.md#colon-form: no ':' at all. */
    public static final List<String> REF_COLON_NO_SEPARATOR = List.of("", ",", "a");

    /** docs/upstream.md#colon-form: only separators, zero devices. */
    public static final List<String> REF_COLON_EMPTY = List.of(":", "::");

    /** docs/upstream.md#colon-form: two fields, counting the empty ones. */
    public static final String REF_COLON_TWO_FIELDS = ",:";

    /**
     * docs/upstream.md#json-register: a device with a MIG profile list (the profile object is upstream's, plus the
     * {@code instanceCount} key that readers ignore) between mode and health, as upstream writes it.
     */
    public static final String REF_NVIDIA_REGISTER_WITH_MIG =
            "[{\"id\":\"GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec\",\"count\":7,\"devmem\":40960,\"devcore\":100,"
                    + "\"type\":\"NVIDIA-A100-PCIE-40GB\",\"numa\":1,\"mode\":\"mig\",\"migProfiles\":[{\"name\":\"1g.5gb\","
                    + "\"memoryMB\":4864,\"core\":15,\"sliceCount\":1,\"placements\":[{\"start\":6,\"size\":1}],"
                    + "\"instanceCount\":7}],\"health\":true}]";

    /** {@link #REF_NVIDIA_REGISTER_WITH_MIG} as we write it back: the profile kept, {@code instanceCount} dropped. */
    public static final String REF_NVIDIA_REGISTER_WITH_MIG_REENCODED =
            "[{\"id\":\"GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec\",\"count\":7,\"devmem\":40960,\"devcore\":100,"
                    + "\"type\":\"NVIDIA-A100-PCIE-40GB\",\"numa\":1,\"mode\":\"mig\",\"migProfiles\":[{\"name\":\"1g.5gb\","
                    + "\"memoryMB\":4864,\"core\":15,\"sliceCount\":1,\"placements\":[{\"start\":6,\"size\":1}]}],"
                    + "\"health\":true}]";

    public static final DeviceInfo REF_NVIDIA_REGISTER_WITH_MIG_DEVICE = new DeviceInfo(
            "GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec",
            0,
            7,
            40960,
            100,
            "NVIDIA-A100-PCIE-40GB",
            1,
            "mig",
            true,
            List.of(new MigProfile("1g.5gb", 4864, 15, 1, List.of(new MigPlacement(6, 1)))));

    /** docs/upstream.md#json-register: an empty list is written as {@code []}; JSON {@code null} reads as an empty list. */
    public static final String REF_NVIDIA_REGISTER_EMPTY = "[]";

    public static final String REF_NVIDIA_REGISTER_NULL = "null";

    /** docs/upstream.md#pod-device-strings: the two devices of the {@code EncodeContainerDeviceType} example, used as A and C below. */
    public static final ContainerDevice REF_POD_DEVICE_A = new ContainerDevice("GPU-a", "NVIDIA", 1000, 10);

    public static final ContainerDevice REF_POD_DEVICE_C = new ContainerDevice("GPU-c", "NVIDIA", 3000, 30);

    /** docs/upstream.md#pod-device-strings {@code [[A]] -> A:;} (one container by design D2). */
    public static final String REF_POD_ONE_CONTAINER = "GPU-a,NVIDIA,1000,10:;";

    /** docs/upstream.md#pod-device-strings {@code [[],[A],[]] -> ;A:;;}. */
    public static final String REF_POD_PADDED = ";GPU-a,NVIDIA,1000,10:;;";

    /** docs/upstream.md#pod-device-strings {@code [] -> ""}: no containers. */
    public static final String REF_POD_NO_CONTAINERS = "";

    /** docs/upstream.md#pod-device-strings: one container with two devices, each ended by ':'. */
    public static final String REF_POD_TWO_DEVICES = "GPU-a,NVIDIA,1000,10:GPU-c,NVIDIA,3000,30:;";

    /** docs/upstream.md#node-lock: the node lock value. */
    public static final String REF_NODE_LOCK = "2026-08-01T06:00:00Z,ns,pod-a";

    public static final NodeLock REF_NODE_LOCK_VALUE =
            new NodeLock(OffsetDateTime.of(2026, 8, 1, 6, 0, 0, 0, ZoneOffset.UTC), "ns", "pod-a");

    /**
     * docs/upstream.md#handshake, docs/upstream.md#node-lock: an RFC 3339 time with an offset, which is also a legacy
     * (time-only) lock value.
     */
    public static final String REF_NODE_LOCK_LEGACY = "2026-07-03T15:35:10+08:00";

    public static final Instant REF_NODE_LOCK_LEGACY_INSTANT = Instant.parse("2026-07-03T07:35:10Z");

    /** docs/upstream.md#node-lock: not a time. */
    public static final String REF_NODE_LOCK_INVALID = "lock";
}
