package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.client.ApiErrors;
import io.hami.kube.lock.NodeLockClient;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a pod's allocation (design D4, docs/design.md#d4): {@code bind-phase=success} once no vendor's to-allocate entries are left,
 * {@code failed} on an error, and in both cases the node lock released (only if the pod holds it).
 */
final class PodOutcome {
    private static final Logger LOG = LoggerFactory.getLogger(PodOutcome.class);
    private static final int ATTEMPTS = 5;
    /**
     * How long {@link #completeIfDone} keeps trying to write {@code success} when the API server fails the write
     * (anything but a conflict: a 5xx, a timeout, a reset connection, as when etcd restarts). The entry is already
     * consumed and the kubelet is about to start the container, so giving up at the first error would leave a served
     * pod {@code allocating} for good, and if the lock release fails as well, its lock held until the allocation
     * timeout, which then marks the running pod {@code failed}. The kubelet's Allocate waits meanwhile (the kubelet
     * sets no deadline on it).
     */
    static final Duration SUCCESS_RETRY = Duration.ofSeconds(10);

    private static final Duration FIRST_WAIT = Duration.ofMillis(250);
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(2);

    private final KubernetesClient client;
    private final NodeLockClient locks;
    private final String node;
    private final List<String> everyToAllocateKey;
    private final Duration successRetry;

    PodOutcome(KubernetesClient client, NodeLockClient locks, String node, List<String> everyToAllocateKey) {
        this(client, locks, node, everyToAllocateKey, SUCCESS_RETRY);
    }

    PodOutcome(
            KubernetesClient client,
            NodeLockClient locks,
            String node,
            List<String> everyToAllocateKey,
            Duration successRetry) {
        this.client = client;
        this.locks = locks;
        this.node = node;
        this.everyToAllocateKey = List.copyOf(everyToAllocateKey);
        this.successRetry = successRetry;
    }

    /**
     * After this plugin's entry was consumed ({@code patched} is the pod as that write left it, so a plugin of
     * another vendor that wrote before it is seen): success and release when nothing is left. A conflict reads the
     * pod again (up to {@value #ATTEMPTS} times); any other failure is tried again, the pod read again first, with
     * waits from 250 ms doubling to 2 s for {@link #SUCCESS_RETRY}.
     */
    void completeIfDone(Pod patched) {
        Pod current = patched;
        int conflicts = 0;
        long deadline = System.nanoTime() + successRetry.toNanos();
        Duration wait = FIRST_WAIT;
        while (current != null) {
            if (entriesLeft(current)) {
                return; // another vendor's plugin finishes the pod
            }
            if (!WaitingPods.isAllocating(current)) {
                LOG.warn(
                        "pod {}: allocated, but its bind-phase is already {}",
                        WaitingPods.name(current),
                        WaitingPods.annotations(current).get(ProtocolKeys.BIND_PHASE));
                break;
            }
            try {
                // Guarded by the version read, so a concurrent "failed" (lock recovery) is never overwritten.
                setPhase(
                        current,
                        ProtocolKeys.PHASE_SUCCESS,
                        current.getMetadata().getResourceVersion());
                LOG.info("pod {}: every device allocated, bind-phase=success", WaitingPods.name(current));
                break;
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                    if (++conflicts >= ATTEMPTS) {
                        break;
                    }
                } else {
                    if (System.nanoTime() + wait.toNanos() > deadline) {
                        LOG.error(
                                "pod {}: could not set bind-phase=success, giving up after {}: {}",
                                WaitingPods.name(current),
                                successRetry,
                                ApiErrors.describe(e));
                        break;
                    }
                    LOG.warn(
                            "pod {}: could not set bind-phase=success, trying again in {} ms: {}",
                            WaitingPods.name(current),
                            wait.toMillis(),
                            ApiErrors.describe(e));
                    if (!pause(wait)) {
                        break;
                    }
                    wait = wait.multipliedBy(2).compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait.multipliedBy(2);
                }
                try {
                    current = client.pods()
                            .inNamespace(current.getMetadata().getNamespace())
                            .withName(current.getMetadata().getName())
                            .get();
                } catch (KubernetesClientException readFailed) {
                    // the next write, with the version read before, fails again or conflicts; both are handled
                }
            }
        }
        release(patched);
    }

    /** Waits {@code d}; false when interrupted (the plugin stops), with the interrupt kept. */
    private static boolean pause(Duration d) {
        try {
            Thread.sleep(d);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Marks the pod failed (so nothing serves it later) and releases the lock it holds. */
    void fail(Pod pod, String why) {
        LOG.warn("pod {}: allocation failed, bind-phase=failed: {}", WaitingPods.name(pod), why);
        try {
            setPhase(pod, ProtocolKeys.PHASE_FAILED, null);
        } catch (KubernetesClientException e) {
            LOG.error("pod {}: could not set bind-phase=failed: {}", WaitingPods.name(pod), ApiErrors.describe(e));
        }
        release(pod);
    }

    private void setPhase(Pod pod, String phase, String resourceVersion) {
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        AnnotationPatch.mergePatch(Map.of(ProtocolKeys.BIND_PHASE, phase), Map.of(), resourceVersion));
    }

    private void release(Pod pod) {
        try {
            if (locks.release(
                    node, pod.getMetadata().getNamespace(), pod.getMetadata().getName())) {
                LOG.info("node {}: lock of pod {} released", node, WaitingPods.name(pod));
            }
        } catch (KubernetesClientException e) {
            // The pod is no longer allocating, so the scheduler's lock recovery takes the lock over.
            LOG.error(
                    "node {}: could not release the lock of pod {}: {}",
                    node,
                    WaitingPods.name(pod),
                    ApiErrors.describe(e));
        }
    }

    /** Whether any vendor's to-allocate value still has an entry; one that does not decode counts as left. */
    private boolean entriesLeft(Pod pod) {
        Map<String, String> a = WaitingPods.annotations(pod);
        for (String key : everyToAllocateKey) {
            String value = a.get(key);
            if (value == null) {
                continue;
            }
            try {
                if (!PodDevicesCodec.decode(value).isEmpty()) {
                    return true;
                }
            } catch (AnnotationFormatException e) {
                LOG.warn(
                        "pod {}: {} does not decode, so the pod is not finished: {}",
                        WaitingPods.name(pod),
                        key,
                        e.getMessage());
                return true;
            }
        }
        return false;
    }
}
