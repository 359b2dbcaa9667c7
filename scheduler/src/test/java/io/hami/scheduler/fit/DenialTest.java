package io.hami.scheduler.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.fit.Reasons;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Denials as values: their labels for metrics and events, and upstream's text built from them. */
class DenialTest {

    @Test
    void aFitWalkDenialIsUpstreamsTextAndEachReasonOnceAsALabel() {
        var d = Denial.devices(Map.of(Reasons.NUMA_NOT_FIT, 2, Reasons.CARD_INSUFFICIENT_MEMORY, 1), 2);

        assertThat(d.text())
                .isEqualTo("1/2 CardInsufficientMemory, 2/2 NumaNotFit")
                .isEqualTo(Reasons.genReason(d.counts(), d.total()));
        assertThat(d.labels()).containsExactly("CardInsufficientMemory", "NumaNotFit");
        assertThat(d.text()).isSameAs(d.text());
        assertThat(d)
                .isEqualTo(Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 1, Reasons.NUMA_NOT_FIT, 2), 2))
                .isNotEqualTo(Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 1, Reasons.NUMA_NOT_FIT, 2), 3));
    }

    @Test
    void denialsBeforeTheFitWalkHaveUpstreamsFixedTextsAndOneLabelEach() {
        assertThat(Denial.TOO_FEW_DEVICES.text()).isEqualTo("NodeInsufficientDevice");
        assertThat(Denial.TOO_FEW_DEVICES.labels()).containsExactly("NodeInsufficientDevice");
        assertThat(Denial.NO_BACKEND.text()).isEqualTo("Device type not found");
        assertThat(Denial.NO_BACKEND.labels()).containsExactly("Device type not found");
        assertThat(Denial.UNREGISTERED.text()).isEqualTo("node unregistered");
        assertThat(Denial.UNREGISTERED.labels()).containsExactly("node unregistered");
    }

    @Test
    void freeTextDetailsStayOutOfTheLabelsWhateverTheyContain() {
        var closed = Denial.failsClosed(List.of(
                "NVIDIA inventory unreadable: bad entry 3, expected 9 fields",
                "pod ns/x has an undecodable hami.io/vgpu-devices-allocated: invalid memory field"));
        assertThat(closed.text())
                .isEqualTo("node fails closed: NVIDIA inventory unreadable: bad entry 3, expected 9 fields; "
                        + "pod ns/x has an undecodable hami.io/vgpu-devices-allocated: invalid memory field");
        assertThat(closed.labels()).containsExactly("fails closed");

        var unrepresentable = Denial.unrepresentable("container c: nvidia.com/gpu \"4Gi\" (4294967296) is out of range;"
                + " NVIDIA takes a whole number from 0 to 2147483647 (devices)");
        assertThat(unrepresentable.text()).startsWith("unrepresentable request: container c: nvidia.com/gpu ");
        assertThat(unrepresentable.labels()).containsExactly("unrepresentable request");
        assertThat(unrepresentable.detail()).startsWith("container c:");
    }

    @Test
    void aFitWalkWithoutCountsIsOtherSoTheLabelSetStaysBounded() {
        var empty = Denial.devices(Map.of(), 0);
        assertThat(empty.text()).isEmpty();
        assertThat(empty.labels()).containsExactly("other");
    }

    @Test
    void bindNamesTheNodeInItsError() {
        assertThat(Denial.UNREGISTERED.bindError("n1")).isEqualTo("node n1 is unregistered");
        assertThat(Denial.failsClosed(List.of("a", "b")).bindError("n1")).isEqualTo("node n1 fails closed: a; b");
        assertThat(Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 1), 1)
                        .bindError("gpu-small"))
                .isEqualTo("pod no longer fits on node gpu-small: 1/1 CardInsufficientMemory");
    }
}
