package io.hami.protocol.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.MigPlacement;
import io.hami.protocol.device.MigProfile;
import io.hami.protocol.device.PodDevices;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntPredicate;

/**
 * Input builders for the protocol model, drawing every choice from a Jazzer {@link FuzzedDataProvider};
 * shared with the vendor modules through the protocol test-jar. Text builders produce valid Unicode (no
 * lone surrogates) with a bias towards the characters the encodings treat specially: separators, quotes,
 * backslashes, control characters, {@code < > &}, U+2028/U+2029 and supplementary code points.
 *
 * <p>Every method is total: once the provider runs out of bytes it answers with minimum values, so the
 * builders still return valid (small) values.
 */
public final class CodecInputs {
    private CodecInputs() {}

    /** Code points the wire formats treat specially, offered often. */
    private static final int[] SPECIAL = {
        ',', ':', ';', '"', '\\', '/', '<', '>', '&', '\'', ' ', '\t', '\n', '\r', '\b', '\f', 0, 0x1f, 0x7f, 0x80,
        0xa0, 0xad, 0x2028, 0x2029, 0xfeff, 0xfffd, 0xffff, 0x1f600, 0x10ffff, '[', ']', '{', '}', '_', '-', '+', '0',
        '9', 'T', 'Z'
    };

    /** Picks an index {@code i} with probability {@code weights[i] / sum(weights)}. */
    private static int weighted(FuzzedDataProvider data, int... weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int r = data.consumeInt(0, total - 1);
        for (int i = 0; i < weights.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }

    /** One code point, never a surrogate, drawn with a bias towards {@link #SPECIAL} and ASCII. */
    public static int codePoints(FuzzedDataProvider data) {
        return switch (weighted(data, 4, 2, 1, 1, 1, 1)) {
            case 0 -> data.consumeInt(0x20, 0x7e);
            case 1 -> data.pickValue(SPECIAL);
            case 2 -> data.consumeInt(0, 0x1f);
            case 3 -> data.consumeInt(0x80, 0xd7ff);
            case 4 -> data.consumeInt(0xe000, 0xffff);
            default -> data.consumeInt(0x10000, 0x10ffff);
        };
    }

    /**
     * Valid Unicode text of {@code min..max} code points whose code points all pass {@code allowed}. A code
     * point that fails {@code allowed} is replaced by {@code 'a'} when it fails, so the text always has the
     * requested length ({@code 'a'} must pass {@code allowed}).
     */
    public static String text(FuzzedDataProvider data, int min, int max, IntPredicate allowed) {
        int n = data.consumeInt(min, max);
        var b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int cp = codePoints(data);
            b.appendCodePoint(allowed.test(cp) ? cp : 'a');
        }
        return b.toString();
    }

    /** Any valid Unicode text, possibly empty (JSON strings can hold it all). */
    public static String anyText(FuzzedDataProvider data) {
        return text(data, 0, 24, cp -> true);
    }

    /** Text the colon form can carry: no {@code ,} and no {@code :}. */
    public static String colonText(FuzzedDataProvider data) {
        return text(data, 0, 24, cp -> cp != ',' && cp != ':');
    }

    /** Text a pod device string can carry as uuid or type: non-empty, no {@code , : ;}. */
    public static String podText(FuzzedDataProvider data) {
        return text(data, 1, 24, cp -> cp != ',' && cp != ':' && cp != ';');
    }

    /**
     * The numbers the protocol carries (grants, counts, memory, cores, NUMA nodes): non-negative int32s, with
     * zero, small values and the extremes all frequent. Decoders refuse anything else.
     */
    public static int uint31(FuzzedDataProvider data) {
        return switch (weighted(data, 3, 4, 2, 1)) {
            case 0 -> 0;
            case 1 -> data.consumeInt(0, 100_000);
            case 2 -> data.consumeInt() & Integer.MAX_VALUE;
            default -> data.pickValue(new int[] {Integer.MAX_VALUE, 1});
        };
    }

