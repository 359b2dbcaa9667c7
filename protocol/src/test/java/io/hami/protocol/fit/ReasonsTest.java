package io.hami.protocol.fit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReasonsTest {

    @Test
    void entriesAreCountSlashTotalReasonSortedAndCommaJoined() {
        var counts = new LinkedHashMap<String, Integer>();
        counts.put(Reasons.NUMA_NOT_FIT, 2);
        counts.put(Reasons.CARD_INSUFFICIENT_MEMORY, 1);
        assertThat(Reasons.genReason(counts, 2)).isEqualTo("1/2 CardInsufficientMemory, 2/2 NumaNotFit");
    }

    @Test
    void sortingIsOnTheWholeEntryStringLikeGo() {
        // "10/12 ..." sorts before "2/12 ..." because the entries are compared as strings
        var counts = Map.of(Reasons.CARD_TYPE_MISMATCH, 2, Reasons.CARD_NOT_HEALTH, 10);
        assertThat(Reasons.genReason(counts, 12)).isEqualTo("10/12 CardNotHealth, 2/12 CardTypeMismatch");
    }

    @Test
    void noReasonsIsEmpty() {
        assertThat(Reasons.genReason(Map.of(), 3)).isEmpty();
    }

    @Test
    void constantsAreSpelledLikeUpstream() {
        assertThat(Reasons.CARD_UUID_MISMATCH).isEqualTo("CardUuidMismatch");
        assertThat(Reasons.ALLOCATED_CARDS_INSUFFICIENT_REQUEST).isEqualTo("AllocatedCardsInsufficientRequest");
        assertThat(Reasons.EXCLUSIVE_DEVICE_ALLOCATE_CONFLICT).isEqualTo("ExclusiveDeviceAllocateConflict");
    }
}
