package io.hami.scheduler.requeue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.client.ApiErrors;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.kube.patch.MergePatches;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.bind.AbandonedDecisions.Timer;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pending pods retried when devices free (upstream #1368). kube-scheduler keeps a pod our filter rejected in its
 * unschedulable pool under the pseudo-plugin "Extender", which any cluster event moves back; the event of a pod
 * ending may reach kube-scheduler before our index has the release, and its retry is then rejected again and waits
 * for the next event, up to kube-scheduler's five-minute flush. So the leader remembers the pods filter found
 * unschedulable on every node, and once the index has released devices of a vendor it merge-patches each pod waiting
 * for that vendor with {@code hami.io/requeue-after-release: <RFC 3339 time of the release>}: an update of the pod,
 * which kube-scheduler answers by moving it out of the pool (after its backoff).
 *
 * <p>Releases within {@link #COALESCE} make one burst of at most {@link #PATCHES_PER_BURST} patches (longest waiting
 * first); a failed patch is logged and not retried (the next release nudges the pod again), a pod deleted meanwhile
 * is forgotten. Pods are forgotten once bound (they hold devices), deleted or found to fit; at most
 * {@link #REMEMBERED} are kept.
 */
public final class Requeue implements FilterObserver, UsageIndex.PodListener {
    private static final Logger LOG = LoggerFactory.getLogger(Requeue.class);
    /** Releases closer together than this make one burst of patches (a node draining, a gang ending). */
    public static final Duration COALESCE = Duration.ofMillis(200);
    /** Patches per burst: more waiting pods than a release can take wait for the next release or the flush. */
    public static final int PATCHES_PER_BURST = 100;
    /** Waiting pods remembered. */
    public static final int REMEMBERED = 10_000;

    /** Writes the nudge on one pod; throws the API server's answer when it fails. */
    @FunctionalInterface
    public interface Patcher {
        void patch(String namespace, String name, String releasedAt);

        /** A JSON merge patch of the annotation only, addressed by name (no read first). */
        static Patcher of(KubernetesClient client) {
            return (namespace, name, releasedAt) -> {
                var unused = MergePatches.pod(
                        client,
                        namespace,
                        name,
                        AnnotationPatch.mergePatch(
                                Map.of(ProtocolKeys.REQUEUE_AFTER_RELEASE, releasedAt), Map.of(), null));
            };
        }
    }

    private final DeviceBackends backends;
    private final Patcher patcher;
    private final Timer timer;
    private final BooleanSupplier leader;
    private final Clock clock;
    private final Runnable nudged;
    private final int perBurst;

    /** Guarded by {@code this}. */
    private final WaitingPods waiting;
    /** Vendors released since the last burst, guarded by {@code this}. */
    private final Set<String> released = new TreeSet<>();
    /** The latest release of the coming burst, guarded by {@code this}; null when none is due. */
    private Instant releasedAt;
    /** Bursts run to their end, whatever they patched (tests wait on it rather than on the clock). */
    private final AtomicLong bursts = new AtomicLong();

    /**
     * @param leader whether this replica leads: only the leader patches
     * @param nudged told of each pod patched (the metric)
     */
    public Requeue(
            DeviceBackends backends,
            Patcher patcher,
            Timer timer,
            BooleanSupplier leader,
            Clock clock,
            Runnable nudged,
            int perBurst,
            int remembered) {
        this.backends = backends;
        this.patcher = patcher;
        this.timer = timer;
        this.leader = leader;
        this.clock = clock;
        this.nudged = nudged;
        this.perBurst = perBurst;
        this.waiting = new WaitingPods(remembered);
    }

    public Requeue(
            DeviceBackends backends,
            Patcher patcher,
            Timer timer,
            BooleanSupplier leader,
            Clock clock,
            Runnable nudged) {
        this(backends, patcher, timer, leader, clock, nudged, PATCHES_PER_BURST, REMEMBERED);
    }

    /** The annotation's value for a release at {@code at}: RFC 3339 in UTC, to the millisecond. */
    public static String stamp(Instant at) {
        return at.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    @Override
    public void filtered(Pod pod, List<String> fitting, Map<String, Denial> failed, Duration took) {
        var meta = pod.getMetadata();
        if (meta == null || meta.getName() == null) {
            return;
        }
        String namespace = meta.getNamespace() == null ? "default" : meta.getNamespace();
        if (!fitting.isEmpty()) {
            synchronized (this) {
                waiting.forget(namespace + "/" + meta.getName());
            }
            return;
        }
        PodRequest request = PodRequest.of(pod, backends);
        if (request.refusal() != null) {
            return; // fits no node whatever is released
        }
        synchronized (this) {
            waiting.unschedulable(new WaitingPods.Waiting(namespace, meta.getName(), request.vendors()));
        }
    }

    @Override
    public void changed(String key, PodUsage before, PodUsage after, boolean gone) {
        Set<String> vendors = Releases.of(before, after);
        synchronized (this) {
            if (gone || !(after instanceof PodUsage.NotCounted)) {
                waiting.forget(key); // deleted, or holds (or reserves) devices: no longer waiting
            }
            if (vendors.isEmpty()) {
                return;
            }
            released.addAll(vendors);
            boolean due = releasedAt != null;
            releasedAt = clock.instant();
            if (due) {
                return; // joins the burst already due
            }
        }
        try {
            timer.schedule(this::burst, COALESCE);
        } catch (RuntimeException e) { // a closed timer: the scheduler is stopping
            LOG.debug("requeue burst not scheduled", e);
        }
    }

    /** Nudges the pods waiting for the vendors released since the last burst. */
    void burst() {
        try {
            nudge();
        } finally {
            bursts.incrementAndGet();
        }
    }

    private void nudge() {
        List<WaitingPods.Waiting> chosen;
        String at;
        Set<String> vendors;
        int waitingFor;
        synchronized (this) {
            if (releasedAt == null) {
                return;
            }
            at = stamp(releasedAt);
            vendors = Set.copyOf(released);
            released.clear();
            releasedAt = null;
            if (!leader.getAsBoolean()) {
                return;
            }
            waitingFor = waiting.waitingFor(vendors);
            chosen = waiting.nudge(vendors, perBurst);
        }
        if (waitingFor > chosen.size()) {
            LOG.info(
                    "{} pods wait for {} devices released at {}; nudging the {} that waited longest",
                    waitingFor,
                    vendors,
                    at,
                    chosen.size());
        }
        for (var pod : chosen) {
            try {
                patcher.patch(pod.namespace(), pod.name(), at);
                nudged.run();
                LOG.debug("nudged pending pod {} after {} devices were released at {}", pod.key(), vendors, at);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    forget(pod.key()); // deleted meanwhile
                } else {
                    LOG.warn(
                            "could not nudge pending pod {} after {} devices were released: {}",
                            pod.key(),
                            vendors,
                            ApiErrors.describe(e));
                }
            } catch (RuntimeException e) {
                LOG.warn("could not nudge pending pod {} after {} devices were released", pod.key(), vendors, e);
            }
        }
    }

    private synchronized void forget(String key) {
        waiting.forget(key);
    }

    /** How many bursts have run to their end, every patch of theirs written or failed (tests, diagnostics). */
    public long bursts() {
        return bursts.get();
    }

    /** The waiting pods in nudge order (tests, diagnostics). */
    public synchronized Map<String, WaitingPods.Waiting> waiting() {
        return waiting.view();
    }
}