    /** NUMA nodes: {@link #uint31}, or often {@link DeviceInfo#NO_NUMA} (-1, none known, design D9). */
    public static int numaNodes(FuzzedDataProvider data) {
        return weighted(data, 1, 3) == 0 ? DeviceInfo.NO_NUMA : uint31(data);
    }

    /**
     * One numeric field as text: what a decoder reads, and the value it must give or null when it must refuse it.
     *
     * @param text  the field as written
     * @param value the value a decoder reads, or null when the text is negative, overflowing or not a number
     */
    public record NumberText(String text, Long value) {
        public boolean valid() {
            return value != null;
        }

        /** True when the text is exactly what a writer emits for the value (no sign, no leading zeros). */
        public boolean canonical() {
            return value != null && text.equals(Long.toString(value));
        }
    }

    /** Texts that are not decimal numbers in Go's strconv syntax. */
    private static final String[] NOT_NUMBERS = {
        "",
        " ",
        " 1",
        "1 ",
        "\t1",
        "1.0",
        "1.5",
        "1e3",
        "1E2",
        "0x10",
        "1_000",
        "+",
        "-",
        "+-1",
        "--1",
        "NaN",
        "Infinity",
        "\u0661",
        "\uff11",
        "true",
        "null",
        "\u00a0"
    };

    /**
     * A numeric field of {@code 0..max}: canonical values, values a reader accepts but a writer never emits
     * ({@code +5}, {@code 007}, {@code -0}), negative and overflowing ones, and text that is no number at all.
     */
    public static NumberText numberTexts(FuzzedDataProvider data, long max) {
        return switch (weighted(data, 4, 1, 3, 3, 2)) {
            case 0 -> {
                long v = switch (weighted(data, 2, 3, 2, 2)) {
                    case 0 -> 0;
                    case 1 -> data.consumeLong(0, Math.min(max, 100_000));
                    case 2 -> data.consumeLong(0, max);
                    default -> max;
                };
                yield new NumberText(Long.toString(v), v);
            }
            case 1 -> {
                long v = data.consumeLong(0, Math.min(max, 100_000));
                String text = switch (data.consumeInt(0, 2)) {
                    case 0 -> "+" + v;
                    case 1 -> "0".repeat(data.consumeInt(1, 30)) + v;
                    default -> v == 0 ? "-0" : "+0" + v;
                };
                yield new NumberText(text, v);
            }
            case 2 -> {
                long v = switch (weighted(data, 2, 2, 1)) {
                    case 0 -> -1;
                    case 1 -> -1 - (data.consumeLong() & (Long.MAX_VALUE >> 1)); // masked: see indexes()
                    default -> Long.MIN_VALUE;
                };
                yield new NumberText(
                        data.consumeBoolean()
                                ? Long.toString(v)
                                : "-0" + Long.toString(v).substring(1),
                        null);
            }
            case 3 -> {
                String text = switch (weighted(data, 3, 2, 1, 1)) {
                    case 0 -> Long.toString(max + data.consumeLong(1, 1_000_000)); // callers' max is far below 2^62
                    case 1 -> Long.toString(max + 1 + (data.consumeLong() & (Long.MAX_VALUE >> 1)));
                    case 2 -> "9223372036854775808";
                    default -> "9".repeat(data.consumeInt(20, 400));
                };
                yield new NumberText(text, null);
            }
            default -> {
                String text = data.consumeBoolean()
                        ? data.pickValue(NOT_NUMBERS)
                        : text(data, 1, 8, cp -> cp != ',' && cp != ':' && cp != ';' && (cp < '0' || cp > '9'));
                yield new NumberText(text, null);
            }
        };
    }

