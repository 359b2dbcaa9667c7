package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.client.ApiErrors;
import io.hami.kube.lock.LockOutcome;
import io.hami.kube.lock.NodeLockClient;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.UnixTimeCodec;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.FitInputs;
import io.hami.scheduler.extender.PodPlacement;
import io.hami.scheduler.fit.Placement;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.fit.ScoringWeights;
import io.hami.scheduler.gang.GangMembership;
import io.hami.scheduler.gang.GangWaits;
import io.hami.scheduler.usage.PodUsage;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bind (design D4, docs/design.md#d4): take the node lock, fit the pod again on that node against the usage index and
 * choose its devices, write the decision with one pod patch, reserve the usage, then bind. Any failure
 * releases the lock, undoes the reservation and returns the error to kube-scheduler. On success the lock
 * stays with the pod until its device plugins have allocated it. The steps are this class's; the lock's part is
 * {@link BindLock}'s, the check against earlier decisions {@link EarlierDecisions}', the API calls {@link PodCalls}'.
 */
public final class Binder {
    private static final Logger LOG = LoggerFactory.getLogger(Binder.class);

    /**
     * What a bind needs.
     *
     * @param fit      what the pod is fitted against again under the lock; its index takes the reservation
     * @param cluster  the API server, and what the scheduler has seen of it
     * @param leader   whether this replica binds
     * @param observer told of every bind, lock outcome and gang wait
     * @param gangs    where gang members ({@link GangMembership}) whose node lock is held wait for it, up to its bound,
     *                 instead of being refused at once ({@link GangWaits#off()}: never)
     */
    public record Inputs(
            FitInputs fit, Cluster cluster, BooleanSupplier leader, BindObserver observer, GangWaits gangs) {
        public Inputs {
            Objects.requireNonNull(fit, "fit");
            Objects.requireNonNull(cluster, "cluster");
            Objects.requireNonNull(leader, "leader");
            Objects.requireNonNull(observer, "observer");
            Objects.requireNonNull(gangs, "gangs");
        }
    }

    /**
     * The API server as a bind uses it.
     *
     * @param client    reads the pod, writes the decision and the binding
     * @param locks     the node locks, and the informers' copies of nodes and pods: a pod's copy stands in for reading
     *                  it (see {@code cachedPod})
     * @param clock     the decision's time and the lock's deadline
     * @param seen      the pod watch's horizon: tells when the index has every pod change up to a written decision, so
     *                  the decision is checked against the index instead of a LIST of the node's pods
     * @param abandoned marks a decision written but not bound failed
     */
    public record Cluster(
            KubernetesClient client,
            NodeLockClient locks,
            Clock clock,
            PodChangesSeen seen,
            AbandonedDecisions abandoned) {
        public Cluster {
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(locks, "locks");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(seen, "seen");
            Objects.requireNonNull(abandoned, "abandoned");
        }
    }

    private final FitInputs fit;
    private final BooleanSupplier leader;
    private final Clock clock;
    private final BindObserver observer;
    private final AbandonedDecisions abandoned;
    private final PodCalls pods;
    private final BindLock lock;
    private final EarlierDecisions earlier;
    private final NodeLockClient.Cached cache;
    /** Pods ({@code namespace/name}) with a bind in progress on this replica. */
    private final Set<String> inProgress = ConcurrentHashMap.newKeySet();
    /** One monitor per namespace with a quota: its binds are checked and reserved one at a time. */
    private final ConcurrentHashMap<String, Object> quotaLocks = new ConcurrentHashMap<>();

    public Binder(Inputs in) {
        this.fit = in.fit();
        this.leader = in.leader();
        this.clock = in.cluster().clock();
        this.observer = in.observer();
        this.abandoned = in.cluster().abandoned();
        this.pods = new PodCalls(in.cluster().client(), fit.backends());
        this.lock = new BindLock(in.cluster().locks(), in.gangs(), clock, observer);
        this.earlier = new EarlierDecisions(
                pods, fit.index(), fit.backends(), in.cluster().seen());
        this.cache = in.cluster().locks().cached();
    }

    public BindingResult bind(BindingArgs args) {
        long start = System.nanoTime();
        if (!leader.getAsBoolean()) {
            return new BindingResult("this hami scheduler is not the leader; retry against the leader");
        }
        if (blank(args.podName()) || blank(args.podNamespace()) || blank(args.node())) {
            return new BindingResult("binding args need PodName, PodNamespace and Node");
        }
        // kube-scheduler gives up on a bind after its httpTimeout and schedules the pod again, while the first bind may
        // still be running here: two decisions for one pod, on two nodes under two locks, would leave the pod bound
        // to one node with the devices of the other.
        String key = args.podNamespace() + "/" + args.podName();
        if (!inProgress.add(key)) {
            return fail(
                    null,
                    args.node(),
                    "pod " + key + " is being bound by an earlier call that has not finished; retry",
                    start);
        }
        try {
            BindingResult result = bindPod(args, start);
            if (!result.ok()) {
                // Contention is routine (kube-scheduler retries it); any other failure is one an operator may need.
                if (result.error().endsWith("node lock contention, retry later")) {
                    LOG.info("bind of {} to {} refused: {}", key, args.node(), result.error());
                } else {
                    LOG.warn("bind of {} to {} failed: {}", key, args.node(), result.error());
                }
            }
            return result;
        } finally {
            inProgress.remove(key);
        }
    }

    private BindingResult bindPod(BindingArgs args, long start) {
        String ns = args.podNamespace();
        String name = args.podName();
        String node = args.node();
        Pod seen = cachedPod(args);
        if (seen != null) {
            BindingResult result = bindPod(args, seen, seen.getMetadata().getResourceVersion(), start);
            if (result != null) {
                return result;
            }
            LOG.info(
                    "pod {}/{} changed after the informer's copy it was decided on; binding it on a fresh read",
                    ns,
                    name);
        }
        Pod pod;
        try {
            pod = pods.read(ns, name);
        } catch (KubernetesClientException e) {
            return fail(null, node, "read pod " + ns + "/" + name + ": " + ApiErrors.describe(e), start);
        }
        if (pod == null) {
            return fail(null, node, "pod " + ns + "/" + name + " not found", start);
        }
        return bindPod(args, pod, null, start);
    }

    /**
     * The pod as the scheduler's informer last saw it, when that can stand in for a read (one request less per bind):
     * the pod the call names, not bound, asking for devices. Its decision is written only if the pod is still that
     * version ({@code resourceVersion} as the patch's precondition); anything else is read from the API server.
     */
    private Pod cachedPod(BindingArgs args) {
        Pod seen = cache.pod().apply(args.podNamespace(), args.podName());
        if (seen == null
                || seen.getMetadata() == null
                || blank(seen.getMetadata().getResourceVersion())
                || seen.getSpec() == null
                || !blank(seen.getSpec().getNodeName())
                || (!blank(args.podUID())
                        && !args.podUID().equals(seen.getMetadata().getUid()))) {
            return null;
        }
        return fit.request(seen).isEmpty() ? null : seen;
    }

    /**
     * Binds {@code pod} as read: from the API server ({@code decidedOn} null), or the informer's copy at version
     * {@code decidedOn}.
     *
     * @return the answer, or null when the informer's copy turned out to be behind: nothing of this call is left
     *     (no lock, no reservation, no live decision) and the pod is to be read and bound again
     */
    private BindingResult bindPod(BindingArgs args, Pod pod, String decidedOn, long start) {
        String ns = args.podNamespace();
        String name = args.podName();
        String node = args.node();
        if (!blank(args.podUID()) && !args.podUID().equals(pod.getMetadata().getUid())) {
            return fail(
                    pod,
                    node,
                    "pod " + ns + "/" + name + " has UID " + pod.getMetadata().getUid() + ", binding asked for "
                            + args.podUID() + " (the pod was re-created)",
                    start);
        }
        String boundTo = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (!blank(boundTo)) {
            // A repeated bind whose first answer was lost (a timeout while the binding went through). Deciding again
            // would overwrite the devices of a pod that its node may already be allocating or running.
            if (boundTo.equals(node)) {
                return BindingResult.OK;
            }
            return fail(pod, node, "pod " + ns + "/" + name + " is already bound to node " + boundTo, start);
        }
        PodRequest request = fit.request(pod);
        if (request.isEmpty()) {
            try {
                pods.bind(pod, node);
                observer.bound(pod, node, since(start));
                return BindingResult.OK;
            } catch (KubernetesClientException e) {
                return fail(pod, node, "bind " + ns + "/" + name + " to " + node + ": " + ApiErrors.describe(e), start);
            }
        }

        BindLock.Taken taken = lock.take(pod, node);
        switch (taken.outcome()) {
            case LockOutcome.Contended c -> {
                return fail(pod, node, c.message(), start);
            }
            case LockOutcome.Failed f -> {
                return fail(pod, node, f.message(), start);
            }
            case LockOutcome.Acquired a -> {
                if (a.reentered()) {
                    BindingResult earlierDecision = completeEarlierDecision(ns, name, node, start);
                    if (earlierDecision != null) {
                        return earlierDecision;
                    }
                }
            }
        }
        if (!fit.quotas().limits(ns)) {
            return decideAndBind(pod, request, node, taken.at(), decidedOn, start);
        }
        // Nodes are locked one by one, a quota spans the namespace: its binds are serialised so that two pods
        // placed on different nodes at once cannot both take the last of it.
        synchronized (quotaLocks.computeIfAbsent(ns, k -> new Object())) {
            return decideAndBind(pod, request, node, taken.at(), decidedOn, start);
        }
    }

    /**
     * The pod already holds this node's lock: an earlier bind of it (on this replica or another, one that kube-scheduler
     * gave up on or whose replica stopped mid-bind) took it and may have written its decision, which the node's
     * plugin may already be serving. Deciding again would overwrite the devices the kubelet is being given, so an
     * earlier decision for this node is completed as it stands.
     *
     * @return the answer, or null when there is no earlier decision to complete
     */
    private BindingResult completeEarlierDecision(String ns, String name, String node, long start) {
        Pod now;
        try {
            now = pods.read(ns, name);
        } catch (KubernetesClientException e) {
            return fail(null, node, "read pod " + ns + "/" + name + ": " + ApiErrors.describe(e), start);
        }
        if (now == null) {
            return fail(null, node, "pod " + ns + "/" + name + " not found", start);
        }
        if (now.getSpec() != null && node.equals(now.getSpec().getNodeName())) {
            return BindingResult.OK;
        }
        var a = PodCalls.annotations(now);
        if (!ProtocolKeys.PHASE_ALLOCATING.equals(a.get(ProtocolKeys.BIND_PHASE))
                || !node.equals(a.get(ProtocolKeys.VGPU_NODE))) {
            return null; // no live decision for this node (none yet, or marked failed): decide as usual
        }
        try {
            pods.bind(now, node);
        } catch (KubernetesClientException e) {
            if (!pods.boundTo(ns, name, node)) {
                return fail(now, node, "bind " + ns + "/" + name + " to " + node + ": " + ApiErrors.describe(e), start);
            }
        }
        observer.bound(now, node, since(start));
        return BindingResult.OK;
    }

    /**
     * Under the node lock: fit again, write the decision, reserve it, bind; any failure undoes and releases. Null when
     * the decision's precondition {@code decidedOn} (the version of the informer's copy) failed: see {@link #bindPod}.
     */
    private BindingResult decideAndBind(
            Pod pod, PodRequest request, String node, Instant locked, String decidedOn, long start) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        String key = ns + "/" + name;
        PodUsage previous = null;
        String bindTime = null;
        Pod written = null;
        try {
            Placement.Placed placed = placeAgain(pod, key, request, node);
            lock.withinDecisionDeadline(node, locked);
            bindTime = UnixTimeCodec.encode(clock.instant());
            // a lost response may still have written it
            written = pods.writeDecision(pod, node, placed, bindTime, decidedOn);
            PodUsage ours = PodUsage.of(written, fit.backends());
            String writtenAt = written.getMetadata().getResourceVersion();
            previous = fit.index().putPod(key, ours, writtenAt);
            // The fence's read goes out now, after the decision, and is awaited after the check: one round trip less.
            BindLock.Fence fence = lock.fence(node, ns, name);
            earlier.check(node, key, ours, writtenAt);
            fence.held();
            pods.bind(written, node);
            observer.bound(pod, node, since(start));
            return BindingResult.OK;
        } catch (BindFailure | KubernetesClientException e) {
            // A conflict on the decision written on the informer's copy: the pod changed since that copy.
            boolean behind = written == null
                    && decidedOn != null
                    && e instanceof KubernetesClientException k
                    && k.getCode() == HttpURLConnection.HTTP_CONFLICT;
            if (!behind && e instanceof KubernetesClientException && pods.boundTo(ns, name, node)) {
                // The binding went through and only its response was lost.
                observer.bound(pod, node, since(start));
                return BindingResult.OK;
            }
            if (previous != null) {
                fit.index().putPod(key, previous);
            }
            if (bindTime != null) {
                // A decision that was (or may have been) written but not bound must not be served by a plugin. A
                // conflict too: fabric8 may have sent the patch again after a lost response to one that went through.
                abandoned.markFailed(ns, name, node, bindTime);
            }
            lock.release(node, ns, name);
            return behind ? null : fail(pod, node, e.getMessage(), start);
        }
    }

    private Placement.Placed placeAgain(Pod pod, String key, PodRequest request, String node) throws BindFailure {
        PodPlacement placement;
        try {
            placement = fit.placement(pod, request);
        } catch (ScoringWeights.InvalidWeightsException e) {
            throw new BindFailure(e.getMessage());
        }
        return switch (placement.on(fit.index().snapshot(node, key).orElse(null))) {
            case Placement.Placed p -> p;
            case Placement.Unplaced u -> throw new BindFailure(u.denial().bindError(node));
        };
    }

    private BindingResult fail(Pod pod, String node, String message, long start) {
        observer.bindFailed(pod, node, message, since(start));
        return new BindingResult(message);
    }

    static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
