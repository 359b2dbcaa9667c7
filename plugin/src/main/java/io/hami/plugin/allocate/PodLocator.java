package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.lock.NodeLockClient;
import io.hami.protocol.codec.NodeLock;
import java.time.Duration;
import java.util.List;

/**
 * Finds the pod an Allocate of one vendor is for: reads the node lock and the pods bound to the node from the
 * API server (not a cache: a stale view could attribute the call to the wrong pod) and lets {@link PodMatcher}
 * decide. An ambiguous node is read again for a short while, since the other pods usually settle (the kubelet
 * marks a pod it rejected Failed), and so is one where a pod without a decision waits for the same resource.
 */
public final class PodLocator {
    private static final Duration REREAD = Duration.ofMillis(100);

    private final KubernetesClient client;
    private final NodeLockClient locks;
    private final String node;
    private final String vendor;
    private final String resource;
    private final String toAllocateKey;
    private final Duration ambiguityWait;

    public PodLocator(
            KubernetesClient client,
            NodeLockClient locks,
            String node,
            String vendor,
            String resource,
            String toAllocateKey,
            Duration ambiguityWait) {
        this.client = client;
        this.locks = locks;
        this.node = node;
        this.vendor = vendor;
        this.resource = resource;
        this.toAllocateKey = toAllocateKey;
        this.ambiguityWait = ambiguityWait;
    }

    /**
     * The match now; with {@code settle}, an ambiguous node is read again until it is not or the wait is over.
     *
     * @throws KubernetesClientException when the API server cannot be read
     */
    public Match locate(boolean settle) {
        long deadline = System.nanoTime() + ambiguityWait.toNanos();
        while (true) {
            Match match = readOnce();
            boolean mayChange = match instanceof Match.Ambiguous || match instanceof Match.Indistinguishable;
            if (!mayChange || !settle || System.nanoTime() >= deadline) {
                return match;
            }
            try {
                Thread.sleep(REREAD);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return match;
            }
        }
    }

    private Match readOnce() {
        NodeLock lock = locks.current(node);
        List<Pod> onNode = client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .list()
                .getItems();
        return PodMatcher.match(node, vendor, resource, lock, onNode, toAllocateKey);
    }
}
