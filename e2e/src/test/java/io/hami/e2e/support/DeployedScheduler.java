package io.hami.e2e.support;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.KubeSchedulerConfig;
import io.hami.controlplane.KubeSchedulerProcess;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.config.DeviceConfigLoader;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The scheduler pod of {@code deploy/kubernetes/scheduler/deployment.yaml} on a real control plane: our
 * {@link SchedulerApp} with the scheduler container's flags (scheduler name, policies, lock timeout, the device
 * config of ConfigMap {@code hami-device-config}, {@code --leader-follow} of the Lease in the Deployment's
 * namespace, a metrics endpoint) over TLS, and the real kube-scheduler with deploy/'s configuration, leader
 * election on, both as the identity they are given (in the cluster: the pod's ServiceAccount). Only the listen
 * addresses (loopback, free ports) and the certificate files differ from the Deployment.
 */
public final class DeployedScheduler implements AutoCloseable {
    /** What kube-scheduler's Lease identity starts with: its host name, which in the cluster is the pod's name. */
    public static final String POD_NAME = hostname();

    private final SchedulerApp app;
    private final PrometheusRegistry registry;
    private final String url;
    private final Path caFile;
    private final String leaseNamespace;
    private final String leaseName;
    private KubeSchedulerProcess kubeScheduler;

    private DeployedScheduler(
            SchedulerApp app, PrometheusRegistry registry, Path caFile, String leaseNamespace, String leaseName) {
        this.app = app;
        this.registry = registry;
        this.url = "https://127.0.0.1:" + app.address().getPort();
        this.caFile = caFile;
        this.leaseNamespace = leaseNamespace;
        this.leaseName = leaseName;
    }

    /** The scheduler container's flags. */
    public static JsonNode container() {
        return DeployFiles.container(
                DeployFiles.find(DeployFiles.load("scheduler/deployment.yaml"), "Deployment", "hami-scheduler"),
                "scheduler");
    }

    /** The device configuration the Deployment mounts (ConfigMap hami-device-config). */
    public static DeviceConfig deviceConfig() {
        try {
            return DeviceConfigLoader.parse(
                            DeployFiles.deviceConfigYaml(), "hami-device-config", DeviceBackends.configSections())
                    .config();
        } catch (io.hami.protocol.config.DeviceConfigException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * Starts our scheduler with {@code client} (whose identity the caller chose), following the Lease kube-scheduler
     * of this "pod" ({@link #POD_NAME}) holds; certificate, key and CA go under {@code dir}.
     *
     * @param handshakePeriod not a flag of the Deployment (default 15 s); shorter in tests
     */
    public static DeployedScheduler start(
            KubeControlPlane plane, KubernetesClient client, Duration handshakePeriod, Path dir) throws Exception {
        JsonNode c = container();
        JsonNode deployment =
                DeployFiles.find(DeployFiles.load("scheduler/deployment.yaml"), "Deployment", "hami-scheduler");
        String namespace = DeployFiles.namespace(deployment); // POD_NAMESPACE
        String lease = DeployFiles.flag(c, "--leader-follow").orElseThrow();
        String name = DeployFiles.flag(c, "--scheduler-name").orElseThrow();
        Files.createDirectories(dir);
        Path caFile = Files.writeString(dir.resolve("ca.crt"), plane.ca().certificatePem());
        // The certificate certgen writes: for the Service's name, which kube-scheduler's tlsConfig.serverName names.
        Path cert = plane.ca()
                .serving(HamiScheduler.SCHEDULER_NAME, List.of(HamiScheduler.SCHEDULER_NAME, "127.0.0.1", "localhost"))
                .writeTo(dir, "tls");
        var settings = new SchedulerApp.Settings(
                new Settings.Http(new InetSocketAddress("127.0.0.1", 0), cert, dir.resolve("tls.key")),
                new Settings.Scheduling(
                        name,
                        new SchedulingPolicy(
                                DeployFiles.flag(c, "--node-scheduler-policy").orElseThrow(),
                                DeployFiles.flag(c, "--gpu-scheduler-policy").orElseThrow()),
                        DeployFiles.duration(
                                DeployFiles.flag(c, "--node-lock-timeout").orElseThrow()),
                        deviceConfig()),
                new Settings.Replica(new LeaderMode.Follow(namespace, lease, POD_NAME), handshakePeriod),
                new Settings.Metrics(new InetSocketAddress("127.0.0.1", 0), "e2e"));
        var registry = new PrometheusRegistry();
        return new DeployedScheduler(
                SchedulerApp.start(client, settings, registry, Clock.systemUTC()), registry, caFile, namespace, lease);
    }

    /** Starts kube-scheduler with deploy/'s configuration, leader election on, as {@code identity}. */
    public KubeSchedulerProcess startKubeScheduler(KubeControlPlane plane, Config identity) {
        kubeScheduler = plane.startKubeScheduler(
                KubeSchedulerConfig.extender(url, caFile).withIdentity(identity).withLeaderElection(true));
        return kubeScheduler;
    }

    public SchedulerApp app() {
        return app;
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    public KubeSchedulerProcess kubeScheduler() {
        return kubeScheduler;
    }

    public String url() {
        return url;
    }

    public String leaseNamespace() {
        return leaseNamespace;
    }

    public String leaseName() {
        return leaseName;
    }

    /** {@code /metrics} as the Deployment's metrics port serves it. */
    public String metricsUrl() {
        return "http://127.0.0.1:" + app.metricsAddress().getPort() + "/metrics";
    }

    private static String hostname() {
        // Go's os.Hostname() reads the kernel's name, as this does; InetAddress may answer a resolver's name instead.
        try {
            Path kernel = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernel)) {
                return Files.readString(kernel).strip();
            }
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (kubeScheduler != null) {
            kubeScheduler.close();
        }
        app.close();
    }
}
