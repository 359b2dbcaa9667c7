package io.hami.protocol.codec;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * The node lock value {@code <RFC3339 time>,<namespace>,<pod name>}, or a legacy time alone (design D5,
 * docs/design.md#d5).
 */
public final class NodeLockCodec {
    private NodeLockCodec() {}

    public static NodeLock decode(String value) throws AnnotationFormatException {
        if (value.indexOf(',') < 0) {
            return new NodeLock(time(value), "", "");
        }
        String[] parts = value.split(",", -1);
        if (parts.length != 3) {
            throw new AnnotationFormatException("malformed lock annotation: expected 3 parts, got " + parts.length
                    + " from " + GoStrconv.quote(value));
        }
        return new NodeLock(time(parts[0]), parts[1], parts[2]);
    }

    private static OffsetDateTime time(String text) throws AnnotationFormatException {
        try {
            return OffsetDateTime.parse(text, GoTime.RFC3339);
        } catch (DateTimeParseException e) {
            throw new AnnotationFormatException(
                    "invalid lock time, want RFC 3339 such as 2026-08-01T06:00:00Z: " + GoStrconv.quote(text));
        }
    }

    /**
     * {@code time,namespace,name}; a lock without holder is written in the legacy form.
     *
     * @throws IllegalArgumentException when the namespace or name contains a comma
     */
    public static String encode(NodeLock lock) {
        if (lock.namespace().contains(",") || lock.name().contains(",")) {
            throw new IllegalArgumentException("lock namespace and name cannot contain ',': " + lock);
        }
        // design D5: the time is written in UTC, whatever offset the caller's time carries.
        OffsetDateTime utc = lock.time().withOffsetSameInstant(ZoneOffset.UTC);
        if (utc.getYear() < 0 || utc.getYear() > 9999) {
            throw new IllegalArgumentException("lock year out of range 0000-9999: " + lock.time());
        }
        String time = GoTime.RFC3339.format(utc);
        return lock.isLegacy() ? time : time + "," + lock.namespace() + "," + lock.name();
    }
}
