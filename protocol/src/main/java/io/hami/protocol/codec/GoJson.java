package io.hami.protocol.codec;

import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Jackson set up to read and write JSON the way Go's {@code encoding/json} does, so values we write are
 * byte-identical to upstream's and values upstream writes read back the same. Public for vendor modules whose own
 * annotations (NVIDIA's pair scores) follow the same rules.
 */
public final class GoJson {
    /** Deeper nesting than any register value needs; bounds stack and memory on hostile input. */
    private static final int MAX_NESTING = 64;

    public static final JsonMapper READER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING)
                            .build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final JsonFactory WRITER =
            JsonFactory.builder().characterEscapes(new GoEscapes()).build();

    private GoJson() {}

    /**
     * {@code value} as the JSON array an annotation holds, read as Go reads it; null for JSON {@code null}. Errors name
     * {@code what} ("register annotation", "MIG allocations").
     */
    static JsonNode arrayOrNull(String value, String what) throws AnnotationFormatException {
        JsonNode root;
        try {
            root = READER.readTree(value);
        } catch (JacksonException e) {
            throw new AnnotationFormatException("invalid JSON in " + what + ": " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw new AnnotationFormatException("empty " + what);
        }
        if (root.isNull()) {
            return null;
        }
        if (!root.isArray()) {
            throw new AnnotationFormatException(what + " must be a JSON array, got " + kind(root));
        }
        return root;
    }

    /** A JSON node's type as error messages name it: {@code object}, {@code string}, {@code number}, ... */
    static String kind(JsonNode node) {
        return node.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /** Runs {@code body} against a generator and returns what it wrote. */
    public static String write(Consumer<JsonGenerator> body) {
        var out = new StringWriter();
        try (JsonGenerator g = WRITER.createGenerator(ObjectWriteContext.empty(), out)) {
            body.accept(g);
        }
        return out.toString();
    }

    /**
     * The field a JSON key names, or null. Go's decoder compares keys folded by its {@code foldName}: ASCII
     * letters upper-cased, any other rune mapped by {@code unicode.ToUpper}. ({@link String#equalsIgnoreCase}
     * differs: it would also take "\u0130d" for "id".)
     */
    static String field(String key, List<String> keys) {
        if (keys.contains(key)) {
            return key;
        }
        var folded = new StringBuilder(key.length());
        key.codePoints()
                .forEach(cp -> folded.appendCodePoint(
                        cp < 0x80 ? (cp >= 'a' && cp <= 'z' ? cp - ('a' - 'A') : cp) : Character.toUpperCase(cp)));
        String f = folded.toString();
        for (String k : keys) {
            if (k.toUpperCase(java.util.Locale.ROOT).equals(f)) {
                return k;
            }
        }
        return null;
    }

    /** Go writes invalid UTF-16 (a lone surrogate) as U+FFFD. */
    public static String sanitize(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean lone = Character.isHighSurrogate(c)
                    ? i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
            if (lone && b == null) {
                b = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (b != null) {
                b.append(lone ? '\ufffd' : c);
            }
        }
        return b == null ? s : b.toString();
    }

    /**
     * Go's escaping: {@code \"}, {@code \\}, {@code \b \f \n \r \t}, other control characters as
     * lower-case hex escapes, HTML-sensitive {@code < > &} and U+2028/U+2029 as escapes.
     */
    private static final class GoEscapes extends CharacterEscapes {
        private final int[] ascii;

        GoEscapes() {
            ascii = CharacterEscapes.standardAsciiEscapesForJSON();
            for (int c = 0; c < 0x20; c++) {
                // Jackson's table already holds the short forms for b f n r t; Go writes the rest in lower case.
                if (c != '\b' && c != '\f' && c != '\n' && c != '\r' && c != '\t') {
                    ascii[c] = ESCAPE_CUSTOM;
                }
            }
            ascii['<'] = ESCAPE_CUSTOM;
            ascii['>'] = ESCAPE_CUSTOM;
            ascii['&'] = ESCAPE_CUSTOM;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch < 0x80 || ch == 0x2028 || ch == 0x2029) {
                return new SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }
}
