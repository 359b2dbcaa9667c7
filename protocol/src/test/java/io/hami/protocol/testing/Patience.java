package io.hami.protocol.testing;

import java.time.Duration;

/**
 * How long a test waits for what it waits for. Every limit is the time the event takes on an idle 2-core machine with
 * room to spare, multiplied by one factor: the system property {@code hami.test.patience} ({@code ./mvnw ...
 * -Dhami.test.patience=3}; Surefire hands the command line's properties to the test JVM), else the environment
 * variable {@code HAMI_TEST_PATIENCE}, else 1. A machine that runs other builds beside ours (load 6-26 was seen on 2
 * cores) takes several times longer for the same event, so CI there raises the factor instead of every test raising
 * its limits. Only limits scale, never what a test measures or asserts as a bound of the system under test.
 *
 * <p>In the protocol test-jar, so that every module's tests (scheduler, monitor, e2e, ...) scale by the same factor.
 */
public final class Patience {
    /** The factor, at least 1. */
    public static final double FACTOR =
            factor(System.getProperty("hami.test.patience"), System.getenv("HAMI_TEST_PATIENCE"));

    private Patience() {}

    /** {@code idle} times the factor. */
    public static Duration of(Duration idle) {
        return Duration.ofMillis(Math.round(idle.toMillis() * FACTOR));
    }

    public static Duration seconds(long idle) {
        return of(Duration.ofSeconds(idle));
    }

    public static Duration millis(long idle) {
        return of(Duration.ofMillis(idle));
    }

    static double factor(String property, String env) {
        String value = property != null && !property.isBlank() ? property : env;
        if (value == null || value.isBlank()) {
            return 1;
        }
        double f;
        try {
            f = Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "hami.test.patience / HAMI_TEST_PATIENCE must be a number, not " + value, e);
        }
        if (!(f >= 1) || Double.isInfinite(f)) {
            throw new IllegalArgumentException(
                    "hami.test.patience / HAMI_TEST_PATIENCE must be at least 1, not " + value);
        }
        return f;
    }
}