    /**
     * A NUMA field of a register: {@link #numberTexts} up to MaxInt32, where -1 however written ({@code -1},
     * {@code -01}) reads as {@link DeviceInfo#NO_NUMA} (design D9); every other negative is refused.
     */
    public static NumberText numaTexts(FuzzedDataProvider data) {
        NumberText t = data.consumeBoolean() ? new NumberText("-1", -1L) : numberTexts(data, Integer.MAX_VALUE);
        return t.text().matches("-0*1") ? new NumberText(t.text(), (long) DeviceInfo.NO_NUMA) : t;
    }

    /**
     * The six numbers of a date and time as text (year, month, day, hour, minute, second), each either
     * zero-padded to its width (possibly out of range for its field, such as month 13) or a hostile number from
     * {@link #numberTexts}: negative, signed, overflowing, too short or no number at all.
     *
     * @param parts the six texts
     * @param value the time they name, or null when a reader must refuse them
     */
    public record DateTimeText(List<String> parts, LocalDateTime value) {
        /** The parts joined as {@code YYYY-MM-DD<t>HH:MM:SS}. */
        public String joined(char t) {
            return parts.get(0) + "-" + parts.get(1) + "-" + parts.get(2) + t + parts.get(3) + ":" + parts.get(4) + ":"
                    + parts.get(5);
        }
    }

    public static DateTimeText dateTimeTexts(FuzzedDataProvider data) {
        int[] widths = {4, 2, 2, 2, 2, 2};
        var parts = new ArrayList<String>();
        var values = new int[6];
        boolean valid = true;
        for (int i = 0; i < 6; i++) {
            int width = widths[i];
            String text;
            if (weighted(data, 5, 1) == 0) {
                int v = data.consumeInt(0, width == 4 ? 9999 : 99);
                text = String.format(java.util.Locale.ROOT, "%0" + width + "d", v);
            } else {
                text = numberTexts(data, width == 4 ? 9999 : 99).text();
            }
            parts.add(text);
            if (text.length() == width && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
                values[i] = Integer.parseInt(text);
            } else {
                valid = false;
            }
        }
        LocalDateTime value = null;
        if (valid) {
            try {
                value = LocalDateTime.of(values[0], values[1], values[2], values[3], values[4], values[5]);
            } catch (java.time.DateTimeException outOfRange) {
                value = null;
            }
        }
        return new DateTimeText(List.copyOf(parts), value);
    }

    /** Device indexes: never negative. */
    public static int indexes(FuzzedDataProvider data) {
        return switch (weighted(data, 3, 4, 2)) {
            case 0 -> 0;
            case 1 -> data.consumeInt(0, 64);
            // consumeInt(0, Integer.MAX_VALUE) can answer negative values (Jazzer range overflow); mask instead
            default -> data.consumeInt() & Integer.MAX_VALUE;
        };
    }

    /** A device whose id, type and mode come from {@code text}. */
    public static DeviceInfo devices(FuzzedDataProvider data, Function<FuzzedDataProvider, String> text) {
        int index = indexes(data);
        int count = uint31(data);
        int devmem = uint31(data);
        int devcore = uint31(data);
        int numa = numaNodes(data);
        String id = text.apply(data);
        String type = text.apply(data);
        String mode = text.apply(data);
        boolean health = data.consumeBoolean();
        return new DeviceInfo(id, index, count, devmem, devcore, type, numa, mode, health);
    }

    /** Go {@code uint32}s (MIG slice counts and placements), with zero, small values and the extremes frequent. */
    public static long uint32(FuzzedDataProvider data) {
        return switch (weighted(data, 2, 4, 2, 1)) {
            case 0 -> 0;
            case 1 -> data.consumeLong(0, 8);
            case 2 -> data.consumeLong(0, MigPlacement.MAX_UINT32);
            default -> MigPlacement.MAX_UINT32;
        };
    }

