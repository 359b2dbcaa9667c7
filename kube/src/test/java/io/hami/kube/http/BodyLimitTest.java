package io.hami.kube.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The body read behind every endpoint: limit, in-flight budget, and what a slow body holds of it. */
class BodyLimitTest {
    static byte[] bytes(int n) {
        var b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        return b;
    }

    @Test
    void aBodyUpToTheLimitIsReadWholeAndHoldsItsBudgetUntilGivenBack() throws IOException {
        var budget = new InFlightBytes(1 << 20);
        var body = BodyLimit.read(new ByteArrayInputStream(bytes(100_000)), -1, 100_000, budget);

        assertThat(body).isInstanceOf(BodyLimit.Received.Body.class);
        var b = (BodyLimit.Received.Body) body;
        assertThat(b.stream().readAllBytes()).isEqualTo(bytes(100_000));
        assertThat(budget.held()).isEqualTo(b.held()).isBetween(100_000L, 2 * 100_000L + BodyLimit.FIRST_PIECE);
        budget.give(b.held());
        assertThat(budget.held()).isZero();
    }

    @Test
    void oneBytePastTheLimitIsTooLargeAndGivesItsBudgetBack() throws IOException {
        var budget = new InFlightBytes(1 << 20);

        var over = BodyLimit.read(new ByteArrayInputStream(bytes(100_001)), -1, 100_000, budget);

        assertThat(over).isEqualTo(new BodyLimit.Received.TooLarge(-1));
        assertThat(budget.held()).isZero();
    }

    @Test
    void aBodyTheBudgetCannotHoldIsBusyAndTakesNothing() throws IOException {
        var budget = new InFlightBytes(64 * 1024);
        assertThat(budget.tryTake(60 * 1024)).isTrue(); // other requests' bodies

        var busy = BodyLimit.read(new ByteArrayInputStream(bytes(50_000)), 50_000, 100_000, budget);

        assertThat(busy).isEqualTo(new BodyLimit.Received.Busy());
        assertThat(budget.held()).isEqualTo(60 * 1024);
    }

    /** One byte a read, as a trickling client sends. */
    static InputStream trickle(int n) {
        var in = new ByteArrayInputStream(bytes(n));
        return new InputStream() {
            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, Math.min(len, 1));
            }
        };
    }

    @Test
    void aLargeDeclaredLengthTakesNoMoreThanTheFirstPieceBeforeItsBytesArrive() throws IOException {
        var budget = new InFlightBytes(BodyLimit.FIRST_PIECE); // far below the declared 1 MiB

        var body = BodyLimit.read(trickle(100), 1 << 20, 4 << 20, budget);

        assertThat(body).isInstanceOf(BodyLimit.Received.Body.class);
        assertThat(((BodyLimit.Received.Body) body).held()).isEqualTo(BodyLimit.FIRST_PIECE);
    }

    @Test
    void aSmallDeclaredBodyTakesOnlyItsLength() throws IOException {
        var budget = new InFlightBytes(1 << 20);

        var body = (BodyLimit.Received.Body) BodyLimit.read(new ByteArrayInputStream(bytes(300)), 300, 65536, budget);

        assertThat(body.held()).isEqualTo(301);
        assertThat(body.stream().readAllBytes()).hasSize(300);
    }
}
