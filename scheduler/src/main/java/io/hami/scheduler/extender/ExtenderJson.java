package io.hami.scheduler.extender;

import java.io.IOException;
import java.io.InputStream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reading and writing the extender's JSON: keys matched case-insensitively and unknown keys ignored, as Go's
 * decoder does; bodies capped so a huge request cannot exhaust memory.
 */
public final class ExtenderJson {
    /** Largest request body accepted (DECISIONS D6 and issue: 4 MiB). */
    public static final int MAX_BODY = 4 * 1024 * 1024;

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ExtenderJson() {
    }

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

    public static <T> T read(InputStream body, Class<T> type) throws BadBodyException {
        byte[] bytes;
        try {
            bytes = body.readNBytes(MAX_BODY + 1);
        } catch (IOException e) {
            throw new BadBodyException(400, "could not read the request body: " + e.getMessage());
        }
        if (bytes.length > MAX_BODY) {
            drain(body);
            throw new BadBodyException(413, "request body exceeds " + MAX_BODY + " bytes");
        }
        if (bytes.length == 0) {
            throw new BadBodyException(400, "please send a request body (a JSON " + type.getSimpleName() + ")");
        }
        try {
            T value = MAPPER.readValue(bytes, type);
            if (value == null) {
                throw new BadBodyException(400, "request body is JSON null, want a " + type.getSimpleName());
            }
            return value;
        } catch (JacksonException e) {
            throw new BadBodyException(400, "malformed " + type.getSimpleName() + ": " + e.getOriginalMessage());
        }
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
}
