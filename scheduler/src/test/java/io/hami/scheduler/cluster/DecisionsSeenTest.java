package io.hami.scheduler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLock;
import io.hami.scheduler.cluster.DecisionsSeen.LockHistory;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each condition of the proof that spares a bind its LIST, one at a time: break any and the bind lists. */
class DecisionsSeenTest {
    static final Instant LOCKED = Instant.parse("2026-11-30T10:00:00Z");
    static final NodeLock H = new NodeLock(LOCKED.atOffset(ZoneOffset.UTC), "ns", "h");
    static final LockHistory ENDED = new LockHistory(H, "120");

    static Map<String, String> decided(String node, String phase) {
        var a = new HashMap<String, String>();
        a.put(ProtocolKeys.VGPU_NODE, node);
        a.put(ProtocolKeys.BIND_PHASE, phase);
        a.put(ProtocolKeys.BIND_TIME, Long.toString(LOCKED.getEpochSecond()));
        return a;
    }

    static boolean proven(String freeAt, LockHistory history, boolean listing, Map<String, String> holder, String boundTo,
                          String version, long recorded) {
        return DecisionsSeen.proven("n1", freeAt, history, listing, holder, boundTo, version, recorded);
    }

    @Test
    void theHolderBoundHereAndRecordedByTheIndexUpToTheLockedVersionProvesIt() {
        assertThat(proven("120", ENDED, false, decided("n1", "success"), "n1", "99", 99)).isTrue();
        assertThat(proven("120", ENDED, false, decided("n1", "allocating"), "n1", "99", 104)).isTrue();
    }

    @Test
    void aHistoryNotAsOfTheVersionTheLockWasWrittenOverProvesNothing() {
        // the node changed between what the watch saw and what the lock was written over: a tenure may hide there
        assertThat(proven("121", ENDED, false, decided("n1", "success"), "n1", "99", 99)).isFalse();
        assertThat(proven(null, ENDED, false, decided("n1", "success"), "n1", "99", 99)).isFalse(); // a takeover
        assertThat(proven("120", new LockHistory(null, "120"), false, decided("n1", "success"), "n1", "99", 99)).isFalse();
        assertThat(proven("120", null, false, decided("n1", "success"), "n1", "99", 99)).isFalse();
    }

    @Test
    void aListInProgressProvesNothing() {
        assertThat(proven("120", ENDED, true, decided("n1", "success"), "n1", "99", 99)).isFalse();
    }

    @Test
    void theHolderMustBeBoundHereWithALiveDecision() {
        // not bound: its decision may be from an earlier tenure (even one in the same second as its last lock)
        assertThat(proven("120", ENDED, false, decided("n1", "allocating"), null, "99", 99)).isFalse();
        assertThat(proven("120", ENDED, false, decided("n1", "success"), "n2", "99", 99)).isFalse();
        assertThat(proven("120", ENDED, false, decided("n2", "success"), "n1", "99", 99)).isFalse();
        // bound after its decision was failed: the binding may have landed after a later tenure's decision
        assertThat(proven("120", ENDED, false, decided("n1", "failed"), "n1", "99", 99)).isFalse();
        var noPhase = decided("n1", "success");
        noPhase.remove(ProtocolKeys.BIND_PHASE);
        assertThat(proven("120", ENDED, false, noPhase, "n1", "99", 99)).isFalse();
        assertThat(proven("120", ENDED, false, null, null, null, -1)).isFalse(); // the holder's pod is gone
    }

    @Test
    void theIndexMustHaveRecordedTheVersionTheWatchDelivered() {
        assertThat(proven("120", ENDED, false, decided("n1", "success"), "n1", "99", 98)).isFalse();
        assertThat(proven("120", ENDED, false, decided("n1", "success"), "n1", "99", -1)).isFalse();
        assertThat(proven("120", ENDED, false, decided("n1", "success"), "n1", "opaque", 99)).isFalse();
    }

    @Test
    void aLegacyLockNamesNoHolderToProveBy() {
        var legacy = new LockHistory(new NodeLock(LOCKED.atOffset(ZoneOffset.UTC), "", ""), "120");
        assertThat(proven("120", legacy, false, decided("n1", "success"), "n1", "99", 99)).isFalse();
    }

    @Test
    void theHistoryFollowsTenures() {
        var unknown = DecisionsSeen.LockHistory.UNKNOWN;
        assertThat(unknown.next("4", null, null, "5")).isEqualTo(new LockHistory(null, "5")); // free, tenures unknown
        var ended = new LockHistory(null, "5").next("5", null, H, "6").next("6", H, null, "7");
        assertThat(ended).isEqualTo(new LockHistory(H, "7"));
        // unrelated changes while free keep the holder whose tenure ended last
        assertThat(ended.next("7", null, null, "8")).isEqualTo(new LockHistory(H, "8"));
        // locked again (by the bind asking for the proof): the fact about version 7 stands
        assertThat(ended.next("7", null, H, "8")).isEqualTo(ended);
        // a change not seen (the history describes another version than the one before) proves nothing
        assertThat(ended.next("9", null, null, "10")).isEqualTo(new LockHistory(null, "10"));
    }
}
