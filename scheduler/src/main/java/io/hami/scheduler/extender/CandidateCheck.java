package io.hami.scheduler.extender;

import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.NodePlacement;
import io.hami.scheduler.fit.Placement;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.fit.QuickFit;
import io.hami.scheduler.usage.UsageIndex;
import java.util.Map;

/**
 * One pod's filter question, asked of one candidate node at a time (from any thread). Where the pod allows it,
 * a node is decided from its usage summary ({@link QuickFit}); otherwise by the full placement. Both give the
 * same answer.
 */
public final class CandidateCheck {
    private final UsageIndex index;
    private final DeviceBackends backends;
    private final PodRequest request;
    private final NodePlacement.Policy placement;
    private final Map<String, String> podAnnotations;
    private final Map<String, QuotaRoom> rooms;
    /** Null when the pod needs the full placement on every node. */
    private final QuickFit quick;

    CandidateCheck(UsageIndex index, DeviceBackends backends, PodRequest request, NodePlacement.Policy placement,
                   Map<String, String> podAnnotations, Map<String, QuotaRoom> rooms) {
        this.index = index;
        this.backends = backends;
        this.request = request;
        this.placement = placement;
        this.podAnnotations = Map.copyOf(podAnnotations);
        this.rooms = rooms;
        this.quick = QuickFit.of(request, backends, placement, this.podAnnotations, rooms);
    }

    /** Whether nodes are decided from their summaries (else by the full placement). */
    public boolean quick() {
        return quick != null;
    }

    /** Null when the pod fits on {@code node}, else the reason it does not. */
    public String whyNot(String node) {
        return whyNot(node, quick);
    }

    /** As {@link #whyNot}, always by the full placement: the reference the fast path is held to. */
    public String whyNotByPlacement(String node) {
        return whyNot(node, null);
    }

    private String whyNot(String node, QuickFit fit) {
        var snapshot = index.current(node);
        if (snapshot == null) {
            return Extender.UNREGISTERED;
        }
        if (!snapshot.failClosed().isEmpty()) {
            return "node fails closed: " + String.join("; ", snapshot.failClosed());
        }
        if (fit != null) {
            return fit.whyNot(snapshot.view(), snapshot.summary());
        }
        return switch (NodePlacement.place(request, snapshot.view(), backends, placement, podAnnotations, rooms)) {
            case Placement.Placed p -> null;
            case Placement.Unplaced u -> u.reason();
        };
    }
}
