package io.hami.protocol.codec;

import io.hami.protocol.device.MigAllocation;
import io.hami.protocol.device.MigPlacement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;

/**
 * {@code hami.io/vgpu-mig-allocations} (docs/mig-design.md §1.3): a JSON array byte-compatible with upstream's
 * {@code EncodeMigAllocations}, keys in Go's order {@code containerIndex, deviceIndex, gpuUUID, profile,
 * placement{start,size}} and, only once the plugin created the instance, {@code migUUID, gpuInstanceID,
 * computeInstanceID} (an id of 0 is written). Decoding follows {@code DecodeMigAllocations}: {@code ""} and {@code
 * null} are no reservations; keys are read case-insensitively, unknown keys ignored, JSON {@code null} leaves a field
 * absent; an incomplete entry, a partial runtime identity or a repeated {@code (containerIndex, deviceIndex)} fails
 * the whole value with upstream's message. Indexes are non-negative int32s, placements and ids uint32s.
 */
public final class MigAllocationsCodec {
    private static final List<String> KEYS = List.of(
            "containerIndex",
            "deviceIndex",
            "gpuUUID",
            "profile",
            "placement",
            "migUUID",
            "gpuInstanceID",
            "computeInstanceID");
    private static final List<String> PLACEMENT_KEYS = List.of("start", "size");
    private static final String UINT32 = "a whole number from 0 to " + MigPlacement.MAX_UINT32;

    /** For {@code hami annotation}: the canonical JSON of the value is the value as we write it. */
    public static final AnnotationCodec ANNOTATION = new AnnotationCodec() {
        @Override
        public String toJson(String value) throws AnnotationFormatException {
            return encode(decode(value));
        }

        @Override
        public String fromJson(String json) throws AnnotationFormatException {
            return encode(decode(json));
        }
    };

    private MigAllocationsCodec() {}

