package io.hami.monitor.pods;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.hami.protocol.annotation.ProtocolKeys;
import java.util.HashMap;
import java.util.Map;

/**
 * The pods the scheduler placed on this node, as upstream's monitor watches them: an informer on the label
 * {@code hami.io/vgpu-node=<node>} that the scheduler's bind sets. Only these pods' containers have series, and a
 * folder of a pod not among them is removed after the grace period.
 */
public final class NodePods implements AutoCloseable {
    private final SharedIndexInformer<Pod> informer;

    private NodePods(SharedIndexInformer<Pod> informer) {
        this.informer = informer;
    }

    /**
     * Starts watching without waiting for the API server (the scan loop runs meanwhile); {@link #synced()} tells
     * when the first list arrived.
     */
    public static NodePods watch(KubernetesClient client, String node) {
        SharedIndexInformer<Pod> informer = client.pods()
                .inAnyNamespace()
                .withLabel(ProtocolKeys.VGPU_NODE, node)
                .runnableInformer(0);
        informer.start();
        return new NodePods(informer);
    }

    /** Whether the view is complete: before the first list every folder would look like a gone pod's. */
    public boolean synced() {
        return informer.hasSynced();
    }

    /** UID to namespace and name, of the pods the view holds now. */
    public Map<String, PodName> byUid() {
        var pods = new HashMap<String, PodName>();
        for (Pod pod : informer.getStore().list()) {
            var meta = pod.getMetadata();
            if (meta != null && meta.getUid() != null) {
                pods.put(meta.getUid(), new PodName(meta.getNamespace(), meta.getName()));
            }
        }
        return pods;
    }

    @Override
    public void close() {
        informer.close();
    }
}
