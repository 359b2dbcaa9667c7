package io.hami.protocol.codec;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.PodDevices;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.IntPredicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * jqwik generators for the protocol model, shared with the vendor modules through the protocol test-jar.
 * Text generators produce valid Unicode (no lone surrogates) with a bias towards the characters the
 * encodings treat specially: separators, quotes, backslashes, control characters, {@code < > &},
 * U+2028/U+2029 and supplementary code points.
 */
public final class CodecArbitraries {
    private CodecArbitraries() {
    }

    /** Code points the wire formats treat specially, offered often. */
    private static final int[] SPECIAL = {
        ',', ':', ';', '"', '\\', '/', '<', '>', '&', '\'', ' ', '\t', '\n', '\r', '\b', '\f', 0, 0x1f, 0x7f,
        0x80, 0xa0, 0xad, 0x2028, 0x2029, 0xfeff, 0xfffd, 0xffff, 0x1f600, 0x10ffff, '[', ']', '{', '}', '_',
        '-', '+', '0', '9', 'T', 'Z'
    };

    /** One code point, never a surrogate, drawn with a bias towards {@link #SPECIAL} and ASCII. */
    public static Arbitrary<Integer> codePoints() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.integers().between(0x20, 0x7e)),
                Tuple.of(2, Arbitraries.of(java.util.Arrays.stream(SPECIAL).boxed().toList())),
                Tuple.of(1, Arbitraries.integers().between(0, 0x1f)),
                Tuple.of(1, Arbitraries.integers().between(0x80, 0xd7ff)),
                Tuple.of(1, Arbitraries.integers().between(0xe000, 0xffff)),
                Tuple.of(1, Arbitraries.integers().between(0x10000, 0x10ffff)));
    }

    /** Valid Unicode text of {@code min..max} code points whose code points all pass {@code allowed}. */
    public static Arbitrary<String> text(int min, int max, IntPredicate allowed) {
        return codePoints().filter(allowed::test).list().ofMinSize(min).ofMaxSize(max).map(cps -> {
            var b = new StringBuilder();
            cps.forEach(b::appendCodePoint);
            return b.toString();
        });
    }

    /** Any valid Unicode text, possibly empty (JSON strings can hold it all). */
    public static Arbitrary<String> anyText() {
        return text(0, 24, cp -> true);
    }

    /** Text the colon form can carry: no {@code ,} and no {@code :}. */
    public static Arbitrary<String> colonText() {
        return text(0, 24, cp -> cp != ',' && cp != ':');
    }

    /** Text a pod device string can carry as uuid or type: non-empty, no {@code , : ;}. */
    public static Arbitrary<String> podText() {
        return text(1, 24, cp -> cp != ',' && cp != ':' && cp != ';');
    }

    /** 32-bit ints with zero, small values and the extremes all frequent. */
    public static Arbitrary<Integer> int32() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(0)),
                Tuple.of(4, Arbitraries.integers().between(-128, 100_000)),
                Tuple.of(2, Arbitraries.integers()),
                Tuple.of(1, Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 1)));
    }

    /** Device indexes: never negative. */
    public static Arbitrary<Integer> indexes() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(0)),
                Tuple.of(4, Arbitraries.integers().between(0, 64)),
                Tuple.of(2, Arbitraries.integers().between(0, Integer.MAX_VALUE)));
    }

    /** Devices whose id, type and mode come from {@code text}. */
    public static Arbitrary<DeviceInfo> devices(Arbitrary<String> text) {
        Arbitrary<int[]> numbers = Combinators.combine(indexes(), int32(), int32(), int32(), int32())
                .as((index, count, devmem, devcore, numa) -> new int[] {index, count, devmem, devcore, numa});
        return Combinators.combine(text, text, text, Arbitraries.of(true, false), numbers)
                .as((id, type, mode, health, n) -> new DeviceInfo(id, n[0], n[1], n[2], n[3], type, n[4], mode, health));
    }

    /** Device lists with distinct indexes (so "sorted by index" has exactly one answer). */
    public static Arbitrary<List<DeviceInfo>> deviceLists(Arbitrary<String> text, int maxSize) {
        return devices(text).list().ofMaxSize(maxSize).uniqueElements(DeviceInfo::index);
    }

    public static Arbitrary<ContainerDevice> containerDevices() {
        return Combinators.combine(podText(), podText(), int32(), int32()).as(ContainerDevice::new);
    }

    /** Pods of up to 6 containers, each with up to 4 devices (often none). */
    public static Arbitrary<PodDevices> podDevices() {
        var container = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(List.<ContainerDevice>of())),
                Tuple.of(3, containerDevices().list().ofMinSize(1).ofMaxSize(4)));
        return container.list().ofMaxSize(6).map(PodDevices::new);
    }

    /** Times with whole seconds in years 0000..9999, the range of a 4-digit year. */
    public static Arbitrary<LocalDateTime> wholeSecondTimes() {
        long min = LocalDateTime.of(0, 1, 1, 0, 0, 0).toEpochSecond(ZoneOffset.UTC);
        long max = LocalDateTime.of(9999, 12, 31, 23, 59, 59).toEpochSecond(ZoneOffset.UTC);
        var near = Arbitraries.longs().between(
                LocalDateTime.of(2000, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC),
                LocalDateTime.of(2100, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC));
        return Arbitraries.frequencyOf(Tuple.of(3, near), Tuple.of(1, Arbitraries.longs().between(min, max)))
                .map(s -> LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC));
    }

    public static Arbitrary<OffsetDateTime> utcTimes() {
        return wholeSecondTimes().map(t -> t.atOffset(ZoneOffset.UTC));
    }

    /** Kubernetes-like names: what a lock holder's namespace and name can be (no comma). */
    public static Arbitrary<String> lockNames() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.strings().withCharRange('a', 'z').withCharRange('0', '9').withChars('-', '.')
                        .ofMinLength(1).ofMaxLength(63)),
                Tuple.of(1, text(1, 20, cp -> cp != ',')));
    }
}
