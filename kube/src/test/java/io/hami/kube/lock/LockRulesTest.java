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
        assertThat(decide(lock("ns", "other", T0), HolderState.FINISHED, T0)).isInstanceOf(LockRules.Decision.Take.class);
    }

    @Test
    void aHolderThatHasNotWrittenItsDecisionYetKeepsTheLockUntilTheTimeout() {
        assertThat(decide(lock("ns", "other", T0), HolderState.PENDING, T0.plus(TIMEOUT))).isInstanceOf(LockRules.Decision.Wait.class);
        assertThat(decide(lock("ns", "other", T0), HolderState.PENDING, T0.plus(TIMEOUT).plusSeconds(1))).isInstanceOf(LockRules.Decision.Take.class);
    }

    @Test
    void aHolderIsOnlyFinishedOrAllocatingForABindUnderThisLockOnThisNode() {
        var l = lock("ns", "p", T0);
        var bound = java.util.Map.of("hami.io/vgpu-node", "n1", "hami.io/bind-time", Long.toString(T0.getEpochSecond()), "hami.io/bind-phase", "success");
        assertThat(NodeLockClient.holderState("n1", l, bound)).isEqualTo(HolderState.FINISHED);
        assertThat(NodeLockClient.holderState("n2", l, bound)).isEqualTo(HolderState.PENDING);
        var earlier = new java.util.HashMap<>(bound);
        earlier.put("hami.io/bind-time", Long.toString(T0.getEpochSecond() - 60));
        assertThat(NodeLockClient.holderState("n1", l, earlier)).isEqualTo(HolderState.PENDING);
        var allocating = new java.util.HashMap<>(bound);
        allocating.put("hami.io/bind-phase", "allocating");
        assertThat(NodeLockClient.holderState("n1", l, allocating)).isEqualTo(HolderState.ALLOCATING);
        assertThat(NodeLockClient.holderState("n1", l, java.util.Map.of())).isEqualTo(HolderState.PENDING);
    }

    @Test
    void legacyLocksHaveNoHolderAndOnlyExpire() {
        assertThat(decide(lock("", "", T0), HolderState.GONE, T0.plusSeconds(10))).isInstanceOf(LockRules.Decision.Wait.class);
        assertThat(decide(lock("", "", T0), HolderState.GONE, T0.plus(TIMEOUT).plusSeconds(1))).isInstanceOf(LockRules.Decision.Take.class);
    }
}
