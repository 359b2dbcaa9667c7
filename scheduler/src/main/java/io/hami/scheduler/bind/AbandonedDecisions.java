package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.kube.patch.MergePatches;
import io.hami.protocol.annotation.ProtocolKeys;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks a decision that was written but not bound as failed ({@code hami.io/bind-phase: failed}), so that no
 * device plugin serves it and the usage index stops reserving its devices for a pod that is not on the node.
 * A failed patch is retried in the background: a decision left {@code allocating} would hold its devices until
 * the pod is bound elsewhere or deleted. Each try reads the pod first and leaves it alone once it is gone,
 * bound, or carries a newer decision; the patch is conditional on what was read.
 */
public final class AbandonedDecisions {
    private static final Logger LOG = LoggerFactory.getLogger(AbandonedDecisions.class);
    /** Waits between tries after the first: about a minute in all. */
    public static final List<Duration> BACKOFF = List.of(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8),
            Duration.ofSeconds(16),
            Duration.ofSeconds(30));

    /** Runs a task after a delay; the scheduler's timer thread in production, by hand in tests. */
    @FunctionalInterface
    public interface Timer {
        void schedule(Runnable task, Duration delay);

        static Timer of(ScheduledExecutorService executor) {
            return (task, delay) -> {
                var unused = executor.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
            };
        }
    }

    private final KubernetesClient client;
    private final Timer timer;
    private final List<Duration> backoff;

    public AbandonedDecisions(KubernetesClient client, Timer timer, List<Duration> backoff) {
        this.client = client;
        this.timer = timer;
        this.backoff = List.copyOf(backoff);
    }

    /** Marks the decision for {@code node} written at {@code bindTime} failed: now, else in the background. */
    public void markFailed(String ns, String name, String node, String bindTime) {
        attempt(ns, name, node, bindTime, 0);
    }

    private void attempt(String ns, String name, String node, String bindTime, int tries) {
        try {
            Pod pod = client.pods().inNamespace(ns).withName(name).get();
            if (stillAbandoned(pod, node, bindTime)) {
                MergePatches.pod(
                        client,
                        ns,
                        name,
                        AnnotationPatch.mergePatch(
                                Map.of(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_FAILED),
                                Map.of(),
                                pod.getMetadata().getResourceVersion()));
            }
            if (tries > 0) {
                LOG.info("pod {}/{}: its unbound decision is marked failed after {} retries", ns, name, tries);
            }
        } catch (KubernetesClientException e) {
            if (tries >= backoff.size()) {
                LOG.error(
                        "pod {}/{}: could not mark its unbound decision failed after {} tries ({}); its devices stay "
                                + "reserved until the pod is scheduled again or deleted",
                        ns,
                        name,
                        tries + 1,
                        e.getMessage());
                return;
            }
            LOG.warn(
                    "pod {}/{}: marking its unbound decision failed: {}; retrying in {}",
                    ns,
                    name,
                    e.getMessage(),
                    backoff.get(tries));
            timer.schedule(() -> attempt(ns, name, node, bindTime, tries + 1), backoff.get(tries));
        }
    }

    /** Unbound, still allocating, and still the decision this bind wrote. */
    private static boolean stillAbandoned(Pod pod, String node, String bindTime) {
        if (pod == null
                || (pod.getSpec() != null
                        && pod.getSpec().getNodeName() != null
                        && !pod.getSpec().getNodeName().isEmpty())) {
            return false;
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        return annotations != null
                && ProtocolKeys.PHASE_ALLOCATING.equals(annotations.get(ProtocolKeys.BIND_PHASE))
                && bindTime.equals(annotations.get(ProtocolKeys.BIND_TIME))
                && node.equals(annotations.get(ProtocolKeys.VGPU_NODE));
    }
}
