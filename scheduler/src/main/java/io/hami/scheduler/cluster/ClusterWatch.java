package io.hami.scheduler.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLockCodec;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Node and pod informers feeding the usage index one event at a time, and a ResourceQuota informer feeding the
 * quota book. State is always rebuilt from the API server (on start, every replica lists everything), never taken
 * from a previous leader's memory.
 */
public final class ClusterWatch implements AutoCloseable {
    private final SharedIndexInformer<Node> nodes;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<ResourceQuota> quotas;

    /** Node happenings others want to know about (metrics, the handshake loop). */
    public interface NodeEvents {
        /** The lock on {@code node} was removed or replaced after being held for {@code held}. */
        void lockReleased(String node, Duration held);

        void gone(String node);
    }

    public ClusterWatch(KubernetesClient client, UsageIndex index, NodeInventory inventory, QuotaBook quotaBook,
                        DeviceBackends backends, NodeEvents events, Clock clock) {
        nodes = client.nodes().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                inventory.refresh(node);
            }

            @Override
            public void onUpdate(Node old, Node node) {
                inventory.refresh(node);
                String before = lock(old);
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
            public void onDelete(Node node, boolean unknownFinalState) {
                inventory.remove(node.getMetadata().getName());
                events.gone(node.getMetadata().getName());
            }
        }, 0);
        pods = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                index.putPod(key(pod), PodUsage.of(pod, backends), pod.getMetadata().getResourceVersion());
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                index.putPod(key(pod), PodUsage.of(pod, backends), pod.getMetadata().getResourceVersion());
            }

            @Override
            public void onDelete(Pod pod, boolean unknownFinalState) {
                index.removePod(key(pod));
            }
        }, 0);
        quotas = client.resourceQuotas().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ResourceQuota quota) {
                quotaBook.put(quota);
            }

            @Override
            public void onUpdate(ResourceQuota old, ResourceQuota quota) {
                quotaBook.put(quota);
            }

            @Override
            public void onDelete(ResourceQuota quota, boolean unknownFinalState) {
                quotaBook.remove(quota);
            }
        }, 0);
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

    /** The pods as last seen. */
    public List<Pod> pods() {
        return pods.getStore().list();
    }

    /** The nodes as last seen. */
    public List<Node> nodes() {
        return nodes.getStore().list();
    }

    @Override
    public void close() {
        nodes.close();
        pods.close();
        quotas.close();
    }
}
