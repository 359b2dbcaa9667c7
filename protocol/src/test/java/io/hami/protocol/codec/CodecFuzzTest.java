package io.hami.protocol.codec;

import static io.hami.protocol.codec.ProtocolExamples.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.PodDevices;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Design D2 (docs/design.md#d2): "every decoder is total: any input yields a value or a typed error with a clear message, never an
 * unchecked exception". Each decoder gets mutations of valid values (character flips, truncations,
 * deletions, insertions of separators, quotes, brackets, huge numbers and odd Unicode, repetitions,
 * splices) until {@value #ROUNDS} of them were malformed, plus a fixed list of hostile shapes. Every value
 * a decoder accepts must also survive re-encoding: decoding the re-encoded text gives the same value again.
 */
class CodecFuzzTest {
    static final int ROUNDS = 100_000;

    /** A decoder under test; {@code encode} re-encodes a decoded value, {@code same} compares two. */
    record Target(String name, Decoder decoder, Encoder encoder, BiPredicate<Object, Object> same, List<String> seeds) {
        @Override
        public String toString() {
            return name;
        }
    }

    interface Decoder {
        Object decode(String s) throws AnnotationFormatException;
    }

    interface Encoder {
        String encode(Object v);
    }

    @SuppressWarnings("unchecked")
    static Stream<Target> targets() {
        BiPredicate<Object, Object> equal = Object::equals;
        return Stream.of(
                new Target(
                        "JsonRegisterCodec",
                        JsonRegisterCodec::decode,
                        v -> JsonRegisterCodec.encode((List<DeviceInfo>) v),
                        CodecFuzzTest::sameAsSorted,
                        List.of(
                                CURRENT_NVIDIA_REGISTER,
                                REF_NVIDIA_REGISTER_WITH_MIG,
                                // two MIG profiles, one with a nil placement list, keys in other cases
                                "[{\"id\":\"GPU-a\",\"mode\":\"mig\",\"MIGProfiles\":[{\"name\":\"2g.10gb\",\"memoryMB\":9984,"
                                        + "\"core\":29,\"sliceCount\":2,\"Placements\":[{\"start\":0,\"size\":2},{\"START\":4,\"size\":2}]},"
                                        + "{\"name\":\"7g.40gb\",\"sliceCount\":4294967295,\"placements\":null}]}]",
                                "[]",
                                "null",
                                "[{\"ID\":\"a\\u003c\\\"\\\\\\n\\ud83d\\ude00\",\"Index\":3,\"health\":false,\"numa\":-1},{}]",
                                // upstream's plugin when NVML knows no NUMA node (design D9)
                                "[{\"id\":\"GPU-a\",\"count\":10,\"devmem\":24576,\"devcore\":100,\"type\":\"NVIDIA-A10\","
                                        + "\"numa\":-1,\"mode\":\"hami-core\",\"health\":true}]")),
                new Target(
                        "LegacyRegisterCodec",
                        LegacyRegisterCodec::decode,
                        v -> LegacyRegisterCodec.encode((List<DeviceInfo>) v),
                        CodecFuzzTest::sameAsSorted,
                        List.of(
                                OLDER_NVIDIA_REGISTER_COLON,
                                REF_COLON_DEVICE,
                                OLDER_MLU_REGISTER_FIRST_ENTRY,
                                ":",
                                "HCU-0,+4,0065536,-1,Hygon Z100,1,T,2,:HCU-1,4,65536,100,Hygon Z100,0,0,0,hami-core:",
                                "HCU-0,4,65536,100,Hygon Z100,-1,true,0,hami-core:")),
                new Target(
                        "PodDevicesCodec",
                        PodDevicesCodec::decode,
                        v -> PodDevicesCodec.encode((PodDevices) v),
                        equal,
                        List.of(
                                CURRENT_POD_DEVICES,
                                OLDER_POD_DEVICES_TWO_CONTAINERS,
                                ";",
                                "",
                                REF_POD_PADDED,
                                REF_POD_TWO_DEVICES,
                                "dev-0,MLU,512,-16:;;dev-1,HCU,+2,0:dev-2,Mthreads,7,7:;")),
                new Target(
                        "HandshakeCodec",
                        HandshakeCodec::decode,
                        v -> HandshakeCodec.encode((Handshake) v),
                        equal,
                        List.of(
                                CURRENT_HANDSHAKE,
                                "Reported_2024-02-29 23:59:59",
                                "Requesting_0000-01-01 00:00:00",
                                OLDER_HANDSHAKE_MLU)),
                new Target(
                        "NodeLockCodec",
                        NodeLockCodec::decode,
                        v -> NodeLockCodec.encode((NodeLock) v),
                        CodecFuzzTest::sameLock,
                        List.of(
                                REF_NODE_LOCK,
                                REF_NODE_LOCK_LEGACY,
                                REF_NODE_LOCK_LEGACY + ",kube-system,pod-b",
                                "2026-08-01T06:00:00.5-03:30,ns,p")),
                new Target(
                        "MigAllocationsCodec",
                        MigAllocationsCodec::decode,
                        v -> MigAllocationsCodec.encode((List<io.hami.protocol.device.MigAllocation>) v),
                        equal,
                        List.of(
                                "[{\"containerIndex\":0,\"deviceIndex\":0,\"gpuUUID\":\"GPU-a\",\"profile\":\"1g.5gb\","
                                        + "\"placement\":{\"start\":6,\"size\":1},\"migUUID\":\"MIG-a\",\"gpuInstanceID\":7,"
                                        + "\"computeInstanceID\":0}]",
                                "[{\"ContainerIndex\":1,\"deviceIndex\":2,\"gpuUUID\":\"GPU-b\",\"profile\":\"3g.20gb\","
                                        + "\"placement\":{\"start\":4,\"size\":4}},{\"containerIndex\":1,\"deviceIndex\":3,"
                                        + "\"gpuUUID\":\"GPU-b\",\"profile\":\"1g.5gb\",\"placement\":{\"start\":3,\"size\":1}}]",
                                "",
                                "null")),
                new Target(
                        "UnixTimeCodec",
                        UnixTimeCodec::decode,
                        v -> UnixTimeCodec.encode((Instant) v),
                        equal,
                        List.of(CURRENT_BIND_TIME, OLDER_VGPU_TIME, "-1", "+0", "31556889864403199")));
    }

    @SuppressWarnings("unchecked")
    private static boolean sameAsSorted(Object again, Object first) {
        var sorted = ((List<DeviceInfo>) first)
                .stream()
                        .sorted(java.util.Comparator.comparingInt(DeviceInfo::index))
                        .toList();
        return again.equals(sorted);
    }

    private static boolean sameLock(Object again, Object first) {
        var a = (NodeLock) again;
        var b = (NodeLock) first;
        return a.time().isEqual(b.time())
                && a.namespace().equals(b.namespace())
                && a.name().equals(b.name());
    }

    // ---- mutation engine ---------------------------------------------------------------------------

    private static final String[] TOKENS = {
        ",",
        ":",
        ";",
        "\"",
        "'",
        "[",
        "]",
        "{",
        "}",
        "\\",
        "\\u",
        "\\ud800",
        "\\udc00\\ud800",
        "\\u00",
        "_",
        "-",
        "+",
        " ",
        "\t",
        "\n",
        "\r",
        "\u0000",
        "\u0001",
        "\u007f",
        "null",
        "true",
        "false",
        "0",
        "-0",
        "-1",
        "00",
        "2147483647",
        "2147483648",
        "-2147483649",
        "9223372036854775807",
        "9223372036854775808",
        "99999999999999999999999999999999",
        "1e999",
        "1.5",
        "1E2",
        "0x1F",
        "1_0",
        "NaN",
        "Infinity",
        "\u2028",
        "\u2029",
        "\uD83D\uDE00",
        "\uD800",
        "\uDFFF",
        "\uFFFD",
        "\uFEFF",
        "\u0661",
        "\uFF11",
        "T",
        "Z",
        "+08:00",
        "-23:59",
        ".123456789",
        ".",
        "Requesting_",
        "Reported_",
        "\"id\":",
        "\"index\":-1",
        "{\"count\":",
        "\"health\":true",
        "\"migProfiles\":[{}]",
        ",,,,,,",
        ":::",
        ";;;",
        "GPU-0,NVIDIA,1,1:",
        "2024-02-30 00:00:00",
        "9999-12-31T23:59:59Z",
        "0000-01-01T00:00:00+01:00"
    };

    private static String mutate(String s, Random r, List<String> corpus) {
        var b = new StringBuilder(s);
        int steps = 1 + r.nextInt(4);
        for (int k = 0; k < steps; k++) {
            int n = b.length();
            int at = n == 0 ? 0 : r.nextInt(n + 1);
            switch (r.nextInt(10)) {
                case 0 -> { // replace a character by a random one
                    if (n > 0)
                        b.setCharAt(
                                Math.min(at, n - 1), (char) (r.nextBoolean() ? r.nextInt(128) : r.nextInt(0x10000)));
                }
                case 1 -> { // flip one bit of a character
                    if (n > 0) {
                        int i = Math.min(at, n - 1);
                        b.setCharAt(i, (char) (b.charAt(i) ^ (1 << r.nextInt(16))));
                    }
                }
                case 2 -> { // delete a range
                    if (n > 0) {
                        int i = Math.min(at, n - 1);
                        b.delete(i, Math.min(n, i + 1 + r.nextInt(8)));
                    }
                }
                case 3 -> b.setLength(at); // truncate
                case 4, 5 -> b.insert(at, TOKENS[r.nextInt(TOKENS.length)]);
                case 6 -> { // repeat a piece
                    if (n > 0) {
                        int i = Math.min(at, n - 1);
                        String piece = b.substring(i, Math.min(n, i + 1 + r.nextInt(12)));
                        b.insert(r.nextInt(b.length() + 1), piece.repeat(1 + r.nextInt(r.nextInt(10) == 0 ? 200 : 4)));
                    }
                }
                case 7 -> { // swap two characters
                    if (n > 1) {
                        int i = r.nextInt(n);
                        int j = r.nextInt(n);
                        char c = b.charAt(i);
                        b.setCharAt(i, b.charAt(j));
                        b.setCharAt(j, c);
                    }
                }
                case 8 -> { // splice with another seed
                    String other = corpus.get(r.nextInt(corpus.size()));
                    int cut = other.isEmpty() ? 0 : r.nextInt(other.length() + 1);
                    b.setLength(at);
                    b.append(other, cut, other.length());
                }
                default -> { // change the case of a character
                    if (n > 0) {
                        int i = Math.min(at, n - 1);
                        char c = b.charAt(i);
                        b.setCharAt(i, Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
                    }
                }
            }
        }
        return b.toString();
    }

    /** Fixed hostile shapes, all of moderate size (the 10 MB ones are in {@link CodecLargeInputTest}). */
    static List<String> hostile() {
        var list = new ArrayList<String>();
        list.add("[".repeat(100_000));
        list.add("[".repeat(100_000) + "]".repeat(100_000));
        list.add("{\"a\":".repeat(50_000));
        list.add("[{\"x\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}]");
        list.add("\"".repeat(10_000));
        list.add("\\".repeat(10_001));
        list.add("[{\"id\":\"" + "\\u".repeat(10_000) + "\"}]");
        list.add("[{\"count\":" + "9".repeat(100_000) + "}]");
        list.add("[{\"count\":-" + "0".repeat(100_000) + "1}]");
        list.add("[{\"count\":1" + "0".repeat(400) + "e-400}]");
        list.add(",".repeat(100_000) + ":");
        list.add(":".repeat(100_000));
        list.add(";".repeat(100_000));
        list.add("a,b,c,d:".repeat(20_000) + ";");
        list.add("Requesting_" + "9".repeat(100_000));
        list.add("9".repeat(100_000));
        list.add("-" + "0".repeat(100_000) + "1");
        list.add("2026-08-01T06:00:00Z," + "n".repeat(100_000) + ",p");
        list.add("2026-08-01T06:00:00" + "." + "9".repeat(100_000) + "Z");
        list.add("\uD800".repeat(10_000));
        list.add("\u0000".repeat(10_000));
        return list;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void decoderIsTotalOnMutatedInput(Target target) {
        var r = new Random(0x4A4D49L ^ target.name().hashCode());
        var corpus = new ArrayList<String>(target.seeds());
        targets().forEach(t -> corpus.addAll(t.seeds())); // other formats are malformed input too
        int accepted = 0;
        int rejected = 0;
        for (String s : hostile()) {
            if (check(target, s)) accepted++;
            else rejected++;
        }
        // Run until ROUNDS inputs were rejected (malformed), with a cap in case too few are.
        for (int i = 0; rejected < ROUNDS && i < 3 * ROUNDS; i++) {
            String seed = r.nextInt(10) == 0
                    ? corpus.get(r.nextInt(corpus.size()))
                    : target.seeds().get(r.nextInt(target.seeds().size()));
            String input = mutate(seed, r, corpus);
            if (check(target, input)) accepted++;
            else rejected++;
            if (r.nextInt(50) == 0 && input.length() < 2_000) {
                corpus.add(input); // let mutants breed
            }
        }
        System.out.printf("%s: %d inputs accepted, %d rejected%n", target, accepted, rejected);
        // Both outcomes must occur, and most mutants must be malformed, or the generator is not exercising
        // the decoder.
        assertThat(accepted).as("accepted inputs").isPositive();
        assertThat(rejected).as("rejected inputs").isGreaterThanOrEqualTo(ROUNDS);
    }

    /** Decodes {@code input}; true when accepted. Fails the test on anything but a value or a typed error. */
    static boolean check(Target target, String input) {
        Object value;
        try {
            value = target.decoder().decode(input);
        } catch (AnnotationFormatException e) {
            if (e.getMessage() == null
                    || e.getMessage().isBlank()
                    || e.getMessage().length() > 2_000) {
                fail(target + ": unclear error message " + abbreviate(String.valueOf(e.getMessage())) + " for input "
                        + show(input));
            }
            return false;
        } catch (Throwable t) {
            fail(target + " threw " + t + " for input " + show(input), t);
            return false;
        }
        if (value == null) {
            fail(target + " returned null for input " + show(input));
        }
        String encoded;
        try {
            encoded = target.encoder().encode(value);
        } catch (IllegalArgumentException e) {
            // Only a lock time that leaves years 0000..9999 once moved to UTC cannot be written again.
            if (value instanceof NodeLock lock) {
                int year = lock.time()
                        .withOffsetSameInstant(java.time.ZoneOffset.UTC)
                        .getYear();
                if (year < 0 || year > 9999) {
                    return true;
                }
            }
            fail(target + " cannot re-encode " + value + " decoded from " + show(input), e);
            return true;
        } catch (Throwable t) {
            fail(target + " encode threw " + t + " for " + value + " decoded from " + show(input), t);
            return true;
        }
        try {
            Object again = target.decoder().decode(encoded);
            if (!target.same().test(again, value)) {
                fail(target + ": " + show(input) + " decoded to " + value + " but its re-encoding " + show(encoded)
                        + " decoded to " + again);
            }
        } catch (Throwable t) {
            fail(target + " cannot read its own encoding " + show(encoded) + " of " + show(input), t);
        }
        return true;
    }

    static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "...(" + s.length() + " chars)" : s;
    }

    /** The input as a Java string literal, so a failure can be pasted into a regression test. */
    static String show(String s) {
        var b = new StringBuilder("\"");
        String shown = s.length() > 400 ? s.substring(0, 400) : s;
        for (char c : shown.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
        if (s.length() > 400) {
            b.append(" ...(").append(s.length()).append(" chars)");
        }
        return b.toString();
    }
}
