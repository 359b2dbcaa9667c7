package io.hami.backend.nvidia.topology;

import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.GoJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code hami.io/node-nvidia-score}: a JSON array byte-compatible with Go's {@code encoding/json}. Encoding writes
 * what upstream's plugin writes (its {@code ListDeviceScore}: {@code uuid} and {@code score} always present, so a
 * one-GPU node gives {@code "score":{}}; map keys sorted by their UTF-8 bytes; no spaces); decoding reads what the
 * scheduler's {@code DevicePairScore} reads (both fields {@code omitempty}). Decoding is stricter than Go's, since a wrong value would steer placement silently: every
 * entry needs a non-empty {@code uuid}, every score is a non-negative int32, and a UUID or a peer given twice is an
 * error. Field names match case-insensitively and unknown fields are ignored, as in Go.
 */
public final class DevicePairScoreCodec {
    /** Names the value in messages; the scheduler adds the annotation key. */
    private static final String WHAT = "pair score annotation";

    private static final String WANT_SCORE = "a whole number from 0 to " + Integer.MAX_VALUE;

    // Duplicate keys inside one JSON object are refused by the parser: Go's last-wins would hide a plugin bug.
    private static final JsonMapper READER = GoJson.READER
            .rebuild()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private DevicePairScoreCodec() {}

    /** Go's {@code json.Marshal} of the list, in list order. */
    public static String encode(List<DevicePairScore> scores) {
        return GoJson.write(g -> {
            g.writeStartArray();
            for (DevicePairScore s : scores) {
                g.writeStartObject();
                g.writeStringProperty("uuid", GoJson.sanitize(s.uuid()));
                g.writeName("score");
                g.writeStartObject();
                for (Map.Entry<String, Integer> e : sortedLikeGo(s.score())) {
                    g.writeNumberProperty(e.getKey(), e.getValue());
                }
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** Go sorts map keys by their bytes, which is UTF-8 order (Java's String order differs above U+FFFF). */
    private static List<Map.Entry<String, Integer>> sortedLikeGo(Map<String, Integer> score) {
        var entries = new ArrayList<Map.Entry<String, Integer>>();
        for (Map.Entry<String, Integer> e : score.entrySet()) {
            entries.add(Map.entry(GoJson.sanitize(e.getKey()), e.getValue()));
        }
        entries.sort((a, b) -> Arrays.compareUnsigned(utf8(a.getKey()), utf8(b.getKey())));
        return entries;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The entries, in annotation order; JSON {@code null} reads as no entries, as in Go. */
    public static List<DevicePairScore> decode(String value) throws AnnotationFormatException {
        JsonNode root;
        try {
            root = READER.readTree(value);
        } catch (JacksonException e) {
            throw new AnnotationFormatException("invalid JSON in " + WHAT + ": " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw new AnnotationFormatException("empty " + WHAT);
        }
        if (root.isNull()) {
            return List.of();
        }
        if (!root.isArray()) {
            throw new AnnotationFormatException(WHAT + " must be a JSON array, got " + kind(root));
        }
        var out = new ArrayList<DevicePairScore>(root.size());
        var seen = new HashSet<String>();
        for (int n = 0; n < root.size(); n++) {
            DevicePairScore s = entry(root.get(n), n);
            if (!seen.add(s.uuid())) {
                throw new AnnotationFormatException(
                        "duplicate uuid " + shown(root.get(n).get(uuidKey(root.get(n)))) + " in entry " + n);
            }
            out.add(s);
        }
        return List.copyOf(out);
    }

    private static DevicePairScore entry(JsonNode node, int n) throws AnnotationFormatException {
        if (!node.isObject()) {
            throw new AnnotationFormatException("entry " + n + " must be a JSON object, got " + kind(node));
        }
        String uuid = null;
        Map<String, Integer> score = Map.of();
        boolean sawUuid = false;
        boolean sawScore = false;
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String field = fold(e.getKey());
            JsonNode v = e.getValue();
            if (field.equals("UUID")) {
                if (sawUuid) {
                    throw new AnnotationFormatException("uuid given twice in entry " + n);
                }
                sawUuid = true;
                if (!v.isNull()) {
                    if (!v.isString()) {
                        throw new AnnotationFormatException(
                                "invalid uuid field in entry " + n + ": " + shown(v) + " (want a string)");
                    }
                    uuid = GoJson.sanitize(v.stringValue());
                }
            } else if (field.equals("SCORE")) {
                if (sawScore) {
                    throw new AnnotationFormatException("score given twice in entry " + n);
                }
                sawScore = true;
                score = scores(v, n);
            }
        }
        if (uuid == null || uuid.isEmpty()) {
            throw new AnnotationFormatException("entry " + n + " has no uuid");
        }
        return new DevicePairScore(uuid, score);
    }

    private static Map<String, Integer> scores(JsonNode v, int n) throws AnnotationFormatException {
        if (v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw new AnnotationFormatException(
                    "invalid score field in entry " + n + ": " + shown(v) + " (want an object of peer uuid to score)");
        }
        var out = new LinkedHashMap<String, Integer>();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            JsonNode s = e.getValue();
            // Go rejects 1.0 and 1e2 for an int, as Jackson's integral-number check does.
            if (!s.isIntegralNumber()
                    || !s.canConvertToLong()
                    || s.longValue() < 0
                    || s.longValue() > Integer.MAX_VALUE) {
                throw new AnnotationFormatException("invalid score for peer " + shown(e.getKey()) + " in entry " + n
                        + ": " + shown(s) + " (want " + WANT_SCORE + ")");
            }
            // Two keys that differ only in an invalid surrogate would read as the same peer.
            if (out.put(GoJson.sanitize(e.getKey()), (int) s.longValue()) != null) {
                throw new AnnotationFormatException("duplicate peer " + shown(e.getKey()) + " in entry " + n);
            }
        }
        return out;
    }

    /** The key of the node's uuid field as written, for messages. */
    private static String uuidKey(JsonNode node) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (fold(e.getKey()).equals("UUID")) {
                return e.getKey();
            }
        }
        return "uuid";
    }

    /**
     * Go's {@code foldName}: ASCII letters upper-cased, any other rune mapped by {@code unicode.ToUpper}, so
     * "UUID" and "Score" name the fields.
     */
    private static String fold(String key) {
        var folded = new StringBuilder(key.length());
        key.codePoints()
                .forEach(cp -> folded.appendCodePoint(
                        cp < 0x80 ? (cp >= 'a' && cp <= 'z' ? cp - ('a' - 'A') : cp) : Character.toUpperCase(cp)));
        return folded.toString();
    }

    private static String shown(String s) {
        return shown(GoJson.READER.getNodeFactory().stringNode(s));
    }

    /** The offending JSON value as written, shortened to keep the message on one line. */
    private static String shown(JsonNode v) {
        String json = v.toString();
        return json.length() > 80 ? json.substring(0, 77) + "..." : json;
    }

    private static String kind(JsonNode node) {
        return node.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
