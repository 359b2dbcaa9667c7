package io.hami.kube.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Connects to a cluster the way operators expect: an explicit kubeconfig, else the in-cluster service
 * account, else {@code ~/.kube/config}.
 */
public final class KubeClients {
    private static final Path SERVICE_ACCOUNT_TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

    private KubeClients() {
    }

    /** @param kubeconfig a kubeconfig file, or null for in-cluster then {@code ~/.kube/config} */
    public static KubernetesClient connect(Path kubeconfig) throws IOException {
        return new KubernetesClientBuilder().withConfig(config(kubeconfig)).build();
    }

    static Config config(Path kubeconfig) throws IOException {
        if (kubeconfig != null) {
            if (!Files.isReadable(kubeconfig)) {
                throw new IOException("kubeconfig " + kubeconfig + " does not exist or is not readable");
            }
            return Config.fromKubeconfig(null, kubeconfig.toFile());
        }
        if (System.getenv("KUBERNETES_SERVICE_HOST") != null && Files.isReadable(SERVICE_ACCOUNT_TOKEN)) {
            return Config.autoConfigure(null);
        }
        Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
        if (Files.isReadable(home)) {
            return Config.fromKubeconfig(null, home.toFile());
        }
        throw new IOException("no cluster to connect to: pass --kubeconfig, run in a pod, or create " + home);
    }
}
