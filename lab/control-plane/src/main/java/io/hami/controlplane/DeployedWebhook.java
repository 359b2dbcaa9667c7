package io.hami.controlplane;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * deploy/'s MutatingWebhookConfiguration (bundled into this jar at build time) registered with a control plane.
 * Only {@code clientConfig} changes: a URL on loopback in place of the Service (this control plane has no cluster
 * network to resolve one) and the CA of our serving certificate as caBundle, as the certgen Job fills it.
 */
public final class DeployedWebhook {
    static final String DEPLOYED = "deploy/webhook.yaml";

    private DeployedWebhook() {}

    public static MutatingWebhookConfiguration load(KubernetesClient client) {
        try (InputStream in = DeployedWebhook.class.getResourceAsStream(DEPLOYED)) {
            if (in == null) {
                throw new IllegalStateException(
                        "control plane: " + DEPLOYED + " is not on the class path (build lab/control-plane)");
            }
            return client.getKubernetesSerialization().unmarshal(in, MutatingWebhookConfiguration.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates or replaces the configuration so that every webhook of it calls {@code baseUrl + path}. */
    public static MutatingWebhookConfiguration register(KubernetesClient admin, String baseUrl, String caPem) {
        var config = load(admin);
        for (var webhook : config.getWebhooks()) {
            String path = webhook.getClientConfig().getService() == null
                    ? ""
                    : webhook.getClientConfig().getService().getPath();
            webhook.setClientConfig(new WebhookClientConfigBuilder()
                    .withUrl(baseUrl + (path == null ? "" : path))
                    .withCaBundle(KubeControlPlane.b64(caPem))
                    .build());
        }
        return admin.resource(config).serverSideApply();
    }
}
