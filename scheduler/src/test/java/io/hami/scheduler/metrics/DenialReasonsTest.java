package io.hami.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.fit.Reasons;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DenialReasonsTest {

    @Test
    void aGenReasonStringYieldsEachReasonOnceWithoutItsCounts() {
        var counts = new TreeMap<String, Integer>(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 1, Reasons.NUMA_NOT_FIT, 2));
        String reason = Reasons.genReason(counts, 2);
        assertThat(reason).isEqualTo("1/2 CardInsufficientMemory, 2/2 NumaNotFit");

        assertThat(DenialReasons.kinds(reason)).containsExactly("CardInsufficientMemory", "NumaNotFit");
    }

    @Test
    void bareReasonsAndFixedPhrasesAreTheirOwnKind() {
        assertThat(DenialReasons.kinds("NodeInsufficientDevice")).containsExactly("NodeInsufficientDevice");
        assertThat(DenialReasons.kinds("node unregistered")).containsExactly("node unregistered");
        assertThat(DenialReasons.kinds("Device type not found")).containsExactly("Device type not found");
    }

    @Test
    void failClosedDetailsCollapseToOneKindEvenWhenTheyContainCommas() {
        assertThat(DenialReasons.kinds("node fails closed: NVIDIA inventory unreadable: bad entry 3, expected 9 fields; "
                + "pod ns/x has an undecodable hami.io/vgpu-devices-allocated: invalid memory field"))
                .containsExactly("fails closed");
    }

    @Test
    void unrepresentableRequestsAreOneKindWhateverTheirDetails() {
        assertThat(DenialReasons.kinds("unrepresentable request: container c: nvidia.com/gpu \"4Gi\" (4294967296) is out of range;"
                + " NVIDIA takes a whole number from 0 to 2147483647 (devices)")).containsExactly("unrepresentable request");
    }

    @Test
    void unrecognisedTextIsOtherSoTheLabelSetStaysBounded() {
        assertThat(DenialReasons.kinds("failed to fetch node info: timeout, retry")).containsExactly("other");
        assertThat(DenialReasons.kinds("1/2 CardInsufficientMemory, something went wrong"))
                .containsExactly("CardInsufficientMemory", "other");
        assertThat(DenialReasons.kinds("1/2 CardInsufficientMemory, Retry")).containsExactly("CardInsufficientMemory", "other");
        assertThat(DenialReasons.kinds("timeout")).containsExactly("other");
        assertThat(DenialReasons.kinds("")).containsExactly("other");
    }

    @Test
    void nodesAreGroupedByKindSortedAndCountedOncePerNode() {
        var byKind = DenialReasons.nodesByKind(Map.of(
                "n3", "1/2 CardInsufficientMemory, 2/2 NumaNotFit",
                "n1", "2/2 CardInsufficientMemory",
                "n2", "node unregistered"));

        assertThat(byKind).containsExactly(
                Map.entry("CardInsufficientMemory", Set.of("n1", "n3")),
                Map.entry("NumaNotFit", Set.of("n3")),
                Map.entry("node unregistered", Set.of("n2")));
        assertThat(byKind.get("CardInsufficientMemory")).containsExactly("n1", "n3");
    }
}
