package io.hami.scheduler.extender;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Collection;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reading and writing the extender's JSON: keys matched case-insensitively and unknown keys ignored, as Go's
 * decoder does; bodies capped so a huge request cannot exhaust memory.
 */
public final class ExtenderJson {
    /** Largest request body accepted (design D6 in docs/design.md#d6: 4 MiB). */
    public static final int MAX_BODY = 4 * 1024 * 1024;

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ExtenderJson() {}

    /** A request body that cannot be used; the message says why in one line. */
    public static final class BadBodyException extends Exception {
        private final int status;

        BadBodyException(int status, String message) {
            super(message);
            this.status = status;
        }

        /** HTTP status to answer with: 400, or 413 for a body over the limit. */
        public int status() {
            return status;
        }
    }

    /**
     * Reads {@code body} as {@code type}, stopping at {@link #MAX_BODY} bytes. The body is read whole first (the server
     * has it in memory already), so that {@link NodeNamesReader} can compare a node list's bytes with the last one's.
     */
    public static <T> T read(InputStream body, Class<T> type) throws BadBodyException {
        return read(body, 0, type);
    }

    /** As {@link #read(InputStream, Class)}, for a body declared {@code expectedLength} bytes long (0: unknown). */
    public static <T> T read(InputStream body, int expectedLength, Class<T> type) throws BadBodyException {
        String name = wireName(type);
        Body bytes = Body.read(body, expectedLength);
        if (bytes.length == 0) {
            throw new BadBodyException(400, "please send a request body (a JSON " + name + ")");
        }
        try {
            T value = MAPPER.readerFor(type)
                    .withAttribute(NodeNamesReader.BODY, bytes.bytes)
                    .readValue(bytes.bytes, 0, bytes.length);
            if (value == null) {
                throw new BadBodyException(400, "request body is JSON null, want a JSON " + name);
            }
            return value;
        } catch (JacksonException e) {
            throw new BadBodyException(400, "malformed " + name + ": " + describe(e));
        }
    }

    /** A request body read whole, in {@code bytes[0, length)}. */
    private record Body(byte[] bytes, int length) {
        /** Reads {@code in} to its end; fails with 413 past {@link #MAX_BODY} bytes (draining the rest), 400 if it breaks. */
        static Body read(InputStream in, int expectedLength) throws BadBodyException {
            // room for the end-of-body read, so that a body of the declared length is read without a copy
            byte[] bytes = new byte[Math.clamp(expectedLength + 1L, 16 * 1024, MAX_BODY + 1)];
            int length = 0;
            try {
                while (true) {
                    if (length == bytes.length) {
                        // One byte past the limit tells a body over it from one of exactly MAX_BODY bytes.
                        bytes = Arrays.copyOf(bytes, (int) Math.min((long) bytes.length * 2, MAX_BODY + 1L));
                    }
                    int n = in.read(bytes, length, bytes.length - length);
                    if (n < 0) {
                        return new Body(bytes, length);
                    }
                    length += n;
                    if (length > MAX_BODY) {
                        drain(in);
                        throw new BadBodyException(413, "request body exceeds " + MAX_BODY + " bytes");
                    }
                }
            } catch (IOException e) {
                throw new BadBodyException(400, "could not read the request body: " + e.getMessage());
            }
        }
    }

    /** kube-scheduler's name of the body (extender/v1), which is what its authors know. */
    private static String wireName(Class<?> type) {
        if (type == BindingArgs.class) {
            return "ExtenderBindingArgs";
        }
        // kube-scheduler's name for the preempt verb's body (io.hami.scheduler.preempt, which depends on this package)
        return type.getSimpleName().equals("PreemptionArgs") ? "ExtenderPreemptionArgs" : type.getSimpleName();
    }

