package io.hami.protocol.codec;

import io.hami.protocol.device.DeviceInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The legacy colon form of a node register annotation (docs/upstream.md#colon-form):
 * devices {@code id,count,devmem,devcore,type,numa,health[,index,mode]}, each ended by {@code :}.
 * Readers accept 7 or 9 fields; the writer always emits 9. One malformed device invalidates the value, and so
 * does a negative or overflowing number, except a NUMA node of -1 (none known, design D9), which reads and writes as
 * {@code -1}.
 */
public final class LegacyRegisterCodec {
    /** Mode of a 7-field device, which predates the field. */
    static final String DEFAULT_MODE = "hami-core";

    private LegacyRegisterCodec() {}

    public static List<DeviceInfo> decode(String value) throws AnnotationFormatException {
        if (value.indexOf(':') < 0) {
            throw new AnnotationFormatException(
                    "node annotation missing device separator ':': " + GoStrconv.quote(value));
        }
        var devices = new ArrayList<DeviceInfo>();
        int n = 0;
        for (String segment : value.split(":", -1)) {
            if (!segment.isEmpty()) {
                devices.add(decodeDevice(segment, n++));
            }
        }
        return List.copyOf(devices);
    }

    private static DeviceInfo decodeDevice(String segment, int n) throws AnnotationFormatException {
        String[] f = segment.split(",", -1);
        if (f.length != 7 && f.length != 9) {
            throw new AnnotationFormatException("unexpected field count " + f.length + " in device " + n
                    + " (want 7 or 9): " + GoStrconv.quote(segment));
        }
        int count = int32(f[1], "count", n);
        int devmem = int32(f[2], "memory", n);
        int devcore = int32(f[3], "core", n);
        Boolean health = GoStrconv.parseBool(f[6]);
        if (health == null) {
            throw invalid("health", n, f[6], "true or false");
        }
        int numa = numaNode(f[5], n);
        int index = 0;
        String mode = DEFAULT_MODE;
        if (f.length == 9) {
            index = int32(f[7], "index", n);
            mode = f[8];
        }
        return new DeviceInfo(f[0], index, count, devmem, devcore, f[4], numa, mode, health);
    }

    private static int int32(String text, String field, int n) throws AnnotationFormatException {
        var v = GoStrconv.parseNonNegativeInt32(text);
        if (v.isEmpty()) {
            throw invalid(field, n, text, GoStrconv.NON_NEGATIVE_INT32);
        }
        return (int) v.getAsLong();
    }

    private static int numaNode(String text, int n) throws AnnotationFormatException {
        var v = GoStrconv.parseNumaNode(text);
        if (v.isEmpty()) {
            throw invalid("numa", n, text, GoStrconv.NUMA_NODE);
        }
        return (int) v.getAsLong();
    }

    private static AnnotationFormatException invalid(String field, int n, String text, String want) {
        return new AnnotationFormatException(
                "invalid " + field + " field in device " + n + ": " + GoStrconv.quote(text) + ", want " + want);
    }

    /**
     * The 9-field form, devices sorted by index; an empty list is {@code ":"}. IDs, types and modes cannot
     * contain {@code ,} or {@code :}.
     *
     * @throws IllegalArgumentException when a device cannot be represented in this form
     */
    public static String encode(List<DeviceInfo> devices) {
        if (devices.isEmpty()) {
            return ":"; // zero devices; "" would read back as an error (no separator)
        }
        var b = new StringBuilder(devices.size() * 96);
        for (DeviceInfo d : devices.stream()
                .sorted(Comparator.comparingInt(DeviceInfo::index))
                .toList()) {
            representable("id", d.id());
            representable("type", d.type());
            representable("mode", d.mode());
            b.append(d.id())
                    .append(',')
                    .append(d.count())
                    .append(',')
                    .append(d.devmem())
                    .append(',')
                    .append(d.devcore())
                    .append(',')
                    .append(d.type())
                    .append(',')
                    .append(d.numa())
                    .append(',')
                    .append(d.health())
                    .append(',')
                    .append(d.index())
                    .append(',')
                    .append(d.mode())
                    .append(':');
        }
        return b.toString();
    }

    private static void representable(String field, String text) {
        if (text.indexOf(',') >= 0 || text.indexOf(':') >= 0) {
            throw new IllegalArgumentException(
                    field + " cannot contain ',' or ':' in the colon form: " + GoStrconv.quote(text));
        }
    }
}
