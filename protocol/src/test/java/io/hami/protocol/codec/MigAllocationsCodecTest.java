package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.protocol.device.MigAllocation;
import io.hami.protocol.device.MigPlacement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code hami.io/vgpu-mig-allocations}, with upstream's {@code mig_profiles_test.go} vectors (docs/mig-design.md §2). */
class MigAllocationsCodecTest {

    /** Upstream's {@code TestEncodeDecodeMigAllocations}: one grant on GPU-a, 1g.5gb at {6,1}. */
    @Test
    void aReservationRoundTripsInGoFieldOrder() throws Exception {
        var a = new MigAllocation(0, 0, "GPU-a", "1g.5gb", new MigPlacement(6, 1));
        String raw = MigAllocationsCodec.encode(List.of(a));
        assertThat(raw)
                .isEqualTo("[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\","
                        + "\"placement\":{\"start\":6,\"size\":1}}]");
        assertThat(MigAllocationsCodec.decode(raw)).containsExactly(a);
    }

    /** docs/mig-design.md §1.3's example, with the plugin's runtime fields, byte for byte. */
    @Test
    void theRuntimeIdentityIsWrittenLast() throws Exception {
        String raw = "[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\","
                + "\"placement\":{\"start\":6,\"size\":1},\"migUUID\":\"MIG-a\",\"gpuInstanceID\":7,\"computeInstanceID\":0}]";
        List<MigAllocation> decoded = MigAllocationsCodec.decode(raw);
        assertThat(decoded)
                .containsExactly(new MigAllocation(
                        0,
                        0,
                        "GPU-a",
                        "1g.5gb",
                        new MigPlacement(6, 1),
                        Optional.of(new MigAllocation.Runtime("MIG-a", 7, 0))));
        assertThat(MigAllocationsCodec.encode(decoded)).isEqualTo(raw);
    }

    /** Upstream's {@code TestDecodeMigAllocationsPreservesZeroRuntimeInstanceIDs}. */
    @Test
    void zeroInstanceIdsArePresentIds() throws Exception {
        var decoded = MigAllocationsCodec.decode(
                "[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"2g.10gb\","
                        + "\"placement\":{\"start\":0,\"size\":2},\"migUUID\":\"MIG-a\",\"gpuInstanceID\":4,\"computeInstanceID\":0}]");
        assertThat(decoded.get(0).runtime()).contains(new MigAllocation.Runtime("MIG-a", 4, 0));
    }

    /** Upstream's {@code TestDecodeMigAllocationsRejectsDuplicateDeviceIndex}. */
    @Test
    void aRepeatedContainerAndDeviceIsRefused() {
        rejected(
                "[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\",\"placement\":{\"start\":6,\"size\":1}},"
                        + "{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\",\"placement\":{\"start\":5,\"size\":1}}]",
                "duplicate MIG allocation for container 0 device 0");
    }

    /** Upstream's {@code TestDecodeMigAllocationsRejectsPartialRuntimeIdentity}, and the other partial forms. */
    @Test
    void aPartialRuntimeIdentityIsRefused() {
        String head = "[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"2g.10gb\","
                + "\"placement\":{\"start\":0,\"size\":2},";
        for (String tail : List.of(
                "\"migUUID\":\"MIG-a\"}]",
                "\"gpuInstanceID\":0}]",
                "\"migUUID\":\"MIG-a\",\"computeInstanceID\":0}]",
                "\"migUUID\":\"\",\"gpuInstanceID\":1,\"computeInstanceID\":0}]",
                "\"migUUID\":\"MIG-a\",\"gpuInstanceID\":1,\"computeInstanceID\":null}]")) {
            rejected(head + tail, "MIG allocation 0 has partial runtime identity");
        }
    }

    @Test
    void emptyAndNullAreNoReservations() throws Exception {
        assertThat(MigAllocationsCodec.decode("")).isEmpty();
        assertThat(MigAllocationsCodec.decode("null")).isEmpty();
        assertThat(MigAllocationsCodec.decode(" [ ] ")).isEmpty();
        assertThat(MigAllocationsCodec.encode(List.of())).isEqualTo("[]");
    }

