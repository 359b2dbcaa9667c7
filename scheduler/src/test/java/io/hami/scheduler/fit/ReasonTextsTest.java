package io.hami.scheduler.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.fit.Reasons;
import java.util.HashMap;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The shared fit messages against the protocol's {@code genReason} (upstream's text), counts drawn at random. */
class ReasonTextsTest {
    static final String[] REASONS = {
        Reasons.CARD_NOT_HEALTH,
        Reasons.CARD_CORDONED,
        Reasons.CARD_TYPE_MISMATCH,
        Reasons.CARD_TIME_SLICING_EXHAUSTED,
        Reasons.EXCLUSIVE_DEVICE_ALLOCATE_CONFLICT,
        Reasons.CARD_INSUFFICIENT_MEMORY,
        Reasons.CARD_INSUFFICIENT_CORE,
        Reasons.CARD_COMPUTE_UNITS_EXHAUSTED,
        Reasons.CARD_NOT_FOUND_CUSTOM_FILTER_RULE
    };

    @Test
    void packedAndWideDenialsHaveGenReasonsTextAndRepeatsShareOneDenial() {
        var texts = new ReasonTexts(REASONS, Reasons.ALLOCATED_CARDS_INSUFFICIENT_REQUEST);
        var rnd = new Random(3);
        for (int c = 0; c < 5000; c++) {
            int n = rnd.nextInt(ReasonTexts.MAX_PACKED + 1);
            var counts = new int[REASONS.length];
            int passed = 0;
            long packed = 0;
            var upstream = new HashMap<String, Integer>();
            for (int i = 0; i < n; i++) {
                // Skewed, so some reasons take most devices (counts of 10+ sort before 2..9 as strings).
                int f = rnd.nextInt(3) == 0 ? rnd.nextInt(REASONS.length + 1) - 1 : 5;
                packed = texts.packedAdd(packed, f);
                if (f < 0) {
                    passed++;
                    upstream.merge(Reasons.ALLOCATED_CARDS_INSUFFICIENT_REQUEST, 1, Integer::sum);
                } else {
                    counts[f]++;
                    upstream.merge(REASONS[f], 1, Integer::sum);
                }
            }
            String expected = Reasons.genReason(upstream, n);
            Denial shared = texts.of(packed);
            assertThat(shared.text())
                    .as("counts %s, %d passed", java.util.Arrays.toString(counts), passed)
                    .isEqualTo(expected);
            assertThat(shared.counts()).isEqualTo(upstream);
            assertThat(texts.of(packed)).isSameAs(shared);
            assertThat(texts.of(packed).text()).isSameAs(shared.text());
            assertThat(texts.denial(counts, passed, n)).isEqualTo(shared);
        }
        // Past the packed limit only the built text is used; it is the same text.
        var counts = new int[REASONS.length];
        counts[0] = 70;
        counts[5] = 9;
        var upstream = new HashMap<String, Integer>();
        upstream.put(Reasons.CARD_NOT_HEALTH, 70);
        upstream.put(Reasons.CARD_INSUFFICIENT_MEMORY, 9);
        upstream.put(Reasons.ALLOCATED_CARDS_INSUFFICIENT_REQUEST, 1);
        assertThat(texts.denial(counts, 1, 80).text())
                .isEqualTo(Reasons.genReason(upstream, 80))
                .isEqualTo("1/80 AllocatedCardsInsufficientRequest, 70/80 CardNotHealth, 9/80 CardInsufficientMemory");
    }
}
