package io.hami.scheduler.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Node and pod informers feeding the usage index one event at a time, and a ResourceQuota informer feeding the
 * quota book. State is always rebuilt from the API server (on start, every replica lists everything), never taken
 * from a previous leader's memory. An object that cannot be decoded is skipped and counted, never stops a watch
 * ({@link TolerantInformer}); a pod or node that cannot be read makes its node fail closed until it can be.
 */
public final class ClusterWatch implements AutoCloseable {
    private final TolerantInformer<Node> nodes;
    private final TolerantInformer<Pod> pods;
    private final TolerantInformer<ResourceQuota> quotas;
    private final UsageIndex index;
    /** Node name to its lock as the node watch saw it; written on the node informer's thread only. */
    private final Map<String, DecisionsSeen.LockHistory> locks = new ConcurrentHashMap<>();

    /** Node happenings others want to know about (metrics, the handshake loop). */
    public interface NodeEvents {
        /** The lock on {@code node} was removed or replaced after being held for {@code held}. */
        void lockReleased(String node, Duration held);

        void gone(String node);

        /** An object of {@code resource} ({@code pods}, {@code nodes}, {@code resourcequotas}) could not be decoded. */
        default void undecodable(String resource) {
        }
    }

    private static ResourceDefinitionContext core(String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder().withGroup("").withVersion("v1").withKind(kind).withPlural(plural)
                .withNamespaced(namespaced).build();
    }

    public ClusterWatch(KubernetesClient client, UsageIndex index, NodeInventory inventory, QuotaBook quotaBook,
                        DeviceBackends backends, NodeEvents events, Clock clock) {
        this.index = index;
        nodes = new TolerantInformer<>(client, core("Node", "nodes", false), Node.class, CachedFields.applied(CachedFields::node),
                new TolerantInformer.Handler<>() {
            @Override
            public void decoded(Node old, Node node) {
                inventory.refresh(node);
                String before = old == null ? null : lock(old);
                recordLock(old, node);
                if (before != null && !before.equals(lock(node))) {
                    try {
                        var held = Duration.between(NodeLockCodec.decode(before).time().toInstant(), clock.instant());
                        events.lockReleased(node.getMetadata().getName(), held.isNegative() ? Duration.ZERO : held);
                    } catch (AnnotationFormatException e) {
                        // an unreadable lock has no start time to measure from
                    }
                }
            }

            @Override
            public void undecodable(String name, GenericKubernetesResource raw, Node previous, String reason) {
                events.undecodable("nodes");
                inventory.unreadable(name, "node " + name + " cannot be read: " + reason);
            }

            @Override
            public void deleted(String name, Node previous) {
                locks.remove(name);
                inventory.remove(name);
                events.gone(name);
            }
        });
        pods = new TolerantInformer<>(client, core("Pod", "pods", true), Pod.class, CachedFields.applied(CachedFields::pod),
                new TolerantInformer.Handler<>() {
            @Override
            public void decoded(Pod old, Pod pod) {
                index.putPod(key(pod), PodUsage.of(pod, backends), pod.getMetadata().getResourceVersion());
            }

            @Override
            public void undecodable(String key, GenericKubernetesResource raw, Pod previous, String reason) {
                events.undecodable("pods");
                Map<String, String> annotations = raw.getMetadata().getAnnotations() == null ? Map.of() : raw.getMetadata().getAnnotations();
                // Only a pod that carries an allocation can hold devices; its node fails closed until it can be read.
                boolean holds = backends.all().stream().anyMatch(b -> annotations.containsKey(b.keys().allocatedKey()));
                String node = holds ? countedNode(raw, previous) : null;
                index.putPod(key, node == null ? new PodUsage.NotCounted() : new PodUsage.Undecodable(node, "pod " + key
                        + " cannot be read: " + reason), raw.getMetadata().getResourceVersion());
            }

            @Override
            public void deleted(String key, Pod previous) {
                index.removePod(key);
            }
        });
        quotas = new TolerantInformer<>(client, core("ResourceQuota", "resourcequotas", true), ResourceQuota.class, null,
                new TolerantInformer.Handler<>() {
                    @Override
                    public void decoded(ResourceQuota old, ResourceQuota quota) {
                        quotaBook.put(quota);
                    }

                    @Override
                    public void undecodable(String key, GenericKubernetesResource raw, ResourceQuota previous, String reason) {
                        // Quotas are admin-owned: the last readable limits keep applying.
                        events.undecodable("resourcequotas");
                        if (previous != null) {
                            quotaBook.put(previous);
                        }
                    }

                    @Override
                    public void deleted(String key, ResourceQuota previous) {
                        if (previous != null) {
                            quotaBook.remove(previous);
                        }
                    }
                });
    }