    /**
     * The MIG profiles of a register device: often none, else up to 3, each with a nil placement list or up to 8
     * placements; the name comes from {@code text}.
     */
    public static List<MigProfile> migProfileLists(FuzzedDataProvider data, Function<FuzzedDataProvider, String> text) {
        int n = weighted(data, 1, 2) == 0 ? 0 : data.consumeInt(1, 3);
        var out = new ArrayList<MigProfile>();
        for (int i = 0; i < n; i++) {
            String name = text.apply(data);
            int memoryMB = uint31(data);
            int core = uint31(data);
            long sliceCount = uint32(data);
            List<MigPlacement> placements = null;
            if (weighted(data, 1, 4) != 0) {
                var list = new ArrayList<MigPlacement>();
                int k = data.consumeInt(0, 8);
                for (int j = 0; j < k; j++) {
                    list.add(new MigPlacement(uint32(data), uint32(data)));
                }
                placements = list;
            }
            out.add(new MigProfile(name, memoryMB, core, sliceCount, placements));
        }
        return out;
    }

    /** Device lists of up to {@code maxSize} with distinct indexes (so "sorted by index" has exactly one answer). */
    public static List<DeviceInfo> deviceLists(
            FuzzedDataProvider data, Function<FuzzedDataProvider, String> text, int maxSize) {
        int n = data.consumeInt(0, maxSize);
        var seen = new HashSet<Integer>();
        var out = new ArrayList<DeviceInfo>();
        for (int i = 0; i < n; i++) {
            DeviceInfo d = devices(data, text);
            if (seen.add(d.index())) {
                out.add(d);
            }
        }
        return out;
    }

    public static ContainerDevice containerDevices(FuzzedDataProvider data) {
        String uuid = podText(data);
        String type = podText(data);
        int usedmem = uint31(data);
        int usedcores = uint31(data);
        return new ContainerDevice(uuid, type, usedmem, usedcores);
    }

    /** Pods of up to 6 containers, each with up to 4 devices (often none). */
    public static PodDevices podDevices(FuzzedDataProvider data) {
        int containers = data.consumeInt(0, 6);
        var pod = new ArrayList<List<ContainerDevice>>();
        for (int c = 0; c < containers; c++) {
            if (weighted(data, 1, 3) == 0) {
                pod.add(List.of());
            } else {
                int n = data.consumeInt(1, 4);
                var devices = new ArrayList<ContainerDevice>();
                for (int i = 0; i < n; i++) {
                    devices.add(containerDevices(data));
                }
                pod.add(List.copyOf(devices));
            }
        }
        return new PodDevices(List.copyOf(pod));
    }

    /** Times with whole seconds in years 0000..9999, the range of a 4-digit year. */
    public static LocalDateTime wholeSecondTimes(FuzzedDataProvider data) {
        long min = LocalDateTime.of(0, 1, 1, 0, 0, 0).toEpochSecond(ZoneOffset.UTC);
        long max = LocalDateTime.of(9999, 12, 31, 23, 59, 59).toEpochSecond(ZoneOffset.UTC);
        long nearMin = LocalDateTime.of(2000, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);
        long nearMax = LocalDateTime.of(2100, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);
        long s = weighted(data, 3, 1) == 0 ? data.consumeLong(nearMin, nearMax) : data.consumeLong(min, max);
        return LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC);
    }

    public static OffsetDateTime utcTimes(FuzzedDataProvider data) {
        return wholeSecondTimes(data).atOffset(ZoneOffset.UTC);
    }

    private static final char[] LOCK_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-.".toCharArray();

    /** Kubernetes-like names: what a lock holder's namespace and name can be (no comma). */
    public static String lockNames(FuzzedDataProvider data) {
        if (weighted(data, 3, 1) == 0) {
            int n = data.consumeInt(1, 63);
            var b = new StringBuilder(n);
            for (int i = 0; i < n; i++) {
                b.append(data.pickValue(LOCK_NAME_CHARS));
            }
            return b.toString();
        }
        return text(data, 1, 20, cp -> cp != ',');
    }
}
