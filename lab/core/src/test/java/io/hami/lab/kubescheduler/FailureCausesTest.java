package io.hami.lab.kubescheduler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FailureCausesTest {
    @Test
    void foldsThePodTheNodeOtherPodsTimesAndLongNumbersOutOfTheCause() {
        assertThat(FailureCauses.cause(
                        "node gpu-930 is locked by default/train-646 since 2026-11-30T18:03:08Z, pod "
                                + "default/train-733 waits",
                        "default",
                        "train-733",
                        "gpu-930"))
                .isEqualTo("node <node> is locked by <other pod> since <time>, pod <pod> waits");
        assertThat(FailureCauses.cause(
                        "http://127.0.0.1:45007/bind: request timed out for train-7", "default", "train-7", "gpu-1"))
                .isEqualTo("http://127.0.0.1:<n>/bind: request timed out for <pod>");
        // A node name that is a prefix of another is not folded inside it.
        assertThat(FailureCauses.cause("gpu-1 and gpu-10", "default", "p-0", "gpu-1"))
                .isEqualTo("<node> and gpu-10");
        assertThat(FailureCauses.cause("", "default", "p-0", "gpu-1")).isEqualTo("(no error text)");
    }

    @Test
    void countsEqualCausesTogetherMostFrequentFirst() {
        var causes = new FailureCauses(LoggerFactory.getLogger(FailureCausesTest.class));
        causes.record("bind", "default", "train-1", "gpu-1", "pod default/train-1 is being deleted");
        causes.record("bind", "default", "train-2", "gpu-7", "Operation: [get] for kind: [Pod] failed on gpu-7");
        causes.record("bind", "default", "train-3", "gpu-2", "Operation: [get] for kind: [Pod] failed on gpu-2");
        causes.record("filter", "default", "train-4", null, "connection refused");

        assertThat(causes.counts())
                .containsExactly(
                        java.util.Map.entry("bind: Operation: [get] for kind: [Pod] failed on <node>", 2),
                        java.util.Map.entry("bind: pod <pod> is being deleted", 1),
                        java.util.Map.entry("filter: connection refused", 1));
    }
}
