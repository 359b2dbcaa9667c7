package io.hami.scheduler.leader;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class ElectionIdentityTest {
    static final UUID SUFFIX = UUID.fromString("00000000-0000-0000-0000-00000000002a");

    @Test
    void thePodNameIsTheIdentityWhenSet() {
        assertThat(ElectionIdentity.of("hami-scheduler-7d9f-abcde", "node-1", SUFFIX))
                .isEqualTo("hami-scheduler-7d9f-abcde");
        assertThat(ElectionIdentity.generated("hami-scheduler-7d9f-abcde")).isFalse();
    }

    @Test
    void withoutAPodNameTheHostnameGetsARandomSuffix() {
        assertThat(ElectionIdentity.of(null, "node-1", SUFFIX))
                .isEqualTo("node-1_00000000-0000-0000-0000-00000000002a");
        assertThat(ElectionIdentity.of("  ", "node-1", SUFFIX))
                .isEqualTo("node-1_00000000-0000-0000-0000-00000000002a");
        assertThat(ElectionIdentity.of(null, null, SUFFIX))
                .isEqualTo("hami-scheduler_00000000-0000-0000-0000-00000000002a");
        assertThat(ElectionIdentity.generated(null)).isTrue();
        assertThat(ElectionIdentity.generated("")).isTrue();
    }

    @Test
    void twoProcessesOnOneHostWithoutAPodNameDiffer() {
        assertThat(ElectionIdentity.of(null, "node-1"))
                .isNotEqualTo(ElectionIdentity.of(null, "node-1"))
                .startsWith("node-1_");
    }
}
