package io.hami.kube.lock;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.client.ApiErrors;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.kube.patch.MergePatches;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node lock of design D5 (docs/design.md#d5) against the API server: one annotation per node, written and
 * removed only with a resourceVersion compare-and-swap, released only by its holder. Contention is answered at once
 * (no waiting), so a kube-scheduler HTTP call is never held up; conflicts (409) are retried a few times.
 */
public final class NodeLockClient {
    private static final Logger LOG = LoggerFactory.getLogger(NodeLockClient.class);
    /** Attempts when a write loses a compare-and-swap race. */
    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;
    private final LockTimeouts timeouts;
    private final Clock clock;
    private final Cached cached;

    /**
     * Nodes and pods as the caller's informers last saw them (null: not known). They may lag the API server, so they
     * only save reads: a lock is written from a cached node only with that node's resourceVersion as precondition, and
     * a cached holder only ever answers contention, never hands the lock over.
     */
    public record Cached(Function<String, Node> node, BiFunction<String, String, Pod> pod) {
        public static final Cached NONE = new Cached(name -> null, (namespace, name) -> null);

        public Cached {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(pod, "pod");
        }
    }

    /** {@code timeout} is the allocation timeout; the bind window is {@link LockTimeouts#of}'s. */
    public NodeLockClient(KubernetesClient client, Duration timeout, Clock clock) {
        this(client, LockTimeouts.of(Objects.requireNonNull(timeout)), clock);
    }

    /** As {@link #NodeLockClient(KubernetesClient, Duration, Clock)}, saving reads through {@code cached}. */
    public NodeLockClient(KubernetesClient client, Duration timeout, Clock clock, Cached cached) {
        this(client, LockTimeouts.of(Objects.requireNonNull(timeout)), clock, cached);
    }

    public NodeLockClient(KubernetesClient client, LockTimeouts timeouts, Clock clock) {
        this(client, timeouts, clock, Cached.NONE);
    }

    public NodeLockClient(KubernetesClient client, LockTimeouts timeouts, Clock clock, Cached cached) {
        this.client = Objects.requireNonNull(client);
        this.timeouts = Objects.requireNonNull(timeouts);
        this.clock = Objects.requireNonNull(clock);
        this.cached = Objects.requireNonNull(cached);
    }

    public LockTimeouts timeouts() {
        return timeouts;
    }

    /** The informers' nodes and pods this client saves reads with. */
    public Cached cached() {
        return cached;
    }

    /** Takes the lock of {@code node} for pod {@code namespace/pod}. */
    public LockOutcome acquire(String node, String namespace, String pod) {
        String lastError = "compare-and-swap lost " + ATTEMPTS + " times";
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                // First from the cache: a node it shows unlocked is written with its resourceVersion as precondition,
                // which proves it current; a fresh lock whose cached holder must be waited for answers contention.
                Node n = attempt == 1 ? cachedUnlocked(node) : null;
                if (n == null && attempt == 1) {
                    NodeLock held = cachedContention(node, namespace, pod);
                    if (held != null) {
                        return new LockOutcome.Contended(node, held);
                    }
                }
                if (n == null) {
                    n = client.nodes().withName(node).get();
                }
                if (n == null) {
                    return new LockOutcome.Failed(node, "node " + node + " not found");
                }
                String value = annotations(n.getMetadata().getAnnotations()).get(ProtocolKeys.NODE_LOCK);
                NodeLock current = parse(node, value);
                HolderState holder = HolderState.GONE;
                if (current != null && !current.isLegacy() && !current.isHeldBy(namespace, pod)) {
                    if (waitsByCache(node, current, namespace, pod)) {
                        return new LockOutcome.Contended(node, current);
                    }
                    holder = holderState(node, current);
                }
                var decision = LockRules.decide(current, namespace, pod, holder, clock.instant(), timeouts);
                switch (decision) {
                    case LockRules.Decision.Reenter r -> {
                        return reenter(n, current);
                    }
                    case LockRules.Decision.Wait w -> {
                        return new LockOutcome.Contended(node, current);
                    }
                    case LockRules.Decision.FailHolderThenTake f -> {
                        if (!markHolderFailed(node, current)) {
                            continue; // the holder changed meanwhile: decide again
                        }
                        LOG.warn(
                                "node {}: {} ({}/{}); marked it failed and took over",
                                node,
                                f.why(),
                                current.namespace(),
                                current.name());
                    }
                    case LockRules.Decision.TakeFromIdleHolder t ->
                        LOG.info("node {}: taking over lock {} ({})", node, value, t.why());
                    case LockRules.Decision.Take t -> {
                        if (current != null) {
                            LOG.info("node {}: taking over lock {} ({})", node, value, t.why());
                        }
                    }
                }
                NodeLock mine = new NodeLock(clock.instant().atOffset(ZoneOffset.UTC), namespace, pod);
                Node written = writeLock(node, mine, n.getMetadata().getResourceVersion());
                if (decision instanceof LockRules.Decision.TakeFromIdleHolder && decidedMeanwhile(node, current)) {
                    return giveBack(node, written, mine, current);
                }
                return new LockOutcome.Acquired(node, mine, false);
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    return new LockOutcome.Failed(node, "lock node " + node + ": " + ApiErrors.describe(e));
                }
                lastError = ApiErrors.describe(e);
            }
        }
        return new LockOutcome.Failed(node, "lock node " + node + ": " + lastError);
    }

    /** The cached node when it carries no lock, else null (a held lock is read afresh before anything is decided). */
    private Node cachedUnlocked(String node) {
        Node n = cached.node().apply(node);
        return n == null
                        || n.getMetadata().getResourceVersion() == null
                        || annotations(n.getMetadata().getAnnotations()).containsKey(ProtocolKeys.NODE_LOCK)
                ? null
                : n;
    }

    /**
     * The lock the cached node shows when the cache alone says to wait for it (a lock younger than the bind window whose
     * cached holder is live), else null. Answering contention writes nothing, so a stale view costs at most a retry by
     * kube-scheduler, never a wrong takeover.
     */
    private NodeLock cachedContention(String node, String namespace, String pod) {
        Node n = cached.node().apply(node);
        String value =
                n == null ? null : annotations(n.getMetadata().getAnnotations()).get(ProtocolKeys.NODE_LOCK);
        if (value == null) {
            return null;
        }
        NodeLock current = parse(node, value);
        boolean fresh = current.time().toInstant().isAfter(clock.instant().minus(timeouts.bindWindow()));
        return !current.isLegacy()
                        && !current.isHeldBy(namespace, pod)
                        && fresh
                        && waitsByCache(node, current, namespace, pod)
                ? current
                : null;
    }

    /**
     * Whether the cached holder pod already says the caller must wait. Answering contention writes nothing, so a stale
     * view can only delay a takeover until kube-scheduler retries; a takeover is always decided on a fresh read.
     */
    private boolean waitsByCache(String node, NodeLock current, String namespace, String pod) {
        HolderPod seen = HolderPod.of(cached.pod().apply(current.namespace(), current.name()));
        if (seen == null) {
            return false; // not known here: read it
        }
        HolderState state = LockRules.holderState(node, current, seen);
        return LockRules.decide(current, namespace, pod, state, clock.instant(), timeouts)
                instanceof LockRules.Decision.Wait;
    }

    /**
     * The caller holds the lock already. Unless it has a live decision for this node (which the lock's time must keep
     * recognising as its own), the lock's time is renewed: the caller's new bind gets a whole bind window, rather
     * than what an earlier, cut-off bind of the same pod left of it.
     *
     * @throws KubernetesClientException 409 when the node changed meanwhile
     */
    private LockOutcome reenter(Node n, NodeLock current) {
        String node = n.getMetadata().getName();
        Pod p = client.pods()
                .inNamespace(current.namespace())
                .withName(current.name())
                .get();
        Instant now = clock.instant();
        if (p == null
                || hasLiveDecision(node, HolderPod.of(p))
                || !current.time().toInstant().isBefore(now.minusSeconds(1))) {
            return new LockOutcome.Acquired(node, current, true);
        }
        NodeLock renewed = new NodeLock(now.atOffset(ZoneOffset.UTC), current.namespace(), current.name());
        writeLock(node, renewed, n.getMetadata().getResourceVersion());
        return new LockOutcome.Acquired(node, renewed, true);
    }

    /** What a reentering bind completes instead of deciding again: {@code allocating} for this node. */
    private static boolean hasLiveDecision(String node, HolderPod pod) {
        return ProtocolKeys.PHASE_ALLOCATING.equals(pod.annotations().get(ProtocolKeys.BIND_PHASE))
                && node.equals(pod.annotations().get(ProtocolKeys.VGPU_NODE));
    }

    /**
     * After taking the lock from a holder that showed no decision: whether it wrote one under its lock since. Its
     * bind checks that it still holds the lock after writing its decision, so a decision written before our lock
     * write may be going ahead and is seen here; one written after it is not.
     */
    private boolean decidedMeanwhile(String node, NodeLock previous) {
        return isAllocating(holderState(node, previous));
    }

    /** Puts the stalled holder's lock back, so that its allocation goes on as the lock names it; answers Contended. */
    private LockOutcome giveBack(String node, Node written, NodeLock mine, NodeLock previous) {
        LOG.warn(
                "node {}: {}/{} wrote its decision while the lock was being taken over; giving it back",
                node,
                previous.namespace(),
                previous.name());
        String resourceVersion = written.getMetadata().getResourceVersion();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                writeLock(node, previous, resourceVersion);
                return new LockOutcome.Contended(node, previous);
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    return givingBackFailed(node, previous, ApiErrors.describe(e));
                }
                Node n = client.nodes().withName(node).get();
                NodeLock now = n == null
                        ? null
                        : parse(
                                node,
                                annotations(n.getMetadata().getAnnotations()).get(ProtocolKeys.NODE_LOCK));
                if (!mine.equals(now)) {
                    return givingBackFailed(node, previous, "the lock changed to " + now);
                }
                resourceVersion = n.getMetadata().getResourceVersion();
            }
        }
        return givingBackFailed(node, previous, "compare-and-swap lost " + ATTEMPTS + " times");
    }

    private static LockOutcome givingBackFailed(String node, NodeLock previous, String why) {
        // The holder's Allocate now finds a lock that does not name it and fails closed: nothing is served twice.
        LOG.error(
                "node {}: could not give the lock back to {}/{}: {}", node, previous.namespace(), previous.name(), why);
        return new LockOutcome.Failed(
                node,
                "lock node " + node + ": could not give the lock back to " + previous.namespace() + "/"
                        + previous.name() + ", which wrote its decision meanwhile: " + why);
    }

    /**
     * Removes the lock of {@code node} if {@code namespace/pod} holds it; a lock held by anyone else is left
     * alone. Returns true when this call removed it.
     *
     * @throws KubernetesClientException when the API server keeps failing
     */
    public boolean release(String node, String namespace, String pod) {
        KubernetesClientException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Node n = client.nodes().withName(node).get();
            if (n == null) {
                return false;
            }
            NodeLock current =
                    parse(node, annotations(n.getMetadata().getAnnotations()).get(ProtocolKeys.NODE_LOCK));
            if (current == null || !current.isHeldBy(namespace, pod)) {
                return false;
            }
            Map<String, String> delete = new HashMap<>();
            delete.put(ProtocolKeys.NODE_LOCK, null);
            try {
                patchNode(
                        node,
                        AnnotationPatch.mergePatch(
                                delete, Map.of(), n.getMetadata().getResourceVersion()));
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    /** The lock on {@code node} now, or null. */
    public NodeLock current(String node) {
        Node n = client.nodes().withName(node).get();
        return n == null
                ? null
                : parse(node, annotations(n.getMetadata().getAnnotations()).get(ProtocolKeys.NODE_LOCK));
    }

    private NodeLock parse(String node, String value) {
        if (value == null) {
            return null;
        }
        try {
            return NodeLockCodec.decode(value);
        } catch (AnnotationFormatException e) {
            // Nobody can own an unreadable lock: read it as an expired legacy lock, which may be replaced.
            LOG.warn("node {}: unreadable lock {}: {}", node, value, e.getMessage());
            return new NodeLock(Instant.EPOCH.atOffset(ZoneOffset.UTC), "", "");
        }
    }

    private HolderState holderState(String node, NodeLock lock) {
        return LockRules.holderState(
                node,
                lock,
                HolderPod.of(client.pods()
                        .inNamespace(lock.namespace())
                        .withName(lock.name())
                        .get()));
    }

    /** Marks the holder failed unless it changed meanwhile (true when it is gone); false means decide again. */
    private boolean markHolderFailed(String node, NodeLock lock) {
        Pod p = client.pods()
                .inNamespace(lock.namespace())
                .withName(lock.name())
                .get();
        HolderState state = LockRules.holderState(node, lock, HolderPod.of(p));
        if (!isAllocating(state)) {
            return state == HolderState.GONE;
        }
        Map<String, String> set = Map.of(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_FAILED);
        try {
            MergePatches.pod(
                    client,
                    lock.namespace(),
                    lock.name(),
                    AnnotationPatch.mergePatch(set, Map.of(), p.getMetadata().getResourceVersion()));
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return false;
            }
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return true;
            }
            throw e;
        }
    }

    /** A decision under the lock that is still {@code allocating}, whatever the pod's state. */
    private static boolean isAllocating(HolderState state) {
        return state == HolderState.ALLOCATING
                || state == HolderState.ALLOCATING_UNBOUND
                || state == HolderState.ENDED_ALLOCATING;
    }

    private Node writeLock(String node, NodeLock lock, String resourceVersion) {
        Map<String, String> set = new HashMap<>();
        set.put(ProtocolKeys.NODE_LOCK, NodeLockCodec.encode(lock));
        return MergePatches.node(client, node, AnnotationPatch.mergePatch(set, Map.of(), resourceVersion));
    }

    private void patchNode(String node, String patch) {
        MergePatches.node(client, node, patch);
    }

    private static Map<String, String> annotations(Map<String, String> a) {
        return a == null ? Map.of() : a;
    }
}
