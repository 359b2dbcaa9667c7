package io.hami.kube.lock;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.codec.UnixTimeCodec;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node lock of DECISIONS D5 against the API server: one annotation per node, written and removed only
 * with a resourceVersion compare-and-swap, released only by its holder. Contention is answered at once
 * (no waiting), so a kube-scheduler HTTP call is never held up; conflicts (409) are retried a few times.
 */
public final class NodeLockClient {
    private static final Logger LOG = LoggerFactory.getLogger(NodeLockClient.class);
    /** Attempts when a write loses a compare-and-swap race. */
    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;
    private final Duration timeout;
    private final Clock clock;

    public NodeLockClient(KubernetesClient client, Duration timeout, Clock clock) {
        this.client = Objects.requireNonNull(client);
        this.timeout = Objects.requireNonNull(timeout);
        this.clock = Objects.requireNonNull(clock);
    }

    /** Takes the lock of {@code node} for pod {@code namespace/pod}. */
    public LockOutcome acquire(String node, String namespace, String pod) {
        String lastError = "compare-and-swap lost " + ATTEMPTS + " times";
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                Node n = client.nodes().withName(node).get();
                if (n == null) {
                    return new LockOutcome.Failed(node, "node " + node + " not found");
                }
                String value = annotations(n.getMetadata().getAnnotations()).get(ProtocolKeys.NODE_LOCK);
                NodeLock current = parse(node, value);
                HolderState holder = current == null || current.isLegacy() || current.isHeldBy(namespace, pod)
                        ? HolderState.GONE : holderState(node, current);
                var decision = LockRules.decide(current, namespace, pod, holder, clock.instant(), timeout);
                switch (decision) {
                    case LockRules.Decision.Reenter r -> {
                        return new LockOutcome.Acquired(node, current, true);
                    }
                    case LockRules.Decision.Wait w -> {
                        return new LockOutcome.Contended(node, current);
                    }
                    case LockRules.Decision.FailHolderThenTake f -> {
                        if (!markHolderFailed(node, current)) {
                            continue; // the holder changed meanwhile: decide again
                        }
                        LOG.warn("node {}: lock of {}/{} expired while still allocating; marked it failed and took over",
                                node, current.namespace(), current.name());
                    }
                    case LockRules.Decision.Take t -> {
                        if (current != null) {
                            LOG.info("node {}: taking over lock {} ({})", node, value, t.why());
                        }
                    }
                }
                NodeLock mine = new NodeLock(clock.instant().atOffset(ZoneOffset.UTC), namespace, pod);
                Map<String, String> set = new HashMap<>();
                set.put(ProtocolKeys.NODE_LOCK, NodeLockCodec.encode(mine));
                patchNode(node, AnnotationPatch.mergePatch(set, Map.of(), n.getMetadata().getResourceVersion()));
                return new LockOutcome.Acquired(node, mine, false);
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    return new LockOutcome.Failed(node, "lock node " + node + ": " + e.getMessage());
                }
                lastError = e.getMessage();
            }
        }
        return new LockOutcome.Failed(node, "lock node " + node + ": " + lastError);
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
            NodeLock current = parse(node, annotations(n.getMetadata().getAnnotations()).get(ProtocolKeys.NODE_LOCK));
            if (current == null || !current.isHeldBy(namespace, pod)) {
                return false;
            }
            Map<String, String> delete = new HashMap<>();
            delete.put(ProtocolKeys.NODE_LOCK, null);
            try {
                patchNode(node, AnnotationPatch.mergePatch(delete, Map.of(), n.getMetadata().getResourceVersion()));
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
        return n == null ? null : parse(node, annotations(n.getMetadata().getAnnotations()).get(ProtocolKeys.NODE_LOCK));
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
            return new NodeLock(java.time.Instant.EPOCH.atOffset(ZoneOffset.UTC), "", "");
        }
    }

    private HolderState holderState(String node, NodeLock lock) {
        Pod p = client.pods().inNamespace(lock.namespace()).withName(lock.name()).get();
        return p == null ? HolderState.GONE : holderState(node, lock, annotations(p.getMetadata().getAnnotations()));
    }

    /** Classifies a holder from its annotations; a bind-time at or after the lock time belongs to this lock. */
    public static HolderState holderState(String node, NodeLock lock, Map<String, String> a) {
        String phase = a.get(ProtocolKeys.BIND_PHASE);
        boolean underThisLock;
        try {
            String bindTime = a.get(ProtocolKeys.BIND_TIME);
            underThisLock = bindTime != null && node.equals(a.get(ProtocolKeys.VGPU_NODE))
                    && !UnixTimeCodec.decode(bindTime).isBefore(lock.time().toInstant());
        } catch (AnnotationFormatException e) {
            underThisLock = false;
        }
        if (!underThisLock) {
            return HolderState.PENDING;
        }
        return ProtocolKeys.PHASE_ALLOCATING.equals(phase) ? HolderState.ALLOCATING
                : ProtocolKeys.PHASE_SUCCESS.equals(phase) || ProtocolKeys.PHASE_FAILED.equals(phase) ? HolderState.FINISHED
                : HolderState.PENDING;
    }

    /** Marks the expired holder failed unless it changed meanwhile; false means decide again. */
    private boolean markHolderFailed(String node, NodeLock lock) {
        Pod p = client.pods().inNamespace(lock.namespace()).withName(lock.name()).get();
        if (p == null || holderState(node, lock) != HolderState.ALLOCATING) {
            return p == null;
        }
        Map<String, String> set = Map.of(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_FAILED);
        try {
            client.pods().inNamespace(lock.namespace()).withName(lock.name()).patch(PatchContext.of(PatchType.JSON_MERGE),
                    AnnotationPatch.mergePatch(set, Map.of(), p.getMetadata().getResourceVersion()));
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return false;
            }
            throw e;
        }
    }

    private void patchNode(String node, String patch) {
        client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    private static Map<String, String> annotations(Map<String, String> a) {
        return a == null ? Map.of() : a;
    }
}
