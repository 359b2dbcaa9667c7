package io.hami.e2e.support;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.KubeSchedulerConfig;
import io.hami.controlplane.KubeSchedulerProcess;
import io.hami.protocol.config.DeviceConfig;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Our scheduler ({@link SchedulerApp}) on a real control plane, as the Deployment runs it: TLS with a certificate for
 * {@code hami-scheduler} signed by the cluster's CA, the identity it is given, and, on request, the real
 * kube-scheduler with deploy/'s configuration calling it.
 */
public final class HamiScheduler implements AutoCloseable {
    public static final String SCHEDULER_NAME = "hami-scheduler";

    private final KubernetesClient client;
    private final SchedulerApp app;
    private final Path caFile;
    private final String url;
    private KubeSchedulerProcess kubeScheduler;

    private HamiScheduler(KubernetesClient client, SchedulerApp app, Path caFile) {
        this.client = client;
        this.app = app;
        this.caFile = caFile;
        this.url = "https://127.0.0.1:" + app.address().getPort();
    }

    /** Starts the scheduler with {@code identity}'s credentials; its certificate and CA go under {@code dir}. */
    public static HamiScheduler start(KubeControlPlane plane, Config identity, LeaderMode leader, Path dir)
            throws Exception {
        return start(plane, identity, new Settings.Replica(leader, Duration.ofSeconds(2)), dir);
    }

    /** As above, with {@code replica}'s leadership, handshake period and requeue on release. */
    public static HamiScheduler start(KubeControlPlane plane, Config identity, Settings.Replica replica, Path dir)
            throws Exception {
        Files.createDirectories(dir);
        Path caFile = Files.writeString(dir.resolve("ca.crt"), plane.ca().certificatePem());
        Path cert = plane.ca()
                .serving(SCHEDULER_NAME, List.of(SCHEDULER_NAME, "127.0.0.1", "localhost"))
                .writeTo(dir, "tls");
        KubernetesClient client = KubeControlPlane.client(identity);
        try {
            var settings = new SchedulerApp.Settings(
                    new Settings.Http(new InetSocketAddress("127.0.0.1", 0), cert, dir.resolve("tls.key")),
                    new Settings.Scheduling(
                            SCHEDULER_NAME,
                            new SchedulingPolicy("binpack", "spread"),
                            Duration.ofMinutes(5),
                            DeviceConfig.DEFAULTS),
                    replica,
                    new Settings.Metrics(null, "e2e"));
            return new HamiScheduler(
                    client, SchedulerApp.start(client, settings, new PrometheusRegistry(), Clock.systemUTC()), caFile);
        } catch (Exception | Error e) {
            client.close();
            throw e;
        }
    }

    /** Starts the real kube-scheduler pointed at this extender, as {@code identity} (null: system:kube-scheduler). */
    public KubeSchedulerProcess startKubeScheduler(KubeControlPlane plane, Config identity) {
        kubeScheduler = plane.startKubeScheduler(
                KubeSchedulerConfig.extender(url, caFile).withIdentity(identity));
        return kubeScheduler;
    }

    public SchedulerApp app() {
        return app;
    }

    /** The extender's and webhook's base URL. */
    public String url() {
        return url;
    }

    /** The CA that signed this scheduler's certificate (what a webhook's caBundle holds). */
    public Path caFile() {
        return caFile;
    }

    @Override
    public void close() {
        if (kubeScheduler != null) {
            kubeScheduler.close();
        }
        app.close();
        client.close();
    }
}
