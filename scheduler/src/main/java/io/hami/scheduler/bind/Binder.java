package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.client.ApiErrors;
import io.hami.kube.lock.LockOutcome;
import io.hami.kube.lock.NodeLockClient;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.kube.patch.MergePatches;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.codec.UnixTimeCodec;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.PodPlacement;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.fit.Placement;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.fit.ScoringWeights;
import io.hami.scheduler.gang.GangMembership;
import io.hami.scheduler.gang.GangWaits;
import io.hami.scheduler.gang.NodeLockQueue;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bind (design D4, docs/design.md#d4): take the node lock, fit the pod again on that node against the usage index and
 * choose its devices, write the decision with one pod patch, reserve the usage, then bind. Any failure
 * releases the lock, undoes the reservation and returns the error to kube-scheduler. On success the lock
 * stays with the pod until its device plugins have allocated it.
 */
public final class Binder {
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final Logger LOG = LoggerFactory.getLogger(Binder.class);
    /**
     * How long a bind waits for the pod watch to hand back its own decision before it lists the node's pods instead:
     * a watch that is current does it in milliseconds; one behind a burst of pod changes (the lab's start) may take
     * seconds, which a LIST answers sooner.
     */
    static final Duration DECISION_ECHO_WAIT = Duration.ofSeconds(1);

    private final KubernetesClient client;
    private final NodeLockClient locks;
    private final UsageIndex index;
    private final DeviceBackends backends;
    private final SchedulingPolicy policy;
    private final BooleanSupplier leader;
    private final Clock clock;
    private final BindObserver observer;
    private final AbandonedDecisions abandoned;
    private final QuotaBook quotas;
    private final PodChangesSeen seen;
    private final GangWaits gangs;
    /** Pods ({@code namespace/name}) with a bind in progress on this replica. */
    private final Set<String> inProgress = ConcurrentHashMap.newKeySet();
    /** One monitor per namespace with a quota: its binds are checked and reserved one at a time. */
    private final ConcurrentHashMap<String, Object> quotaLocks = new ConcurrentHashMap<>();

    /**
     * {@code seen} (the pod watch's horizon) tells when the index has every pod change up to a written decision, so
     * the decision is checked against the index instead of a LIST of the node's pods. Gang members
     * ({@link GangMembership}) whose node lock is held wait for it in {@code gangs}' line for that node, up to its
     * bound, instead of being refused at once ({@link GangWaits#off()}: never).
     */
    public Binder(
            KubernetesClient client,
            NodeLockClient locks,
            UsageIndex index,
            QuotaBook quotas,
            DeviceBackends backends,
            SchedulingPolicy policy,
            BooleanSupplier leader,
            Clock clock,
            BindObserver observer,
            AbandonedDecisions abandoned,
            PodChangesSeen seen,
            GangWaits gangs) {
        this.seen = Objects.requireNonNull(seen, "seen");
        this.gangs = Objects.requireNonNull(gangs, "gangs");
        this.client = client;
        this.locks = locks;
        this.index = index;
        this.backends = backends;
        this.policy = policy;
        this.leader = leader;
        this.clock = clock;
        this.observer = observer;
        this.abandoned = abandoned;
        this.quotas = quotas;
    }

    /** A bind step that failed; the message goes back to kube-scheduler. */
    private static final class BindFailure extends Exception {
        BindFailure(String message) {
            super(message);
        }
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
        Pod pod;
        try {
            pod = client.pods().inNamespace(ns).withName(name).get();
        } catch (KubernetesClientException e) {
            return fail(null, node, "read pod " + ns + "/" + name + ": " + ApiErrors.describe(e), start);
        }
        if (pod == null) {
            return fail(null, node, "pod " + ns + "/" + name + " not found", start);
        }
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
        PodRequest request = PodRequest.of(pod, backends);
        if (request.isEmpty()) {
            try {
                postBinding(pod, node);
                observer.bound(pod, node, since(start));
                return BindingResult.OK;
            } catch (KubernetesClientException e) {
                return fail(pod, node, "bind " + ns + "/" + name + " to " + node + ": " + ApiErrors.describe(e), start);
            }
        }

        Taken taken = takeLock(pod, node);
        LockOutcome lock = taken.outcome();
        Instant locked = taken.at();
        switch (lock) {
            case LockOutcome.Contended c -> {
                return fail(pod, node, c.message(), start);
            }
            case LockOutcome.Failed f -> {
                return fail(pod, node, f.message(), start);
            }
            case LockOutcome.Acquired a -> {
                if (a.reentered()) {
                    BindingResult earlier = completeEarlierDecision(ns, name, node, start);
                    if (earlier != null) {
                        return earlier;
                    }
                }
            }
        }
        if (!quotas.limits(ns)) {
            return decideAndBind(pod, request, node, locked, start);
        }
        // Nodes are locked one by one, a quota spans the namespace: its binds are serialised so that two pods
        // placed on different nodes at once cannot both take the last of it.
        synchronized (quotaLocks.computeIfAbsent(ns, k -> new Object())) {
            return decideAndBind(pod, request, node, locked, start);
        }
    }

    /**
     * Asks for the node lock once; a gang member that finds it held waits in the node's line (design D5's one exception
     * to answering contention at once, bounded by {@code --gang-lock-wait}, well inside kube-scheduler's httpTimeout):
     * members of one group placed on one node would otherwise all but one be refused and backed off for seconds to
     * minutes. A newcomer queues behind those already waiting rather than try first, so the line keeps arrival order.
     */
    private Taken takeLock(Pod pod, String node) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        boolean gang = gangs.on() && GangMembership.group(pod).isPresent();
        NodeLockQueue line = gangs.queue();
        if (!gang || !line.waiting(node)) {
            long lockStart = System.nanoTime();
            LockOutcome first = locks.acquire(node, ns, name);
            if (!gang || !(first instanceof LockOutcome.Contended)) {
                Instant at = clock.instant(); // before the observers: the decision deadline counts from here
                observer.lock(node, first, since(lockStart));
                return new Taken(first, at);
            }
        }
        // Only the outcome the bind answers with is reported to observer.lock: a try that a later one in the same
        // bind made good was no refusal.
        long waitStart = System.nanoTime();
        long deadline = waitStart + gangs.maxWait().toNanos();
        LockOutcome last = null;
        long lastTook = 0;
        NodeLockQueue.Ticket ticket = line.join(node);
        try {
            while (line.awaitTurn(ticket, deadline)) {
                long tryStart = System.nanoTime();
                last = locks.acquire(node, ns, name);
                lastTook = System.nanoTime() - tryStart;
                if (!(last instanceof LockOutcome.Contended)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server is stopping: answer what we have
        } finally {
            line.leave(ticket);
        }
        if (last == null) {
            // Its turn never came within the bound: one last look rather than invent an answer.
            long tryStart = System.nanoTime();
            last = locks.acquire(node, ns, name);
            lastTook = System.nanoTime() - tryStart;
        }
        Instant at = clock.instant();
        observer.lock(node, last, Duration.ofNanos(lastTook));
        observer.gangWaited(node, last, since(waitStart));
        return new Taken(last, at);
    }

    /** What asking for the lock ended with, and when. */
    private record Taken(LockOutcome outcome, Instant at) {}

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
            now = client.pods().inNamespace(ns).withName(name).get();
        } catch (KubernetesClientException e) {
            return fail(null, node, "read pod " + ns + "/" + name + ": " + ApiErrors.describe(e), start);
        }
        if (now == null) {
            return fail(null, node, "pod " + ns + "/" + name + " not found", start);
        }
        if (now.getSpec() != null && node.equals(now.getSpec().getNodeName())) {
            return BindingResult.OK;
        }
        var a = annotations(now);
        if (!ProtocolKeys.PHASE_ALLOCATING.equals(a.get(ProtocolKeys.BIND_PHASE))
                || !node.equals(a.get(ProtocolKeys.VGPU_NODE))) {
            return null; // no live decision for this node (none yet, or marked failed): decide as usual
        }
        try {
            postBinding(now, node);
        } catch (KubernetesClientException e) {
            if (!boundTo(ns, name, node)) {
                return fail(now, node, "bind " + ns + "/" + name + " to " + node + ": " + ApiErrors.describe(e), start);
            }
        }
        observer.bound(now, node, since(start));
        return BindingResult.OK;
    }

    /**
     * Under the node lock: fit again, write the decision, reserve it, bind; any failure undoes and releases. The lock
     * holds against other binds for the bind window only while no decision is written, so a bind that took half of
     * it before writing (a slow API server, a long wait for the quota) gives up rather than race the next taker.
     */
    private BindingResult decideAndBind(Pod pod, PodRequest request, String node, Instant locked, long start) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        String key = ns + "/" + name;
        PodUsage previous = null;
        String bindTime = null;
        try {
            Placement.Placed placed = placeAgain(pod, key, request, node);
            withinDecisionDeadline(node, locked);
            bindTime = UnixTimeCodec.encode(clock.instant());
            Pod written = patchDecision(pod, node, placed, bindTime); // a lost response may still have written it
            PodUsage ours = PodUsage.of(written, backends);
            previous = index.putPod(key, ours, written.getMetadata().getResourceVersion());
            checkAgainstEarlierDecisions(node, key, ours, written.getMetadata().getResourceVersion());
            fence(node, ns, name);
            postBinding(written, node);
            observer.bound(pod, node, since(start));
            return BindingResult.OK;
        } catch (BindFailure | KubernetesClientException e) {
            if (e instanceof KubernetesClientException && boundTo(ns, name, node)) {
                // The binding went through and only its response was lost.
                observer.bound(pod, node, since(start));
                return BindingResult.OK;
            }
            if (previous != null) {
                index.putPod(key, previous);
            }
            if (bindTime != null) {
                // A decision that was (or may have been) written but not bound must not be served by a plugin.
                abandoned.markFailed(ns, name, node, bindTime);
            }
            release(node, ns, name);
            return fail(pod, node, e.getMessage(), start);
        }
    }

    /**
     * Reads the node's decided pods from the API server into the index, for a bind whose pod watch has not handed back
     * its decision in time: the index then holds every decision written before ours, another replica's whose patch
     * our informer has not delivered yet included. Every decision (ours and upstream's) carries the {@code hami.io/vgpu-node}
     * label in the same write, bound or not, so one label LIST finds them all; pods bound there without the label have
     * no decision a replica could have raced, and the informer has them.
     */
    private void catchUp(String node) {
        for (Pod p : decidedFor(node)) {
            index.putPod(
                    p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(),
                    PodUsage.of(p, backends),
                    p.getMetadata().getResourceVersion());
        }
    }

    /**
     * Pods with a decision for {@code node}: by the {@code hami.io/vgpu-node} label, or, for a node whose name cannot
     * be a label value (longer than 63 characters, which a node name may be, so its decisions carry no label), among
     * the pods not bound yet and those bound there.
     */
    private List<Pod> decidedFor(String node) {
        if (isLabelValue(node)) {
            return client.pods()
                    .inAnyNamespace()
                    .withLabel(ProtocolKeys.VGPU_NODE, node)
                    .list()
                    .getItems();
        }
        var decided = new ArrayList<Pod>();
        for (Pod p : client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", "")
                .list()
                .getItems()) {
            if (node.equals(annotations(p).get(ProtocolKeys.VGPU_NODE))) {
                decided.add(p);
            }
        }
        decided.addAll(client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .list()
                .getItems());
        return decided;
    }

    /**
     * The decision was fitted on the index as it stood, which may lack a decision another replica wrote just before
     * (a leader that lost its lease mid-bind). Every such decision was written before ours, so it has a lower
     * resourceVersion: once the pod watch has handed over every change up to ours, the index holds it, and ours is
     * checked against it. A watch that does not get there in time (relisting, cut off) is replaced by a LIST of the
     * node's decided pods. Of two decisions that collide, the later-written one sees the other and gives up.
     */
    private void checkAgainstEarlierDecisions(String node, String key, PodUsage ours, String writtenAt)
            throws BindFailure {
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

    /** Whether the API server accepts {@code value} as a label value (and in a label selector). */
    static boolean isLabelValue(String value) {
        return value.length() <= 63 && LABEL_VALUE.matcher(value).matches();
    }

    private void withinDecisionDeadline(String node, Instant locked) throws BindFailure {
        Duration deadline = locks.timeouts().bindWindow().dividedBy(2);
        Duration took = Duration.between(locked, clock.instant());
        if (took.compareTo(deadline) > 0) {
            throw new BindFailure("bind on node " + node + " had not written its decision " + took.toSeconds()
                    + " s after taking the node lock (limit " + deadline.toSeconds()
                    + " s, half the lock's bind window); retry");
        }
    }

    /**
     * After the decision is written, checks the lock is still ours. A bind slower than the lock timeout (a
     * pause, a replica cut off mid-bind) may have lost it to a bind that did not see this decision; it must
     * then not go on. Any bind that takes the lock after this check writes its decision after ours, so it checks
     * against ours.
     */
    private void fence(String node, String ns, String name) throws BindFailure {
        var lock = locks.current(node);
        if (lock == null || !lock.isHeldBy(ns, name)) {
            throw new BindFailure("lost the lock of node " + node + " while binding (it expired"
                    + (lock == null ? "" : " and is now held by " + lock.namespace() + "/" + lock.name()) + "); retry");
        }
    }

    private Placement.Placed placeAgain(Pod pod, String key, PodRequest request, String node) throws BindFailure {
        PodPlacement placement;
        try {
            placement = PodPlacement.of(pod, request, backends, policy, quotas);
        } catch (ScoringWeights.InvalidWeightsException e) {
            throw new BindFailure(e.getMessage());
        }
        return switch (placement.on(index.snapshot(node, key).orElse(null))) {
            case Placement.Placed p -> p;
            case Placement.Unplaced u -> throw new BindFailure(u.denial().bindError(node));
        };
    }

    /** One merge patch carrying the whole decision (design D4). Stale keys of vendors not chosen are removed. */
    private Pod patchDecision(Pod pod, String node, Placement.Placed placed, String now) {
        Map<String, String> set = new HashMap<>();
        set.put(ProtocolKeys.VGPU_NODE, node);
        set.put(ProtocolKeys.VGPU_TIME, now);
        set.put(ProtocolKeys.BIND_TIME, now);
        set.put(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING);
        Map<String, String> existing = annotations(pod);
        for (DeviceBackend b : backends.all()) {
            var devices = placed.devices().get(b.vendor());
            String value = devices == null ? null : PodDevicesCodec.encode(devices);
            if (value != null || existing.containsKey(b.keys().toAllocateKey())) {
                set.put(b.keys().toAllocateKey(), value);
            }
            if (value != null || existing.containsKey(b.keys().allocatedKey())) {
                set.put(b.keys().allocatedKey(), value);
            }
        }
        // The label (upstream's too, for the plugins' informers) needs a node name that is a valid label value; for a
        // longer one any label of an earlier decision is removed rather than the whole patch refused.
        Map<String, String> labels = new HashMap<>();
        labels.put(ProtocolKeys.VGPU_NODE, isLabelValue(node) ? node : null);
        String patch = AnnotationPatch.mergePatch(set, labels, null);
        return MergePatches.pod(
                client, pod.getMetadata().getNamespace(), pod.getMetadata().getName(), patch);
    }

    /**
     * {@code POST pods/{name}/binding} (RBAC {@code pods/binding}), as kube-scheduler binds; fabric8 has no DSL for
     * this subresource, and the namespaced {@code bindings} collection is deprecated.
     */
    private void postBinding(Pod pod, String node) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        Binding binding = new BindingBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withUid(pod.getMetadata().getUid())
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .endTarget()
                .build();
        client.raw("/api/v1/namespaces/" + ns + "/pods/" + name + "/binding", "POST", binding);
    }

    private boolean boundTo(String ns, String name, String node) {
        try {
            Pod now = client.pods().inNamespace(ns).withName(name).get();
            return now != null
                    && now.getSpec() != null
                    && node.equals(now.getSpec().getNodeName());
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    private void release(String node, String ns, String name) {
        try {
            locks.release(node, ns, name);
        } catch (KubernetesClientException e) {
            // The holder is no longer allocating, so the next bind on this node recovers the lock.
            LOG.warn("node {}: releasing lock of {}/{} failed: {}", node, ns, name, ApiErrors.describe(e));
        }
    }

    private BindingResult fail(Pod pod, String node, String message, long start) {
        observer.bindFailed(pod, node, message, since(start));
        return new BindingResult(message);
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private static Map<String, String> annotations(Pod pod) {
        return pod.getMetadata().getAnnotations() == null
                ? Map.of()
                : pod.getMetadata().getAnnotations();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
