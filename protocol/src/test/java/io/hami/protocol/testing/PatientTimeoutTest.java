package io.hami.protocol.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * {@link PatientTimeout} as JUnit runs it: the sample classes below run on a launcher of their own (they are skipped
 * when a build finds them), and their outcomes are what is checked.
 */
class PatientTimeoutTest {
    /** The samples' limit on an idle machine; what they really get is this times the factor. */
    static final long LIMIT_MS = 500;

    /** Set while this test runs the samples. */
    static volatile boolean sampling;

    static boolean sampling() {
        return sampling;
    }

    /** Outcomes by method name, of every test the launcher finished. */
    static Map<String, TestExecutionResult> run(Class<?> samples) {
        Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(samples))
                .build();
        sampling = true;
        try {
            LauncherFactory.create().execute(request, new TestExecutionListener() {
                @Override
                public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                    if (test.isTest()) {
                        results.put(test.getDisplayName().replaceFirst("\\(.*", ""), result);
                    }
                }
            });
        } finally {
            sampling = false;
        }
        return results;
    }

    static Throwable failure(TestExecutionResult result) {
        assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        return result.getThrowable().orElseThrow();
    }

    @EnabledIf("io.hami.protocol.testing.PatientTimeoutTest#sampling")
    @PatientTimeout(value = LIMIT_MS, unit = TimeUnit.MILLISECONDS)
    static class Samples {
        /** Interrupted flags seen after each test: a timer's interrupt must not outlive its test. */
        static final Map<String, Boolean> interruptedAfter = new ConcurrentHashMap<>();

        @AfterEach
        void flag(org.junit.jupiter.api.TestInfo test) {
            interruptedAfter.put(
                    test.getTestMethod().orElseThrow().getName(),
                    Thread.currentThread().isInterrupted());
        }

        @Test
        void hangs() throws InterruptedException {
            new CountDownLatch(1).await(); // only the interrupt ends it
        }

        @Test
        void swallowsTheInterrupt() {
            try {
                new CountDownLatch(1).await(); // the deadline's interrupt is the only way out
            } catch (InterruptedException e) {
                // carries on regardless: it still overran its limit
            }
        }

        @Test
        void endsInTime() {}

        @Test
        void failsOnItsOwn() {
            throw new IllegalStateException("its own failure");
        }

        @Test
        @PatientTimeout(value = 10, unit = TimeUnit.MINUTES)
        void hasMoreTimeOfItsOwn() throws InterruptedException {
            Thread.sleep(Patience.millis(LIMIT_MS).multipliedBy(2)); // past the class's limit, within its own
        }

        @Nested
        class Inner {
            @Test
            void hangsToo() throws InterruptedException {
                new CountDownLatch(1).await();
            }
        }
    }

    @EnabledIf("io.hami.protocol.testing.PatientTimeoutTest#sampling")
    static class Unlimited {
        @Test
        void endsWithoutALimit() throws InterruptedException {
            // Elapsed time is the subject here (longer than a limit would allow), not a wait for an event.
            Thread.sleep(Patience.millis(LIMIT_MS).multipliedBy(2));
        }
    }

    @Test
    void aTestPastItsScaledLimitFailsAsTimedOutWithItsStackAndTheOthersAreLeftAlone() {
        Samples.interruptedAfter.clear();
        var results = run(Samples.class);

        assertThat(results)
                .containsOnlyKeys(
                        "hangs",
                        "swallowsTheInterrupt",
                        "endsInTime",
                        "failsOnItsOwn",
                        "hasMoreTimeOfItsOwn",
                        "hangsToo");
        String limit = PatientTimeoutExtension.describe(Patience.millis(LIMIT_MS));
        Throwable hung = failure(results.get("hangs"));
        assertThat(hung)
                .isInstanceOf(TimeoutException.class)
                .hasMessage("hangs() timed out after " + limit + " (500 ms × patience "
                        + PatientTimeoutExtension.factor() + ")");
        assertThat(hung.getSuppressed()).hasSize(2);
        assertThat(hung.getSuppressed()[1])
                .as("what the interrupt made of the test")
                .isInstanceOf(InterruptedException.class);
        assertThat(hung.getSuppressed()[0])
                .as("where the test thread was at the deadline")
                .hasMessageContaining("at the deadline")
                .satisfies(s -> assertThat(s.getStackTrace())
                        .anyMatch(f -> f.getMethodName().equals("hangs")));
        assertThat(failure(results.get("swallowsTheInterrupt")))
                .isInstanceOf(TimeoutException.class)
                .hasMessageStartingWith("swallowsTheInterrupt() timed out after " + limit);
        assertThat(failure(results.get("hangsToo")))
                .as("a @Nested class gets its outer class's limit")
                .isInstanceOf(TimeoutException.class);
        assertThat(failure(results.get("failsOnItsOwn")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("its own failure");
        assertThat(results.get("endsInTime").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(results.get("hasMoreTimeOfItsOwn").getStatus())
                .as("a method's own limit overrides its class's")
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(Samples.interruptedAfter)
                .as("no interrupt is left over for the next test")
                .containsEntry("hangs", false)
                .containsEntry("swallowsTheInterrupt", false)
                .containsEntry("endsInTime", false);
    }

    @Test
    void withoutTheAnnotationNothingIsLimited() {
        assertThat(run(Unlimited.class).get("endsWithoutALimit").getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void limitsAreWrittenInTheLargestWholeUnit() {
        assertThat(PatientTimeoutExtension.describe(Duration.ofMinutes(12))).isEqualTo("12 min");
        assertThat(PatientTimeoutExtension.describe(Duration.ofSeconds(90))).isEqualTo("90 s");
        assertThat(PatientTimeoutExtension.describe(Duration.ofMillis(250))).isEqualTo("250 ms");
    }
}
