package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** DP_DISABLE_HEALTHCHECKS / DP_ENABLE_HEALTHCHECKS as upstream's device plugin reads them. */
class XidPolicyTest {

    @Test
    void byDefaultEveryXidButTheApplicationOnesIsCritical() {
        XidPolicy p = XidPolicy.fromEnv(Map.of());
        assertThat(p).isEqualTo(XidPolicy.DEFAULT);
        for (long app : new long[] {13, 31, 43, 45, 68, 109}) {
            assertThat(p.isCritical(app)).as("XID %d", app).isFalse();
        }
        assertThat(p.isCritical(48)).isTrue();
        assertThat(p.isCritical(79)).isTrue();
        assertThat(p.watchesNothing()).isFalse();
    }

    @Test
    void allOrXidsDisablesEveryXidAndNothingIsWatched() {
        for (String off : new String[] {"all", "xids", " ALL ", "Xids", "79,all"}) {
            XidPolicy p = XidPolicy.of(off, null);
            assertThat(p.isCritical(79)).as(off).isFalse();
            assertThat(p.isCritical(48)).as(off).isFalse();
            assertThat(p.watchesNothing()).as(off).isTrue();
        }
    }

    @Test
    void aListIgnoresThoseXidsOnly() {
        XidPolicy p = XidPolicy.fromEnv(Map.of(XidPolicy.DISABLE_ENV, "79, 48,,"));
        assertThat(p.isCritical(79)).isFalse();
        assertThat(p.isCritical(48)).isFalse();
        assertThat(p.isCritical(13)).isFalse();
        assertThat(p.isCritical(94)).isTrue();
        assertThat(p.malformed()).isEmpty();
    }

    @Test
    void enableForcesXidsOnOverDisableAndTheApplicationList() {
        XidPolicy p = XidPolicy.fromEnv(Map.of(XidPolicy.DISABLE_ENV, "all", XidPolicy.ENABLE_ENV, "79,13"));
        assertThat(p.isCritical(79)).isTrue();
        assertThat(p.isCritical(13)).isTrue();
        assertThat(p.isCritical(48)).isFalse();
        assertThat(p.watchesNothing()).isFalse();
        XidPolicy everything = XidPolicy.of("48", "all");
        assertThat(everything.isCritical(48)).isTrue();
        assertThat(everything.isCritical(31)).isTrue();
    }

    @Test
    void malformedValuesAreIgnoredAndReported() {
        XidPolicy p = XidPolicy.of("79,x9,-3", "abc");
        assertThat(p.isCritical(79)).isFalse();
        assertThat(p.isCritical(48)).isTrue();
        assertThat(p.malformed())
                .containsExactly(
                        "DP_DISABLE_HEALTHCHECKS=x9", "DP_DISABLE_HEALTHCHECKS=-3", "DP_ENABLE_HEALTHCHECKS=abc");
    }
}
