package io.hami.kube.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.codec.NodeLock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class LockRulesTest {
    static final Instant T0 = Instant.parse("2026-08-01T06:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(5);

    static NodeLock lock(String ns, String name, Instant at) {
        return new NodeLock(at.atOffset(ZoneOffset.UTC), ns, name);
    }

    static LockRules.Decision decide(NodeLock current, HolderState holder, Instant now) {
        return LockRules.decide(current, "ns", "me", holder, now, TIMEOUT);
    }

    @Test
    void anUnlockedNodeIsTakenAndTheHolderReenters() {
        assertThat(decide(null, HolderState.GONE, T0)).isInstanceOf(LockRules.Decision.Take.class);
        assertThat(decide(lock("ns", "me", T0), HolderState.ALLOCATING, T0.plusSeconds(3600))).isInstanceOf(LockRules.Decision.Reenter.class);
    }

    @Test
    void aLiveHolderWithinTheTimeoutMakesOthersWait() {
        assertThat(decide(lock("ns", "other", T0), HolderState.ALLOCATING, T0.plus(TIMEOUT))).isInstanceOf(LockRules.Decision.Wait.class);
        // a pod of the same name in another namespace is not the holder
        assertThat(LockRules.decide(lock("ns2", "me", T0), "ns", "me", HolderState.ALLOCATING, T0, TIMEOUT))
                .isInstanceOf(LockRules.Decision.Wait.class);
    }

    @Test
    void anExpiredHolderStillAllocatingIsFailedBeforeTheLockIsHandedOver() {
        assertThat(decide(lock("ns", "other", T0), HolderState.ALLOCATING, T0.plus(TIMEOUT).plusSeconds(1)))
                .isInstanceOf(LockRules.Decision.FailHolderThenTake.class);
    }

    @Test
    void deadHoldersAreReplacedAtOnce() {
        assertThat(decide(lock("ns", "other", T0), HolderState.GONE, T0)).isInstanceOf(LockRules.Decision.Take.class);
        assertThat(decide(lock("ns", "other", T0), HolderState.IDLE, T0)).isInstanceOf(LockRules.Decision.Take.class);
    }

    @Test
    void legacyLocksHaveNoHolderAndOnlyExpire() {
        assertThat(decide(lock("", "", T0), HolderState.GONE, T0.plusSeconds(10))).isInstanceOf(LockRules.Decision.Wait.class);
        assertThat(decide(lock("", "", T0), HolderState.GONE, T0.plus(TIMEOUT).plusSeconds(1))).isInstanceOf(LockRules.Decision.Take.class);
    }
}
