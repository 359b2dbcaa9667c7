package io.hami.lab.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's last step of a graceful deletion: a real API server deletes a bound pod only by marking it
 * ({@code deletionTimestamp}) until the node's kubelet, its containers stopped, deletes it with grace period 0.
 * The simulated containers stop at once.
 */
final class PodDeletion {
    private static final Logger LOG = LoggerFactory.getLogger(PodDeletion.class);

    private PodDeletion() {}

    static void confirm(KubernetesClient client, Pod pod) {
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .withGracePeriod(0)
                    .delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                LOG.warn(
                        "pod {}/{}: could not finish its deletion: {}",
                        pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(),
                        e.getMessage());
            }
        }
    }
}
