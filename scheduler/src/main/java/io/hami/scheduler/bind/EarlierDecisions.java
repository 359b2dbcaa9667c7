package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a written decision against every decision written before it. The decision was fitted on the index as it
 * stood, which may lack a decision another replica wrote just before (a leader that lost its lease mid-bind). Every
 * such decision was written before ours, so it has a lower resourceVersion: once the pod watch has handed over every
 * change up to ours, the index holds it, and ours is checked against it. A watch that does not get there in time
 * (relisting, cut off) is replaced by a LIST of the node's decided pods. Of two decisions that collide, the
 * later-written one sees the other and gives up.
 */
final class EarlierDecisions {
    private static final Logger LOG = LoggerFactory.getLogger(EarlierDecisions.class);
    /**
     * How long a bind waits for the pod watch to hand back its own decision before it lists the node's pods instead:
     * a watch that is current does it in milliseconds; one behind a burst of pod changes (the lab's start) may take
     * seconds, which a LIST answers sooner.
     */
    static final Duration DECISION_ECHO_WAIT = Duration.ofSeconds(1);

    private final PodCalls pods;
    private final UsageIndex index;
    private final DeviceBackends backends;
    private final PodChangesSeen seen;

    EarlierDecisions(PodCalls pods, UsageIndex index, DeviceBackends backends, PodChangesSeen seen) {
        this.pods = pods;
        this.index = index;
        this.backends = backends;
        this.seen = seen;
    }

    /** Fails when {@code ours}, written at resourceVersion {@code writtenAt} for pod {@code key}, collides. */
    void check(String node, String key, PodUsage ours, String writtenAt) throws BindFailure {
        if (!seen.reached(writtenAt, DECISION_ECHO_WAIT)) {
            LOG.info(
                    "node {}: the pod watch had not handed back the decision of {} (resourceVersion {}) within {} ms;"
                            + " listing the node's decided pods instead",
                    node,
                    key,
                    writtenAt,
                    DECISION_ECHO_WAIT.toMillis());
            catchUp(node);
        }
        if (!(ours instanceof PodUsage.Counted counted)) {
            throw new BindFailure("the decision written for pod " + key + " on node " + node
                    + " does not read back as an allocation; retry");
        }
        var others = index.snapshot(node, key).orElseThrow(() -> new BindFailure(Denial.UNREGISTERED.bindError(node)));
        String conflict = DecisionConflict.find(others.view(), counted.grants());
        if (conflict != null) {
            throw new BindFailure("another decision took the room first (" + conflict + "); retry");
        }
    }

    /**
     * Reads the node's decided pods from the API server into the index: the index then holds every decision written
     * before ours, another replica's whose patch our informer has not delivered yet included. Every decision (ours and
     * upstream's) carries the {@code hami.io/vgpu-node} label in the same write, bound or not, so one label LIST finds
     * them all; pods bound there without the label have no decision a replica could have raced, and the informer has
     * them.
     */
    private void catchUp(String node) {
        for (Pod p : pods.decidedFor(node)) {
            index.putPod(
                    p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(),
                    PodUsage.of(p, backends),
                    p.getMetadata().getResourceVersion());
        }
    }
}