    /**
     * What was wrong with a JSON body, for its sender: the field (as a JSON path such as {@code Pod.spec.containers})
     * and what was expected there, never the Java types the body is read into. {@code problem} is a Jackson exception
     * or wraps one (as fabric8's serialization does); anything else gets a generic text.
     */
    public static String describe(Throwable problem) {
        JacksonException e = null;
        for (Throwable t = problem; t != null && e == null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JacksonException j) {
                e = j;
            }
        }
        if (e == null) {
            return "the body cannot be read";
        }
        String field = path(e);
        String at = field.isEmpty() ? "the body" : "field " + field;
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (message.startsWith("Trailing token")) {
            return "the body holds more than one JSON value";
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            return at + ": expected " + expected(m.getTargetType()) + got(token(m, message));
        }
        if (e instanceof InputCoercionException c) {
            return at + ": expected " + expected(c.getTargetType()) + range(c.getTargetType())
                    + ", got a number out of that range";
        }
        if (e instanceof StreamReadException && field.isEmpty()) {
            var where = e.getLocation();
            String location = where == null || where.getLineNr() < 0
                    ? ""
                    : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
            return "not valid JSON" + location + clean(message);
        }
        return at + ": value not accepted" + clean(message);
    }

    /** The field as a JSON path: {@code a.b[0].c}, keys that are not plain names quoted in brackets. */
    private static String path(JacksonException e) {
        var out = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            String name = r.getPropertyName();
            if (name == null) {
                if (r.getIndex() >= 0) {
                    out.append('[').append(r.getIndex()).append(']');
                }
            } else if (PLAIN.matcher(name).matches()) {
                out.append(out.isEmpty() ? "" : ".").append(name);
            } else {
                out.append("[\"").append(name.replace("\"", "\\\"")).append("\"]");
            }
        }
        return out.toString();
    }

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Texts that name Java or Jackson types, which mean nothing to the sender of a body. */
    private static final Pattern INTERNAL =
            Pattern.compile("`|\\b(java|javax|jdk|sun|io|com|org|tools)\\.[a-z]|Exception|JsonToken|Feature");

    /** {@code ": message"} when the message speaks of JSON only, else nothing. */
    private static String clean(String message) {
        String firstLine = message.lines().findFirst().orElse("");
        return firstLine.isBlank() || INTERNAL.matcher(firstLine).find() ? "" : ": " + firstLine;
    }

    private static String range(Class<?> type) {
        if (type == int.class || type == Integer.class) {
            return " from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        }
        return type == long.class || type == Long.class ? " from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE : "";
    }

    /**
     * The token that did not fit: the message names it when the value was read from a buffer (fabric8 reads an
     * object's fields again from one), where the parser has moved on; else the parser's current one.
     */
    private static JsonToken token(JacksonException e, String message) {
        var named = NAMED_TOKEN.matcher(message);
        if (named.find()) {
            try {
                return JsonToken.valueOf(named.group(1));
            } catch (IllegalArgumentException unknown) {
                return null;
            }
        }
        if (e instanceof MismatchedInputException m && m.getCurrentToken() != null) {
            return m.getCurrentToken();
        }
        return e.processor() instanceof tools.jackson.core.JsonParser p ? p.currentToken() : null;
    }

    private static final Pattern NAMED_TOKEN = Pattern.compile("token `JsonToken\\.([A-Z_]+)`");

    private static String got(JsonToken token) {
        String kind = kind(token);
        return kind == null ? "" : ", got " + kind;
    }

    /** The JSON shape a Java type is read from. */
    static String expected(Class<?> type) {
        if (type == null) {
            return "another kind of value";
        }
        if (type == Quantity.class) {
            return "a quantity (a string such as \"1\" or \"4Gi\")";
        }
        if (type == IntOrString.class) {
            return "a string or a whole number";
        }
        if (type == String.class || type == Character.class || type == char.class || type.isEnum()) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == Integer.class
                || type == int.class
                || type == Long.class
                || type == long.class
                || type == Short.class
                || type == short.class
                || type == Byte.class
                || type == byte.class
                || type == java.math.BigInteger.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        return "an object"; // a Map or one of the model's types
    }

    /** The JSON shape of {@code token}, or null when unknown. */
    static String kind(JsonToken token) {
        if (token == null) {
            return null;
        }
        return switch (token) {
            case START_OBJECT, END_OBJECT, PROPERTY_NAME -> "an object";
            case START_ARRAY, END_ARRAY -> "a list";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "a whole number";
            case VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "true or false";
            case VALUE_NULL -> "null";
            default -> null;
        };
    }

    /**
     * Reads what is left of an oversized body (up to a bound) so the client, still sending, receives the
     * 413 instead of a connection reset that would discard it.
     */
    public static void drain(InputStream body) {
        try {
            byte[] buf = new byte[64 * 1024];
            long left = DRAIN_LIMIT;
            int n;
            while (left > 0 && (n = body.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
                left -= n;
            }
        } catch (IOException e) {
            // the client went away; nothing left to answer
        }
    }

    /** Most bytes read past the limit before giving up on a well-behaved client. */
    private static final long DRAIN_LIMIT = 64L * 1024 * 1024;

    public static byte[] write(Object value) {
        return MAPPER.writeValueAsBytes(value);
    }

    /**
     * {@code value} written into a buffer of {@code expectedSize} bytes to start with, to be sent with
     * {@link ByteArrayOutputStream#writeTo} without a copy.
     */
    public static ByteArrayOutputStream writeBuffered(Object value, int expectedSize) {
        var out = new ByteArrayOutputStream(expectedSize);
        MAPPER.writeValue(out, value);
        return out;
    }
}
