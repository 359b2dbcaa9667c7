package io.hami.scheduler.cluster;

import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLock;
import java.util.Map;

/**
 * Whether the usage index already holds every decision written for a node before a bind took its free lock, so that
 * the bind may fit from the index instead of listing the node's pods.
 *
 * <p>Decisions for a node are written one lock tenure after another. A pod is bound to the node within its tenure
 * (the fence) and, once bound, never takes that lock again; so when the pod watch has delivered the last holder
 * bound to this node, it has delivered every earlier tenure's decision too (the watch hands events over in
 * resourceVersion order, and the index records each before the next). The node watch must have seen that holder's
 * tenure end and nothing happen to the lock since, up to the very node version the bind's lock was written over. A
 * list in progress hands objects over in any order, so nothing is proven then. Anything less (a holder not bound,
 * its decision failed, its pod gone, a relist, a takeover) falls back to the LIST. A decision's time is no proof: a
 * holder may have decided in an earlier tenure within the same second.
 */
public final class DecisionsSeen {
    private DecisionsSeen() {
    }

    /**
     * What the node watch knows of a node's lock: at node version {@code asOf} the node carried no lock, and the last
     * tenure to end before it was {@code lastHolder}'s (null when a list hid the tenures). A fact about one version,
     * so it stays true when the node is locked again; the next unlocked version replaces it.
     */
    public record LockHistory(NodeLock lastHolder, String asOf) {
        static final LockHistory UNKNOWN = new LockHistory(null, null);

        /** The history after the watch saw the node go from version {@code from} ({@code before}) to {@code after} at {@code version}. */
        LockHistory next(String from, NodeLock before, NodeLock after, String version) {
            if (after != null) {
                return this; // locked: the last unlocked version is still what it was
            }
            if (before != null) {
                return new LockHistory(before, version);
            }
            // unlocked before and after: the same tenure ended last, if this history described the version before
            return new LockHistory(from != null && from.equals(asOf) ? lastHolder : null, version);
        }
    }

    /**
     * The proof. {@code freeAt} is the resourceVersion of the unlocked node the bind's lock was written over;
     * {@code holderAnnotations}, {@code holderNode} and {@code holderVersion} describe the last holder's pod as the pod
     * watch last delivered it (null when not known); {@code recordedVersion} is the highest resourceVersion of that pod
     * the index has recorded (-1 when none).
     */
    public static boolean proven(String node, String freeAt, LockHistory history, boolean podsListing,
                                 Map<String, String> holderAnnotations, String holderNode, String holderVersion,
                                 long recordedVersion) {
        if (freeAt == null || history == null || history.lastHolder() == null || !freeAt.equals(history.asOf())
                || podsListing || holderAnnotations == null || holderVersion == null) {
            return false;
        }
        if (history.lastHolder().isLegacy() || !node.equals(holderNode)
                || !node.equals(holderAnnotations.get(ProtocolKeys.VGPU_NODE))) {
            return false;
        }
        String phase = holderAnnotations.get(ProtocolKeys.BIND_PHASE);
        if (!ProtocolKeys.PHASE_ALLOCATING.equals(phase) && !ProtocolKeys.PHASE_SUCCESS.equals(phase)) {
            return false; // bound after its decision was failed: its binding may have come after a later tenure
        }
        try {
            return recordedVersion >= 0 && recordedVersion >= Long.parseLong(holderVersion);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