    /** Follows lock tenures one watched event at a time; what a list shows says nothing of the tenures it hid. */
    private void recordLock(Node old, Node node) {
        String name = node.getMetadata().getName();
        String version = node.getMetadata().getResourceVersion();
        if (old == null || nodes.listing()) {
            locks.put(name, DecisionsSeen.LockHistory.UNKNOWN);
            return;
        }
        var previous = locks.getOrDefault(name, DecisionsSeen.LockHistory.UNKNOWN);
        locks.put(name, previous.next(old.getMetadata().getResourceVersion(), parseLock(lock(old)), parseLock(lock(node)), version));
    }

    private static NodeLock parseLock(String value) {
        if (value == null) {
            return null;
        }
        try {
            return NodeLockCodec.decode(value);
        } catch (AnnotationFormatException e) {
            return new NodeLock(Instant.EPOCH.atOffset(ZoneOffset.UTC), "", ""); // names no holder: proves nothing
        }
    }

    /**
     * Whether the index holds every decision written for {@code node} before a bind took its lock over the unlocked
     * node version {@code freeAt} ({@link DecisionsSeen}); false means the bind must list the node's pods.
     */
    public boolean seenEveryDecisionBefore(String node, String freeAt) {
        var history = locks.get(node);
        if (history == null || history.lastHolder() == null) {
            return false;
        }
        NodeLock holder = history.lastHolder();
        Pod pod = pods.get(holder.namespace() + "/" + holder.name());
        var meta = pod == null ? null : pod.getMetadata();
        return DecisionsSeen.proven(node, freeAt, history, pods.listing(), meta == null ? null : meta.getAnnotations(),
                pod == null || pod.getSpec() == null ? null : pod.getSpec().getNodeName(), meta == null ? null : meta.getResourceVersion(),
                index.recordedVersion(holder.namespace() + "/" + holder.name()));
    }

    /**
     * The node an unreadable pod may hold devices on, read from the raw object as far as it goes, else from its last
     * readable version; null when it is finished or was never placed (it holds nothing then).
     */
    static String countedNode(GenericKubernetesResource raw, Pod previous) {
        Object phase = field(raw, "status", "phase");
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return null;
        }
        if (field(raw, "spec", "nodeName") instanceof String node && !node.isEmpty()) {
            return node;
        }
        Map<String, String> annotations = raw.getMetadata().getAnnotations();
        String decided = annotations == null ? null : annotations.get(ProtocolKeys.VGPU_NODE);
        if (decided != null && !decided.isEmpty()) {
            return decided;
        }
        return previous == null ? null : PodUsage.countedNode(previous);
    }

    private static Object field(GenericKubernetesResource raw, String object, String name) {
        return raw.getAdditionalProperties().get(object) instanceof Map<?, ?> m ? m.get(name) : null;
    }

    private static String lock(Node node) {
        var a = node.getMetadata().getAnnotations();
        return a == null ? null : a.get(ProtocolKeys.NODE_LOCK);
    }

    public static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    public boolean hasSynced() {
        return nodes.hasSynced() && pods.hasSynced() && quotas.hasSynced();
    }

    /** Every informer has listed and is watching: the index is current. False while a watch is down. */
    public boolean current() {
        return nodes.current() && pods.current() && quotas.current();
    }

    /** The readable pods as last seen. */
    public List<Pod> pods() {
        return pods.list();
    }

    /** The node as last seen, or null when it is not known or cannot be read. */
    public Node node(String name) {
        return nodes.get(name);
    }

    /** The pod as last seen, or null when it is not known or cannot be read. */
    public Pod pod(String namespace, String name) {
        return pods.get(namespace + "/" + name);
    }

    /** Whether the node carried a lock when last seen. */
    public boolean locked(String node) {
        Node n = nodes.get(node);
        return n != null && lock(n) != null;
    }

    /** The readable nodes as last seen. */
    public List<Node> nodes() {
        return nodes.list();
    }

    @Override
    public void close() {
        nodes.close();
        pods.close();
        quotas.close();
    }
}
