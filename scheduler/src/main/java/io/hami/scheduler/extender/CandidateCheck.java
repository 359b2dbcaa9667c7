package io.hami.scheduler.extender;

import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.fit.Placement;
import io.hami.scheduler.fit.QuickFit;
import io.hami.scheduler.usage.UsageIndex;

/**
 * One pod's filter question, asked of one candidate node at a time (from any thread). Where the pod allows it,
 * a node is decided from its usage summary ({@link QuickFit}); otherwise by the full placement. Both give the
 * same answer.
 */
public final class CandidateCheck {
    private final UsageIndex index;
    private final PodPlacement placement;
    /** Null when the pod needs the full placement on every node. */
    private final QuickFit quick;

    CandidateCheck(UsageIndex index, PodPlacement placement) {
        this.index = index;
        this.placement = placement;
        this.quick = QuickFit.of(
                placement.request(),
                placement.backends(),
                placement.policy(),
                placement.podAnnotations(),
                placement.rooms());
    }

    /** Whether nodes are decided from their summaries (else by the full placement). */
    public boolean quick() {
        return quick != null;
    }

    /** Null when the pod fits on {@code node}, else why it does not. */
    public Denial whyNot(String node) {
        if (quick == null) {
            return whyNotByPlacement(node);
        }
        return whyNot(index.current(node));
    }

    /**
     * Null when the pod fits on the node {@code snapshot} describes (null: a node the index does not know), else why
     * it does not.
     */
    public Denial whyNot(UsageIndex.NodeSnapshot snapshot) {
        if (quick == null || snapshot == null || !snapshot.failClosed().isEmpty() || snapshot.noDevices()) {
            return whyNot(placement.on(snapshot));
        }
        return quick.whyNot(snapshot.view(), snapshot.summary());
    }

    /** As {@link #whyNot}, always by the full placement: the reference the fast path is held to. */
    public Denial whyNotByPlacement(String node) {
        return whyNot(placement.on(index.current(node)));
    }

    private static Denial whyNot(Placement placement) {
        return switch (placement) {
            case Placement.Placed p -> null;
            case Placement.Unplaced u -> u.denial();
        };
    }
}