    /** The reservations in order; an empty list is written {@code []} (upstream writes no annotation instead). */
    public static String encode(List<MigAllocation> allocations) {
        return GoJson.write(g -> {
            g.writeStartArray();
            for (MigAllocation a : allocations) {
                g.writeStartObject();
                g.writeNumberProperty("containerIndex", a.containerIndex());
                g.writeNumberProperty("deviceIndex", a.deviceIndex());
                g.writeStringProperty("gpuUUID", GoJson.sanitize(a.gpuUuid()));
                g.writeStringProperty("profile", GoJson.sanitize(a.profile()));
                g.writeName("placement");
                placement(g, a.placement());
                a.runtime().ifPresent(r -> {
                    g.writeStringProperty("migUUID", GoJson.sanitize(r.migUuid()));
                    g.writeNumberProperty("gpuInstanceID", r.gpuInstanceId());
                    g.writeNumberProperty("computeInstanceID", r.computeInstanceId());
                });
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    private static void placement(JsonGenerator g, MigPlacement p) {
        g.writeStartObject();
        g.writeNumberProperty("start", p.start());
        g.writeNumberProperty("size", p.size());
        g.writeEndObject();
    }

    public static List<MigAllocation> decode(String value) throws AnnotationFormatException {
        if (value.isEmpty()) {
            return List.of();
        }
        JsonNode root = GoJson.arrayOrNull(value, "MIG allocations");
        if (root == null) {
            return List.of();
        }
        var fields = new ArrayList<Fields>();
        for (int i = 0; i < root.size(); i++) {
            var f = new Fields(i);
            JsonNode node = root.get(i);
            if (!node.isNull()) { // Go leaves a null element at its zero value
                f.read(node);
            }
            fields.add(f);
        }
        // Upstream checks the entries in order once all of them parsed.
        var seen = new HashSet<List<Integer>>();
        var out = new ArrayList<MigAllocation>();
        for (Fields f : fields) {
            MigAllocation a = f.toAllocation();
            if (!seen.add(List.of(a.containerIndex(), a.deviceIndex()))) {
                throw new AnnotationFormatException(
                        "duplicate MIG allocation for container " + a.containerIndex() + " device " + a.deviceIndex());
            }
            out.add(a);
        }
        return List.copyOf(out);
    }

    /** One entry in the making, from Go's zero values; the ids are null while absent (Go's nil pointers). */
    private static final class Fields {
        private final int i;
        private int containerIndex;
        private int deviceIndex;
        private String gpuUuid = "";
        private String profile = "";
        private long start;
        private long size;
        private String migUuid = "";
        private Long gpuInstanceId;
        private Long computeInstanceId;

        Fields(int i) {
            this.i = i;
        }

        void read(JsonNode node) throws AnnotationFormatException {
            if (!node.isObject()) {
                throw new AnnotationFormatException(
                        "MIG allocation " + i + " must be a JSON object, got " + GoJson.kind(node));
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String key = GoJson.field(e.getKey(), KEYS);
                JsonNode v = e.getValue();
                if (key == null) {
                    continue;
                }
                if (v.isNull()) {
                    // null sets a pointer to nil and leaves every other field as it is
                    if (key.equals("gpuInstanceID")) gpuInstanceId = null;
                    if (key.equals("computeInstanceID")) computeInstanceId = null;
                    continue;
                }
                switch (key) {
                    case "containerIndex" -> containerIndex = index(key, v);
                    case "deviceIndex" -> deviceIndex = index(key, v);
                    case "gpuUUID" -> gpuUuid = string(key, v);
                    case "profile" -> profile = string(key, v);
                    case "migUUID" -> migUuid = string(key, v);
                    case "gpuInstanceID" -> gpuInstanceId = uint32(key, v);
                    case "computeInstanceID" -> computeInstanceId = uint32(key, v);
                    case "placement" -> placement(v);
                    default -> throw new IllegalStateException(key);
                }
            }
        }

        private void placement(JsonNode v) throws AnnotationFormatException {
            if (!v.isObject()) {
                throw invalid("placement", v, "an object");
            }
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                String key = GoJson.field(e.getKey(), PLACEMENT_KEYS);
                if (key != null && !e.getValue().isNull()) {
                    long n = uint32("placement." + key, e.getValue());
                    if (key.equals("start")) start = n;
                    else size = n;
                }
            }
        }

        private int index(String key, JsonNode v) throws AnnotationFormatException {
            if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                throw invalid(key, v, GoStrconv.NON_NEGATIVE_INT32);
            }
            long n = v.longValue();
            if (n > Integer.MAX_VALUE) {
                throw invalid(key, v, GoStrconv.NON_NEGATIVE_INT32);
            }
            // upstream reads a negative index and then refuses the entry as incomplete
            return n < 0 ? -1 : (int) n;
        }

        private long uint32(String key, JsonNode v) throws AnnotationFormatException {
            if (!v.isIntegralNumber()
                    || !v.canConvertToLong()
                    || v.longValue() < 0
                    || v.longValue() > MigPlacement.MAX_UINT32) {
                throw invalid(key, v, UINT32);
            }
            return v.longValue();
        }

        private String string(String key, JsonNode v) throws AnnotationFormatException {
            if (!v.isString()) {
                throw invalid(key, v, "a string");
            }
            return GoJson.sanitize(v.stringValue());
        }

        private AnnotationFormatException invalid(String key, JsonNode v, String want) {
            String shown = v.toString();
            shown = shown.length() > 80 ? shown.substring(0, 77) + "..." : shown;
            return new AnnotationFormatException(
                    "invalid " + key + " field in MIG allocation " + i + ": " + shown + " (want " + want + ")");
        }

        MigAllocation toAllocation() throws AnnotationFormatException {
            if (containerIndex < 0 || deviceIndex < 0 || gpuUuid.isEmpty() || profile.isEmpty() || size == 0) {
                throw new AnnotationFormatException("MIG allocation " + i + " is incomplete");
            }
            int runtimeFields =
                    (migUuid.isEmpty() ? 0 : 1) + (gpuInstanceId == null ? 0 : 1) + (computeInstanceId == null ? 0 : 1);
            if (runtimeFields != 0 && runtimeFields != 3) {
                throw new AnnotationFormatException("MIG allocation " + i + " has partial runtime identity");
            }
            return new MigAllocation(
                    containerIndex,
                    deviceIndex,
                    gpuUuid,
                    profile,
                    new MigPlacement(start, size),
                    runtimeFields == 3
                            ? Optional.of(new MigAllocation.Runtime(migUuid, gpuInstanceId, computeInstanceId))
                            : Optional.empty());
        }
    }
}
