package io.hami.e2e.support;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.protocol.testing.Patience;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;

/**
 * What tests on the shared control plane do around their objects: wait until the scheduler indexed the nodes they
 * made, and remove what they made afterwards (bound pods have no kubelet to confirm a graceful delete, and nodes
 * left behind would be candidates for the next class's pods).
 */
public final class ClusterOps {
    private ClusterOps() {}

    /** Waits until {@code scheduler}'s usage index holds every one of {@code nodes}. */
    public static void awaitIndexed(HamiScheduler scheduler, Collection<String> nodes) {
        await("scheduler indexed nodes " + nodes)
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> scheduler.app().index().nodeNames().containsAll(nodes));
    }

    public static Map<String, String> annotations(Pod pod) {
        return pod.getMetadata().getAnnotations() == null
                ? Map.of()
                : pod.getMetadata().getAnnotations();
    }

    public static Map<String, String> annotations(Node node) {
        return node.getMetadata().getAnnotations() == null
                ? Map.of()
                : node.getMetadata().getAnnotations();
    }

    /** Deletes every pod of {@code namespace} at once (grace period 0: there is no kubelet to confirm). */
    public static void deletePods(KubernetesClient client, String namespace) {
        try {
            client.pods().inNamespace(namespace).withGracePeriod(0).delete();
        } catch (KubernetesClientException e) {
            // best effort: the test's verdict is already taken
        }
    }

    public static void deleteNodes(KubernetesClient client, Collection<String> names) {
        for (String n : names) {
            try {
                client.nodes().withName(n).withGracePeriod(0).delete();
            } catch (KubernetesClientException e) {
                // best effort
            }
        }
    }
}
