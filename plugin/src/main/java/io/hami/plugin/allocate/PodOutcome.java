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

    private final KubernetesClient client;
    private final NodeLockClient locks;
    private final String node;
    private final List<String> everyToAllocateKey;

    PodOutcome(KubernetesClient client, NodeLockClient locks, String node, List<String> everyToAllocateKey) {
        this.client = client;
        this.locks = locks;
        this.node = node;
        this.everyToAllocateKey = List.copyOf(everyToAllocateKey);
    }

    /**
     * After this plugin's entry was consumed ({@code patched} is the pod as that write left it, so a plugin of
     * another vendor that wrote before it is seen): success and release when nothing is left.
     */
    void completeIfDone(Pod patched) {
        Pod current = patched;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
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
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    LOG.error(
                            "pod {}: could not set bind-phase=success: {}",
                            WaitingPods.name(current),
                            ApiErrors.describe(e));
                    break;
                }
                current = client.pods()
                        .inNamespace(current.getMetadata().getNamespace())
                        .withName(current.getMetadata().getName())
                        .get();
                if (current == null) {
                    break;
                }
            }
        }
        release(patched);
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
