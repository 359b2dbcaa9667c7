package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The node lock value (design D5 in docs/design.md#d5, docs/upstream.md#node-lock):
 * {@code <RFC3339 UTC time>,<namespace>,<pod name>}.
 */
class NodeLockCodecFuzzTest {

    private static OffsetDateTime times(FuzzedDataProvider data) {
        return CodecInputs.utcTimes(data);
    }

    private static String names(FuzzedDataProvider data) {
        return CodecInputs.lockNames(data);
    }

    private static ZoneOffset offsets(FuzzedDataProvider data) {
        return ZoneOffset.ofTotalSeconds(data.consumeInt(-18 * 60, 18 * 60) * 60);
    }

    /** RFC 3339 in UTC as Go's time.RFC3339 writes it, independently of the codec. */
    private static String rfc3339(OffsetDateTime utc) {
        return String.format(
                Locale.ROOT,
                "%04d-%02d-%02dT%02d:%02d:%02dZ",
                utc.getYear(),
                utc.getMonthValue(),
                utc.getDayOfMonth(),
                utc.getHour(),
                utc.getMinute(),
                utc.getSecond());
    }

    @FuzzTest
    void decodeOfEncodeIsIdentity(FuzzedDataProvider data) throws Exception {
        OffsetDateTime time = times(data);
        String ns = names(data);
        String name = names(data);
        var lock = new NodeLock(time, ns, name);
        assertThat(NodeLockCodec.decode(NodeLockCodec.encode(lock))).isEqualTo(lock);
    }

    @FuzzTest
    void encodeIsUtcTimeNamespaceName(FuzzedDataProvider data) {
        OffsetDateTime time = times(data);
        String ns = names(data);
        String name = names(data);
        assertThat(NodeLockCodec.encode(new NodeLock(time, ns, name))).isEqualTo(rfc3339(time) + "," + ns + "," + name);
    }

    @FuzzTest
    void canonicalValuesReencodeByteForByte(FuzzedDataProvider data) throws Exception {
        OffsetDateTime time = times(data);
        String ns = names(data);
        String name = names(data);
        String value = rfc3339(time) + "," + ns + "," + name;
        assertThat(NodeLockCodec.encode(NodeLockCodec.decode(value))).isEqualTo(value);
    }

    @FuzzTest
    void anyOffsetIsWrittenAsTheSameInstantInUtc(FuzzedDataProvider data) throws Exception {
        OffsetDateTime time = times(data);
        ZoneOffset offset = offsets(data);
        String ns = names(data);
        String name = names(data);
        var shifted = time.withOffsetSameInstant(offset);
        if (shifted.getYear() < 0 || shifted.getYear() > 9999) {
            return; // not writable as a 4-digit year in that offset
        }
        String value = NodeLockCodec.encode(new NodeLock(shifted, ns, name));
        assertThat(value).isEqualTo(rfc3339(time) + "," + ns + "," + name);
        // and an offset written by someone else (upstream uses local time) reads as the same instant
        String foreign = String.format(
                        Locale.ROOT,
                        "%04d-%02d-%02dT%02d:%02d:%02d%s",
                        shifted.getYear(),
                        shifted.getMonthValue(),
                        shifted.getDayOfMonth(),
                        shifted.getHour(),
                        shifted.getMinute(),
                        shifted.getSecond(),
                        offset.getTotalSeconds() == 0 ? "Z" : offset.getId())
                + "," + ns + "," + name;
        NodeLock read = NodeLockCodec.decode(foreign);
        assertThat(read.time().toInstant()).isEqualTo(time.toInstant());
        assertThat(read.isHeldBy(ns, name)).isTrue();
    }

    @FuzzTest
    void legacyTimeOnlyValuesHaveNoHolder(FuzzedDataProvider data) throws Exception {
        OffsetDateTime time = times(data);
        NodeLock lock = NodeLockCodec.decode(rfc3339(time));
        assertThat(lock.time()).isEqualTo(time);
        assertThat(lock.isLegacy()).isTrue();
        assertThat(lock.isHeldBy("", "")).isFalse();
    }

    @Test
    void fractionalSecondsAreReadAsGoDoes() throws Exception {
        // Go's time.Parse(time.RFC3339, ...) accepts a fraction after the seconds.
        NodeLock lock = NodeLockCodec.decode("2026-08-01T06:00:00.123456789Z,ns,pod-a");
        assertThat(lock.time().toInstant()).isEqualTo(java.time.Instant.parse("2026-08-01T06:00:00Z"));
        assertThat(NodeLockCodec.encode(lock)).isEqualTo("2026-08-01T06:00:00Z,ns,pod-a");
    }

    /**
     * Every number of the lock time is an unsigned, zero-padded field of its width within its range: negative,
     * signed, overflowing or non-numeric parts are refused; a valid UTC value reads exactly and re-encodes to the
     * same bytes.
     */
    @FuzzTest
    void hostileNumbersInTheTimeAreRefused(FuzzedDataProvider data) throws Exception {
        CodecInputs.DateTimeText time = CodecInputs.dateTimeTexts(data);
        String holder =
                data.consumeBoolean() ? "" : "," + CodecInputs.lockNames(data) + "," + CodecInputs.lockNames(data);
        String value = time.joined('T') + "Z" + holder;
        if (time.value() == null) {
            assertThatThrownBy(() -> NodeLockCodec.decode(value))
                    .as(value)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("invalid lock time");
            return;
        }
        NodeLock decoded = NodeLockCodec.decode(value);
        assertThat(decoded.time()).isEqualTo(time.value().atOffset(ZoneOffset.UTC));
        assertThat(NodeLockCodec.encode(decoded)).isEqualTo(value);
    }

    @Test
    void invalidValuesAreTypedErrors() {
        for (String bad : List.of(
                "",
                "lock",
                ",",
                ",,",
                ",,,",
                "x,ns,pod",
                "2026-08-01T06:00:00Z,ns",
                "2026-08-01T06:00:00Z,ns,pod,extra",
                "2026-08-01T06:00:00Z,,,",
                "2026-08-01 06:00:00Z,ns,pod",
                "2026-08-01T06:00:00,ns,pod",
                "2026-08-01T06:00Z,ns,pod",
                "2026-8-01T06:00:00Z,ns,pod",
                "2026-02-30T06:00:00Z,ns,pod",
                "2026-08-01T24:00:00Z,ns,pod",
                "2026-08-01T06:00:00+0800,ns,pod",
                "2026-08-01T06:00:00+08,ns,pod",
                "2026-08-01T06:00:00Z ,ns,pod",
                " 2026-08-01T06:00:00Z,ns,pod",
                "1785564000,ns,pod",
                "-001-08-01T06:00:00Z,ns,pod",
                "+2026-08-01T06:00:00Z,ns,pod",
                "12026-08-01T06:00:00Z,ns,pod",
                "2026-08-01T06:-1:00Z,ns,pod")) {
            assertThatThrownBy(() -> NodeLockCodec.decode(bad)).as(bad).isInstanceOf(AnnotationFormatException.class);
        }
    }

    @Test
    void commaInHolderIsRefusedByTheWriter() {
        var t = OffsetDateTime.of(2026, 8, 1, 6, 0, 0, 0, ZoneOffset.UTC);
        assertThatThrownBy(() -> NodeLockCodec.encode(new NodeLock(t, "n,s", "pod")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NodeLockCodec.encode(new NodeLock(t, "ns", "p,od")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
