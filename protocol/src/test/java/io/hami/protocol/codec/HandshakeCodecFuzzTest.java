package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Handshake values (design D2, docs/design.md#d2): {@code Requesting_YYYY-MM-DD HH:MM:SS} and {@code Reported_YYYY-MM-DD HH:MM:SS}. */
class HandshakeCodecFuzzTest {

    private static LocalDateTime times(FuzzedDataProvider data) {
        return CodecInputs.wholeSecondTimes(data);
    }

    /** Go's time.DateTime layout, written independently of the codec. */
    private static String layout(LocalDateTime t) {
        return String.format(
                Locale.ROOT,
                "%04d-%02d-%02d %02d:%02d:%02d",
                t.getYear(),
                t.getMonthValue(),
                t.getDayOfMonth(),
                t.getHour(),
                t.getMinute(),
                t.getSecond());
    }

    /**
     * Every number of the time is an unsigned, zero-padded field of its width within its range: negative,
     * signed, overflowing or non-numeric parts are refused; a valid value reads exactly and re-encodes to the
     * same bytes.
     */
    @FuzzTest
    void hostileNumbersInTheTimeAreRefused(FuzzedDataProvider data) throws Exception {
        Handshake.State state = data.pickValue(Handshake.State.values());
        CodecInputs.DateTimeText time = CodecInputs.dateTimeTexts(data);
        String value = state.name() + "_" + time.joined(' ');
        if (time.value() == null) {
            assertThatThrownBy(() -> HandshakeCodec.decode(value))
                    .as(value)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("invalid handshake time");
            return;
        }
        Handshake decoded = HandshakeCodec.decode(value);
        assertThat(decoded).isEqualTo(new Handshake(state, time.value()));
        assertThat(HandshakeCodec.encode(decoded)).isEqualTo(value);
    }

    @Test
    void signedAndOverlongYearsAreRefused() {
        for (String bad : List.of(
                "Requesting_-001-01-01 00:00:00",
                "Requesting_+2024-01-01 00:00:00",
                "Requesting_10000-01-01 00:00:00",
                "Reported_2024--1-01 00:00:00",
                "Reported_2024-01-01 -1:00:00")) {
            assertThatThrownBy(() -> HandshakeCodec.decode(bad)).as(bad).isInstanceOf(AnnotationFormatException.class);
        }
    }

    @FuzzTest
    void decodeOfEncodeIsIdentity(FuzzedDataProvider data) throws Exception {
        LocalDateTime time = times(data);
        Handshake.State state = data.pickValue(Handshake.State.values());
        var h = new Handshake(state, time);
        assertThat(HandshakeCodec.decode(HandshakeCodec.encode(h))).isEqualTo(h);
    }

    @FuzzTest
    void encodeIsStateUnderscoreDateTime(FuzzedDataProvider data) {
        LocalDateTime time = times(data);
        Handshake.State state = data.pickValue(Handshake.State.values());
        assertThat(HandshakeCodec.encode(new Handshake(state, time))).isEqualTo(state.name() + "_" + layout(time));
    }

    @FuzzTest
    void canonicalValuesReencodeByteForByte(FuzzedDataProvider data) throws Exception {
        LocalDateTime time = times(data);
        Handshake.State state = data.pickValue(Handshake.State.values());
        String value = state.name() + "_" + layout(time);
        assertThat(HandshakeCodec.encode(HandshakeCodec.decode(value))).isEqualTo(value);
    }

    @FuzzTest
    void fractionsOfASecondAreNotWritten(FuzzedDataProvider data) {
        LocalDateTime time = times(data);
        Handshake.State state = data.pickValue(Handshake.State.values());
        var h = new Handshake(state, time.withNano(123_456_789));
        assertThat(HandshakeCodec.encode(h)).isEqualTo(state.name() + "_" + layout(time));
    }

    @Test
    void invalidValuesAreTypedErrors() {
        for (String bad : List.of(
                "",
                "Requesting",
                "Requesting_",
                "Reported_",
                "requesting_2024-01-23 04:30:04",
                "REPORTED_2024-01-23 04:30:04",
                "Requesting 2024-01-23 04:30:04",
                "Deleted_2024-01-23 04:30:04",
                "Requesting_2024-01-23T04:30:04",
                "Requesting_2024-01-23 04:30",
                "Requesting_2024-01-23 04:30:04 ",
                " Requesting_2024-01-23 04:30:04",
                "Requesting_2024-01-23 04:30:04.5",
                "Requesting_2024-01-23 04:30:04 +0000 UTC",
                "Requesting_2024-1-23 04:30:04",
                "Requesting_2024-01-23 4:30:04",
                "Requesting_24-01-23 04:30:04",
                "Requesting_+2024-01-23 04:30:04",
                "Requesting_20240-01-23 04:30:04",
                "Requesting_2024-13-01 00:00:00",
                "Requesting_2024-00-10 00:00:00",
                "Requesting_2024-02-30 00:00:00", // no such day: Go's time.Parse says "day out of range"
                "Requesting_2023-02-29 00:00:00",
                "Requesting_2024-04-31 00:00:00",
                "Requesting_2024-01-23 24:00:00",
                "Requesting_2024-01-23 23:60:00",
                "Requesting_2024-01-23 23:59:60",
                "Requesting_\u0662\u0660\u0662\u0664-01-23 04:30:04",
                "Requesting_2024-01-23 04:30:04Requesting_2024-01-23 04:30:04")) {
            assertThatThrownBy(() -> HandshakeCodec.decode(bad)).as(bad).isInstanceOf(AnnotationFormatException.class);
        }
    }

    @Test
    void leapDayIsAValidDate() throws Exception {
        assertThat(HandshakeCodec.decode("Reported_2024-02-29 23:59:59"))
                .isEqualTo(new Handshake(Handshake.State.Reported, LocalDateTime.of(2024, 2, 29, 23, 59, 59)));
    }

    @Test
    void errorsQuoteTheOffendingText() {
        assertThatThrownBy(() -> HandshakeCodec.decode("Requesting_2024-02-30 00:00:00"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageContaining("\"2024-02-30 00:00:00\"");
        assertThatThrownBy(() -> HandshakeCodec.decode("Deleted_x"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageContaining("\"Deleted_x\"");
    }
}
