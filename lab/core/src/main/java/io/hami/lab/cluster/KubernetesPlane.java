package io.hami.lab.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.ControlPlaneBinaries;
import io.hami.controlplane.DeployedWebhook;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.KubeSchedulerConfig;
import io.hami.controlplane.KubeSchedulerProcess;
import io.hami.lab.workload.LabKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real control plane of a lab run ({@code --control-plane kubernetes}): etcd and kube-apiserver of the pinned
 * Kubernetes release ({@link KubeControlPlane}), the scheduler's mutating webhook registered with the API server as
 * deploy/ ships it (only its address differs: no Service can be resolved here), and kube-scheduler with deploy/'s
 * configuration calling the extender over TLS. Everything it writes (certificates, kubeconfigs, one log per process)
 * stays in its folder; etcd's data is removed when it stops.
 */
final class KubernetesPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesPlane.class);
    static final String SCHEDULER_SERVER_NAME = "hami-scheduler";

    /** The extender's serving certificate and key, and the CA that signed them. */
    record Tls(Path cert, Path key, Path ca) {}

    private final KubeControlPlane plane;
    private final String version;
    private KubeSchedulerProcess kubeScheduler;
    private Tls tls;

    private KubernetesPlane(KubeControlPlane plane, String version) {
        this.plane = plane;
        this.version = version;
    }

    /** Starts etcd and kube-apiserver with everything under {@code dir}, and the lab's namespace. */
    static KubernetesPlane start(Path dir) {
        KubeControlPlane plane = KubeControlPlane.start(ControlPlaneBinaries.locate(), dir);
        try (KubernetesClient client = plane.newClient()) {
            // No kube-controller-manager: the namespace's default ServiceAccount, which admission requires, is made
            // here.
            plane.ensureNamespace(LabKeys.NAMESPACE);
            return new KubernetesPlane(plane, client.getKubernetesVersion().getGitVersion());
        } catch (RuntimeException e) {
            plane.close();
            throw e;
        }
    }

    String url() {
        return plane.url();
    }

    /** The cluster administrator, for every lab component (kubelets, plugins, observer, workload, scheduler). */
    Config adminConfig() {
        return plane.adminConfig();
    }

    Path writeKubeconfig(Path file) {
        return plane.writeKubeconfig(file, plane.adminConfig());
    }

    /** Where etcd, kube-apiserver and kube-scheduler write their logs. */
    Path logDir() {
        return plane.workDir().resolve("logs");
    }

    String description() {
        return "kube-apiserver + kube-scheduler " + version;
    }

    /** The extender's certificate for {@code hami-scheduler} and 127.0.0.1, issued by the cluster's CA, as the certgen Job makes it. */
    synchronized Tls schedulerTls() {
        if (tls == null) {
            Path dir = plane.workDir().resolve("hami-scheduler");
            var issued =
                    plane.ca().serving(SCHEDULER_SERVER_NAME, List.of(SCHEDULER_SERVER_NAME, "127.0.0.1", "localhost"));
            Path cert = issued.writeTo(dir, "tls");
            try {
                Path ca = Files.writeString(dir.resolve("ca.crt"), plane.ca().certificatePem());
                tls = new Tls(cert, dir.resolve("tls.key"), ca);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return tls;
    }

    /** Registers deploy/'s MutatingWebhookConfiguration, reaching the webhook at {@code base} with the cluster's CA. */
    void registerWebhook(KubernetesClient client, URI base) {
        var config = DeployedWebhook.register(
                client, base.toString().replaceAll("/$", ""), plane.ca().certificatePem());
        LOG.info(
                "webhook {} registered at {}",
                config.getMetadata().getName(),
                config.getWebhooks().getFirst().getClientConfig().getUrl());
    }

    /** Starts kube-scheduler with deploy/'s configuration, its extender at {@code extender} (one scheduler replica). */
    void startKubeScheduler(URI extender) {
        if (kubeScheduler != null) {
            kubeScheduler.close();
        }
        kubeScheduler = plane.startKubeScheduler(
                KubeSchedulerConfig.extender(extender.toString(), schedulerTls().ca()));
        LOG.info("kube-scheduler started against {}; its log: {}", extender, kubeScheduler.log());
    }

    void stopKubeScheduler() {
        if (kubeScheduler != null) {
            kubeScheduler.close();
            kubeScheduler = null;
        }
    }

    @Override
    public void close() {
        plane.close();
        // etcd's data is of no use after the run, and a scale run's is large; the logs and certificates stay.
        Path data = plane.workDir().resolve("etcd");
        if (Files.isDirectory(data)) {
            try (Stream<Path> paths = Files.walk(data)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException | UncheckedIOException e) {
                LOG.warn("could not remove etcd's data in {}: {}", data, e.toString());
            }
        }
    }
}
