package io.hami.kube.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.codec.NodeLock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LockRulesTest {
    static final Instant T0 = Instant.parse("2026-08-01T06:00:00Z");
    static final LockTimeouts TIMEOUTS = new LockTimeouts(Duration.ofMinutes(5), Duration.ofSeconds(60));
    static final Duration TIMEOUT = TIMEOUTS.allocation();
    static final Duration WINDOW = TIMEOUTS.bindWindow();

    static NodeLock lock(String ns, String name, Instant at) {
        return new NodeLock(at.atOffset(ZoneOffset.UTC), ns, name);
    }

    static LockRules.Decision decide(NodeLock current, HolderState holder, Instant now) {
        return LockRules.decide(current, "ns", "me", holder, now, TIMEOUTS);
    }

    /** Annotations of a decision for {@code node} at {@code bindTime} in {@code phase}. */
    static Map<String, String> decision(String node, Instant bindTime, String phase) {
        var a = new HashMap<String, String>();
        a.put("hami.io/vgpu-node", node);
        a.put("hami.io/bind-time", Long.toString(bindTime.getEpochSecond()));
        a.put("hami.io/bind-phase", phase);
        return a;
    }

    static HolderPod live(Map<String, String> annotations) {
        return new HolderPod(annotations, "Pending", false, null);
    }

    @Test
    void anUnlockedNodeIsTakenAndTheHolderReenters() {
        assertThat(decide(null, HolderState.GONE, T0)).isInstanceOf(LockRules.Decision.Take.class);
        for (HolderState h : HolderState.values()) {
            assertThat(decide(lock("ns", "me", T0), h, T0.plusSeconds(3600)))
                    .as("%s", h)
                    .isInstanceOf(LockRules.Decision.Reenter.class);
        }
    }

    @Test
    void aLiveHolderWithinTheTimeoutMakesOthersWait() {
        assertThat(decide(lock("ns", "other", T0), HolderState.ALLOCATING, T0.plus(TIMEOUT)))
                .isInstanceOf(LockRules.Decision.Wait.class);
        // a pod of the same name in another namespace is not the holder
        assertThat(LockRules.decide(lock("ns2", "me", T0), "ns", "me", HolderState.ALLOCATING, T0, TIMEOUTS))
                .isInstanceOf(LockRules.Decision.Wait.class);
    }

    @Test
    void anExpiredHolderStillAllocatingIsFailedBeforeTheLockIsHandedOver() {
        assertThat(decide(
                        lock("ns", "other", T0),
                        HolderState.ALLOCATING,
                        T0.plus(TIMEOUT).plusSeconds(1)))
                .isInstanceOf(LockRules.Decision.FailHolderThenTake.class);
    }

    @Test
    void deadHoldersAreReplacedAtOnce() {
        assertThat(decide(lock("ns", "other", T0), HolderState.GONE, T0)).isInstanceOf(LockRules.Decision.Take.class);
        assertThat(decide(lock("ns", "other", T0), HolderState.FINISHED, T0))
                .isInstanceOf(LockRules.Decision.Take.class);
    }

    @Test
    void aHolderThatEndedIsReplacedAtOnceAndFailedFirstWhenStillAllocating() {
        assertThat(decide(lock("ns", "other", T0), HolderState.ENDED_ALLOCATING, T0))
                .isInstanceOf(LockRules.Decision.FailHolderThenTake.class);
        assertThat(decide(lock("ns", "other", T0), HolderState.ENDED, T0))
                .isInstanceOf(LockRules.Decision.TakeFromIdleHolder.class);
    }

    @Test
    void aHolderThatHasNotWrittenItsDecisionKeepsTheLockForTheBindWindowOnly() {
        assertThat(decide(lock("ns", "other", T0), HolderState.PENDING, T0.plus(WINDOW)))
                .isInstanceOf(LockRules.Decision.Wait.class);
        assertThat(decide(
                        lock("ns", "other", T0),
                        HolderState.PENDING,
                        T0.plus(WINDOW).plusSeconds(1)))
                .isInstanceOf(LockRules.Decision.TakeFromIdleHolder.class);
        // the window is its own parameter: a longer allocation timeout does not lengthen it
        var longer = new LockTimeouts(Duration.ofHours(1), WINDOW);
        assertThat(LockRules.decide(
                        lock("ns", "other", T0),
                        "ns",
                        "me",
                        HolderState.PENDING,
                        T0.plus(WINDOW).plusSeconds(1),
                        longer))
                .isInstanceOf(LockRules.Decision.TakeFromIdleHolder.class);
    }

    /** Every holder state at every age: the only waits are a live allocation within the timeout and a bind within its window. */
    @Test
    void noHolderKeepsTheNodeLongerThanItCanUseIt() {
        List<Instant> ages = List.of(
                T0,
                T0.plus(WINDOW),
                T0.plus(WINDOW).plusSeconds(1),
                T0.plus(TIMEOUT),
                T0.plus(TIMEOUT).plusSeconds(1));
        for (HolderState h : HolderState.values()) {
            for (Instant now : ages) {
                var d = decide(lock("ns", "other", T0), h, now);
                boolean mayWait = h == HolderState.ALLOCATING && !now.isAfter(T0.plus(TIMEOUT))
                        || (h == HolderState.PENDING || h == HolderState.ALLOCATING_UNBOUND)
                                && !now.isAfter(T0.plus(WINDOW));
                assertThat(d instanceof LockRules.Decision.Wait)
                        .as("%s at %s: %s", h, now, d)
                        .isEqualTo(mayWait);
                // a decision that may be live is failed before anyone else gets the node
                if (h == HolderState.ALLOCATING
                        || h == HolderState.ALLOCATING_UNBOUND
                        || h == HolderState.ENDED_ALLOCATING) {
                    assertThat(d)
                            .as("%s at %s", h, now)
                            .isInstanceOfAny(
                                    LockRules.Decision.Wait.class, LockRules.Decision.FailHolderThenTake.class);
                }
            }
        }
    }

    @Test
    void aDecisionThatWasNeverBoundKeepsTheLockForTheBindWindowOnlyAndIsFailedFirst() {
        assertThat(decide(lock("ns", "other", T0), HolderState.ALLOCATING_UNBOUND, T0.plus(WINDOW)))
                .isInstanceOf(LockRules.Decision.Wait.class);
        assertThat(decide(
                        lock("ns", "other", T0),
                        HolderState.ALLOCATING_UNBOUND,
                        T0.plus(WINDOW).plusSeconds(1)))
                .isInstanceOf(LockRules.Decision.FailHolderThenTake.class);
    }

    @Test
    void aHolderIsOnlyFinishedOrAllocatingForABindUnderThisLockOnThisNode() {
        var l = lock("ns", "p", T0);
        var bound = decision("n1", T0, "success");
        assertThat(LockRules.holderState("n1", l, live(bound))).isEqualTo(HolderState.FINISHED);
        assertThat(LockRules.holderState("n2", l, live(bound))).isEqualTo(HolderState.PENDING);
        assertThat(LockRules.holderState("n1", l, live(decision("n1", T0.minusSeconds(60), "success"))))
                .isEqualTo(HolderState.PENDING);
        assertThat(LockRules.holderState("n1", l, live(decision("n1", T0, "allocating"))))
                .isEqualTo(HolderState.ALLOCATING_UNBOUND);
        assertThat(LockRules.holderState(
                        "n1", l, new HolderPod(decision("n1", T0, "allocating"), "Pending", false, "n1")))
                .isEqualTo(HolderState.ALLOCATING);
        assertThat(LockRules.holderState("n1", l, live(Map.of()))).isEqualTo(HolderState.PENDING);
        var unreadable = decision("n1", T0, "allocating");
        unreadable.put("hami.io/bind-time", "soon");
        assertThat(LockRules.holderState("n1", l, live(unreadable))).isEqualTo(HolderState.PENDING);
        assertThat(LockRules.holderState("n1", l, null)).isEqualTo(HolderState.GONE);
    }

    /**
     * Every combination of the pod's phase, deletion, binding and decision. A pod that finished, is being deleted or is
     * bound elsewhere has ENDED (ENDED_ALLOCATING with a live decision under this lock; FINISHED when its bind under this
     * lock finished); any other is what its decision says, ALLOCATING only once bound to the locked node.
     */
    @Test
    void aHolderThatFinishedIsBeingDeletedOrIsBoundElsewhereHasEnded() {
        var l = lock("ns", "p", T0);
        record Case(String what, Map<String, String> annotations, HolderState decided) {}
        var cases = List.of(
                new Case(
                        "allocating under this lock",
                        decision("n1", T0.plusSeconds(1), "allocating"),
                        HolderState.ALLOCATING),
                new Case("success under this lock", decision("n1", T0, "success"), HolderState.FINISHED),
                new Case("failed under this lock", decision("n1", T0, "failed"), HolderState.FINISHED),
                new Case(
                        "allocating under an earlier lock",
                        decision("n1", T0.minusSeconds(1), "allocating"),
                        HolderState.PENDING),
                new Case("allocating for another node", decision("n2", T0, "allocating"), HolderState.PENDING),
                new Case("no decision", Map.of(), HolderState.PENDING));
        var phases = new ArrayList<>(Arrays.asList("Pending", "Running", "Succeeded", "Failed", "Unknown", null));
        var bindings = new ArrayList<>(Arrays.asList(null, "n1", "n2"));
        for (Case c : cases) {
            for (String phase : phases) {
                for (boolean deleting : List.of(false, true)) {
                    for (String boundNode : bindings) {
                        boolean ended = "Succeeded".equals(phase)
                                || "Failed".equals(phase)
                                || deleting
                                || "n2".equals(boundNode);
                        var state = LockRules.holderState(
                                "n1", l, new HolderPod(c.annotations(), phase, deleting, boundNode));
                        HolderState expected = switch (c.decided()) {
                            case ALLOCATING ->
                                ended
                                        ? HolderState.ENDED_ALLOCATING
                                        : boundNode == null ? HolderState.ALLOCATING_UNBOUND : HolderState.ALLOCATING;
                            case PENDING -> ended ? HolderState.ENDED : HolderState.PENDING;
                            default -> c.decided();
                        };
                        assertThat(state)
                                .as("%s, phase %s, deleting %s, bound to %s", c.what(), phase, deleting, boundNode)
                                .isEqualTo(expected);
                        assertThat(decide(lock("ns", "p", T0), state, T0))
                                .as("an ended holder is not waited for")
                                .matches(x -> !ended || !(x instanceof LockRules.Decision.Wait));
                    }
                }
            }
        }
    }

    @Test
    void legacyLocksHaveNoHolderAndOnlyExpire() {
        assertThat(decide(lock("", "", T0), HolderState.GONE, T0.plus(WINDOW).plusSeconds(10)))
                .isInstanceOf(LockRules.Decision.Wait.class);
        assertThat(decide(lock("", "", T0), HolderState.GONE, T0.plus(TIMEOUT).plusSeconds(1)))
                .isInstanceOf(LockRules.Decision.Take.class);
    }

    @Test
    void theBindWindowDefaultsToAMinuteButNeverOutlastsTheAllocationTimeout() {
        assertThat(LockTimeouts.of(Duration.ofMinutes(5)))
                .isEqualTo(new LockTimeouts(Duration.ofMinutes(5), Duration.ofSeconds(60)));
        assertThat(LockTimeouts.of(Duration.ofSeconds(3)).bindWindow()).isEqualTo(Duration.ofSeconds(3));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new LockTimeouts(Duration.ofMinutes(5), Duration.ZERO))
                .hasMessage("node lock timeouts must be longer than 0, got allocation PT5M and bind window PT0S");
    }
}
