package io.hami.scheduler.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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

    /** Node happenings others want to know about (metrics, the handshake loop). */
    public interface NodeEvents {
        /** The lock on {@code node} was removed or replaced after being held for {@code held}. */
        void lockReleased(String node, Duration held);

        void gone(String node);

        /** An object of {@code resource} ({@code pods}, {@code nodes}, {@code resourcequotas}) could not be decoded. */
        default void undecodable(String resource) {}
    }

    private static ResourceDefinitionContext core(String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder()
                .withGroup("")
                .withVersion("v1")
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(namespaced)
                .build();
    }

    public ClusterWatch(
            KubernetesClient client,
            UsageIndex index,
            NodeInventory inventory,
            QuotaBook quotaBook,
            DeviceBackends backends,
            NodeEvents events,
            Clock clock) {
        this(client, index, inventory, quotaBook, backends, events, clock, NodeSelector.ALL);
    }

    /** Watches only the nodes {@code selector} selects: the others are never indexed (filter finds them unregistered). */
    public ClusterWatch(
            KubernetesClient client,
            UsageIndex index,
            NodeInventory inventory,
            QuotaBook quotaBook,
            DeviceBackends backends,
            NodeEvents events,
            Clock clock,
            NodeSelector selector) {
        nodes = new TolerantInformer<>(
                client,
                core("Node", "nodes", false),
                Node.class,
                CachedFields.applied(CachedFields::node),
                selector.labels(),
                new TolerantInformer.Handler<>() {
                    @Override
                    public void decoded(Node old, Node node) {
                        inventory.refresh(node);
                        String before = old == null ? null : lock(old);
                        if (before != null && !before.equals(lock(node))) {
                            try {
                                var held = Duration.between(
                                        NodeLockCodec.decode(before).time().toInstant(), clock.instant());
                                events.lockReleased(
                                        node.getMetadata().getName(), held.isNegative() ? Duration.ZERO : held);
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
                        inventory.remove(name);
                        events.gone(name);
                    }
                });
        pods = new TolerantInformer<>(
                client,
                core("Pod", "pods", true),
                Pod.class,
                CachedFields.applied(CachedFields::pod),
                new TolerantInformer.Handler<>() {
                    @Override
                    public void decoded(Pod old, Pod pod) {
                        index.putPod(
                                key(pod),
                                PodUsage.of(pod, backends),
                                pod.getMetadata().getResourceVersion());
                    }

                    @Override
                    public void undecodable(String key, GenericKubernetesResource raw, Pod previous, String reason) {
                        events.undecodable("pods");
                        Map<String, String> annotations = raw.getMetadata().getAnnotations() == null
                                ? Map.of()
                                : raw.getMetadata().getAnnotations();
                        // Only a pod that carries an allocation can hold devices; its node fails closed until it can be
                        // read.
                        boolean holds = backends.all().stream()
                                .anyMatch(b -> annotations.containsKey(b.keys().allocatedKey()));
                        String node = holds ? countedNode(raw, previous) : null;
                        index.putPod(
                                key,
                                node == null
                                        ? new PodUsage.NotCounted()
                                        : new PodUsage.Undecodable(node, "pod " + key + " cannot be read: " + reason),
                                raw.getMetadata().getResourceVersion());
                    }

                    @Override
                    public void deleted(String key, Pod previous) {
                        index.removePod(key);
                    }
                });
        quotas = new TolerantInformer<>(
                client,
                core("ResourceQuota", "resourcequotas", true),
                ResourceQuota.class,
                null,
                new TolerantInformer.Handler<>() {
                    @Override
                    public void decoded(ResourceQuota old, ResourceQuota quota) {
                        quotaBook.put(quota);
                    }

                    @Override
                    public void undecodable(
                            String key, GenericKubernetesResource raw, ResourceQuota previous, String reason) {
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

    /** How far the pod informer has put every pod change into the usage index. */
    public WatchHorizon podsHorizon() {
        return pods.horizon();
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