    @Test
    void incompleteEntriesAreRefusedWithTheirPosition() {
        String ok =
                "{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\",\"placement\":{\"start\":6,\"size\":1}}";
        for (String bad : List.of(
                "null",
                "{}",
                "{\"containerIndex\":-1,\"deviceIndex\":1,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\",\"placement\":{\"size\":1}}",
                "{\"deviceIndex\":-9223372036854775808,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\",\"placement\":{\"size\":1}}",
                "{\"deviceIndex\":1,\"gpuUUID\":\"\",\"profile\":\"1g.5gb\",\"placement\":{\"size\":1}}",
                "{\"deviceIndex\":1,\"gpuUUID\":\"GPU-a\",\"placement\":{\"size\":1}}",
                "{\"deviceIndex\":1,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\",\"placement\":{\"start\":3}}")) {
            rejected("[" + ok + "," + bad + "]", "MIG allocation 1 is incomplete");
        }
    }

    @Test
    void keysAreReadInAnyCaseAndUnknownKeysIgnored() throws Exception {
        assertThat(
                        MigAllocationsCodec.decode(
                                "[{\"CONTAINERINDEX\":2,\"DeviceIndex\":1,\"gpuuuid\":\"GPU-b\",\"Profile\":\"3g.20gb\","
                                        + "\"PLACEMENT\":{\"Start\":4,\"SIZE\":4,\"x\":1},\"extra\":[1,{}],\"gpuInstanceID\":null}]"))
                .containsExactly(new MigAllocation(2, 1, "GPU-b", "3g.20gb", new MigPlacement(4, 4)));
    }

    @Test
    void badJsonAndBadFieldsAreClearErrors() {
        rejected("[", "invalid JSON in MIG allocations");
        rejected(" ", "empty MIG allocations");
        rejected("{}", "MIG allocations must be a JSON array, got object");
        rejected("[5]", "MIG allocation 0 must be a JSON object, got number");
        rejected("[{\"containerIndex\":\"0\"}]", "invalid containerIndex field in MIG allocation 0: \"0\"");
        rejected(
                "[{\"deviceIndex\":2147483648}]",
                "invalid deviceIndex field",
                "want a whole number from 0 to 2147483647");
        rejected("[{\"deviceIndex\":1.5}]", "invalid deviceIndex field");
        rejected("[{\"gpuUUID\":1}]", "invalid gpuUUID field in MIG allocation 0: 1 (want a string)");
        rejected("[{\"placement\":[]}]", "invalid placement field in MIG allocation 0: [] (want an object)");
        rejected(
                "[{\"placement\":{\"size\":-1}}]",
                "invalid placement.size field",
                "want a whole number from 0 to 4294967295");
        rejected("[{\"gpuInstanceID\":4294967296}]", "invalid gpuInstanceID field");
        rejected("[{\"computeInstanceID\":-1}]", "invalid computeInstanceID field");
    }

    @Test
    void theRecordRefusesWhatTheDecoderRefuses() {
        assertThatThrownBy(() -> new MigAllocation(0, 0, "", "1g.5gb", new MigPlacement(6, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MigAllocation(0, -1, "GPU-a", "1g.5gb", new MigPlacement(6, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MigAllocation(0, 0, "GPU-a", "1g.5gb", new MigPlacement(6, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MigAllocation.Runtime("", 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void hamiAnnotationConvertsThroughTheValueAsWeWriteIt() throws Exception {
        String upstream = "[ {\"containerIndex\":1,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\","
                + "\"placement\":{\"size\":1,\"start\":6}} ]";
        String canonical = MigAllocationsCodec.ANNOTATION.toJson(upstream);
        assertThat(canonical)
                .isEqualTo("[{\"containerIndex\":1,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\","
                        + "\"placement\":{\"start\":6,\"size\":1}}]");
        assertThat(MigAllocationsCodec.ANNOTATION.fromJson(canonical)).isEqualTo(canonical);
    }

    private static void rejected(String value, String... messageParts) {
        var thrown = assertThatThrownBy(() -> MigAllocationsCodec.decode(value))
                .as(value)
                .isInstanceOf(AnnotationFormatException.class);
        for (String part : messageParts) {
            thrown.hasMessageContaining(part);
        }
    }
}
