package io.hami.scheduler.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.scheduler.extender.ExtenderArgs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A /filter or /prioritize body that names a node more than once. */
class DistinctNamesTest {
    @Test
    void repeatedNodeNamesAreKeptOnceInFirstSeenOrderAndDistinctArgsAreNotCopied() {
        var distinct = new ExtenderArgs(null, null, List.of("a", "b", "c"));
        assertThat(DistinctNames.of(distinct)).isSameAs(distinct);

        var repeated = new ExtenderArgs(null, null, List.of("b", "a", "b", "c", "a"));
        assertThat(DistinctNames.of(repeated).nodeNames()).containsExactly("b", "a", "c");
        assertThat(DistinctNames.of(new ExtenderArgs(null, null, null)).nodeNames())
                .isNull();
    }
}
