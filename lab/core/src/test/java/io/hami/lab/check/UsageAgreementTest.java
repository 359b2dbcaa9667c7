package io.hami.lab.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.usage.ContainerUsage;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UsageAgreementTest {
    private static final long GIB = 1L << 30;

    private static ContainerUsage use(String container, long used, long limit) {
        return new ContainerUsage("default/p-0", container, 0, "GPU-a", used, limit);
    }

    @Test
    void holdsWhenTheMonitorReportsExactlyWhatWasWritten() {
        var written = List.of(use("a", GIB, 4 * GIB), use("b", 5 * GIB, 4 * GIB));

        Invariant i = UsageAgreement.check(written, List.copyOf(written), Set.of("default/p-0/b"), List.of());

        assertThat(i.violations()).isEmpty();
        assertThat(i.checked()).isEqualTo(2);
    }

    @Test
    void aFigureOffByOneByteOrMissingOrUnexpectedIsAViolation() {
        Invariant i = UsageAgreement.check(
                List.of(use("a", GIB, 4 * GIB), use("b", GIB, 4 * GIB)),
                List.of(use("a", GIB - 1, 4 * GIB), use("c", 0, 4 * GIB)),
                Set.of(),
                List.of());

        assertThat(i.violations())
                .containsExactlyInAnyOrder(
                        "default/p-0/a GPU 0: the workload wrote 1,073,741,824 of 4,294,967,296 bytes on GPU-a, the"
                                + " monitor reports 1,073,741,823 of 4,294,967,296 bytes on GPU-a",
                        "default/p-0/b GPU 0: the workload wrote 1,073,741,824 of 4,294,967,296 bytes on GPU-a, the"
                                + " monitor reports nothing",
                        "default/p-0/c GPU 0: the monitor reports 0 of 4,294,967,296 bytes on GPU-a but no workload"
                                + " wrote it");
    }

    @Test
    void aboveItsLimitIsAViolationUnlessItsProfileSaysOverLimit() {
        var over = List.of(use("a", 5 * GIB, 4 * GIB));

        assertThat(UsageAgreement.check(over, over, Set.of(), List.of()).violations())
                .singleElement()
                .asString()
                .contains("reported above its limit", "does not say overLimit");
        assertThat(UsageAgreement.check(over, over, Set.of("default/p-0/a"), List.of())
                        .holds())
                .isTrue();
    }

    @Test
    void workloadsThatFailedAreViolations() {
        assertThat(UsageAgreement.check(List.of(), List.of(), Set.of(), List.of("default/p-0 container a: no workload"))
                        .violations())
                .containsExactly("default/p-0 container a: no workload");
    }
}
