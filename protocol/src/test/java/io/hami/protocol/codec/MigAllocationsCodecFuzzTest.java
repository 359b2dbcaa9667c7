package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hami.protocol.device.MigAllocation;
import io.hami.protocol.device.MigPlacement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * {@code hami.io/vgpu-mig-allocations} against a model of Go's {@code encoding/json} written here from Go's rules
 * (docs/mig-design.md §1.3): what {@code json.Marshal} writes, and other spellings {@code json.Unmarshal} reads alike.
 */
class MigAllocationsCodecFuzzTest {

    /** Up to 5 reservations with distinct (container, device) pairs. */
    private static List<MigAllocation> allocations(FuzzedDataProvider data) {
        int n = data.consumeInt(0, 5);
        var seen = new HashSet<List<Integer>>();
        var out = new ArrayList<MigAllocation>();
        for (int i = 0; i < n; i++) {
            int container = data.consumeBoolean() ? data.consumeInt(0, 3) : CodecInputs.indexes(data);
            int device = data.consumeBoolean() ? data.consumeInt(0, 3) : CodecInputs.indexes(data);
            String gpu = CodecInputs.text(data, 1, 24, cp -> true);
            String profile = CodecInputs.text(data, 1, 12, cp -> true);
            var placement = new MigPlacement(CodecInputs.uint32(data), Math.max(1, CodecInputs.uint32(data)));
            Optional<MigAllocation.Runtime> runtime = data.consumeBoolean()
                    ? Optional.of(new MigAllocation.Runtime(
                            CodecInputs.text(data, 1, 24, cp -> true),
                            CodecInputs.uint32(data),
                            CodecInputs.uint32(data)))
                    : Optional.empty();
            if (seen.add(List.of(container, device))) {
                out.add(new MigAllocation(container, device, gpu, profile, placement, runtime));
            }
        }
        return out;
    }

    /** Go's {@code json.Marshal} of upstream's {@code []MigAllocation}. */
    private static String marshal(List<MigAllocation> allocations) {
        var entries = new ArrayList<String>();
        for (MigAllocation a : allocations) {
            String entry = "{\"containerIndex\":" + a.containerIndex() + ",\"deviceIndex\":" + a.deviceIndex()
                    + ",\"gpuUUID\":" + GoJsonOracle.quote(a.gpuUuid()) + ",\"profile\":"
                    + GoJsonOracle.quote(a.profile())
                    + ",\"placement\":{\"start\":" + a.placement().start() + ",\"size\":"
                    + a.placement().size() + "}";
            if (a.runtime().isPresent()) {
                var r = a.runtime().get();
                entry += ",\"migUUID\":" + GoJsonOracle.quote(r.migUuid()) + ",\"gpuInstanceID\":" + r.gpuInstanceId()
                        + ",\"computeInstanceID\":" + r.computeInstanceId();
            }
            entries.add(entry + "}");
        }
        return "[" + String.join(",", entries) + "]";
    }

    /** The same reservations as Go also reads them: keys in any case and order, unknown keys, nulls for absent ids. */
    private static String noisy(List<MigAllocation> allocations, Random r) {
        var entries = new ArrayList<String>();
        for (MigAllocation a : allocations) {
            var m = new ArrayList<String>();
            m.add(key("containerIndex", r) + a.containerIndex());
            m.add(key("deviceIndex", r) + a.deviceIndex());
            m.add(key("gpuUUID", r) + GoJsonOracle.escapedRandomly(a.gpuUuid(), r));
            m.add(key("profile", r) + GoJsonOracle.escapedRandomly(a.profile(), r));
            var p = new ArrayList<>(List.of(
                    key("start", r) + a.placement().start(),
                    key("size", r) + a.placement().size()));
            Collections.shuffle(p, r);
            m.add(key("placement", r) + "{" + String.join(" , ", p) + "}");
            if (a.runtime().isPresent()) {
                var rt = a.runtime().get();
                m.add(key("migUUID", r) + GoJsonOracle.escapedRandomly(rt.migUuid(), r));
                m.add(key("gpuInstanceID", r) + rt.gpuInstanceId());
                m.add(key("computeInstanceID", r) + rt.computeInstanceId());
            } else if (r.nextBoolean()) {
                m.add(key("gpuInstanceID", r) + "null");
                m.add(key("migUUID", r) + (r.nextBoolean() ? "\"\"" : "null"));
            }
            if (r.nextBoolean()) {
                m.add(GoJsonOracle.quote("x" + r.nextInt(9)) + ":" + GoJsonOracle.junkValue(r, 0));
            }
            Collections.shuffle(m, r);
            entries.add("{" + String.join(r.nextBoolean() ? "," : " ,\n ", m) + "}");
        }
        return (r.nextBoolean() ? " " : "") + "[" + String.join(",", entries) + "]";
    }

    private static String key(String name, Random r) {
        return GoJsonOracle.quote(GoJsonOracle.randomCase(name, r)) + ":";
    }

    @FuzzTest
    void encodeIsWhatGoMarshalWritesAndDecodesBack(FuzzedDataProvider data) throws Exception {
        List<MigAllocation> allocations = allocations(data);
        String encoded = MigAllocationsCodec.encode(allocations);
        assertThat(encoded).isEqualTo(marshal(allocations));
        assertThat(MigAllocationsCodec.decode(encoded)).isEqualTo(allocations);
    }

    @FuzzTest
    void anythingGoReadsTheSameWayDecodesTheSame(FuzzedDataProvider data) throws Exception {
        List<MigAllocation> allocations = allocations(data);
        String noisy = noisy(allocations, new Random(data.consumeLong()));
        assertThat(MigAllocationsCodec.decode(noisy)).as(noisy).isEqualTo(allocations);
    }

    /** Any text decodes to reservations that re-encode to themselves, or to a typed error with a message. */
    @FuzzTest
    void decodingIsTotal(FuzzedDataProvider data) {
        String input = data.consumeRemainingAsString();
        try {
            List<MigAllocation> decoded = MigAllocationsCodec.decode(input);
            assertThat(MigAllocationsCodec.decode(MigAllocationsCodec.encode(decoded)))
                    .isEqualTo(decoded);
        } catch (AnnotationFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }
}
