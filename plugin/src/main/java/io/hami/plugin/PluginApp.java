package io.hami.plugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.plugin.metrics.MetricsEndpoint;
import io.hami.plugin.metrics.PluginMetrics;
import io.hami.plugin.register.RegisterLoop;
import io.hami.plugin.registration.RegistrationSupervisor;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.vendor.VendorPlugins;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One device-plugin process for one vendor: the vendor library, a gRPC server per kubelet resource on its Unix
 * socket, kubelet registration kept alive, health watch, Allocate, and the register loop and handshake where
 * the vendor publishes on its Node, started step by step by {@link PluginStarter}. {@link #close()} stops everything
 * and removes the sockets.
 */
public final class PluginApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PluginApp.class);

    /**
     * @param backend         the name of a vendor's {@link io.hami.plugin.spi.VendorPluginFactory} on the class path,
     *                        e.g. {@code nvidia}
     * @param nodeName        this node (the CLI defaults it to env {@code NODE_NAME})
     * @param kubeconfig      a kubeconfig file, or null for in-cluster then {@code ~/.kube/config}
     * @param devicePluginDir the kubelet's device-plugin directory, holding {@code kubelet.sock}
     * @param library         the vendor library (file, or folder of files named by SONAME), or null for the SONAME
     * @param deviceConfig    resource names and NVIDIA's node defaults ({@code device-config.yaml})
     * @param sharing         split count and scalings over the vendor defaults (CLI, then the per-node file)
     * @param paths           host paths of device nodes and HAMi-core's folders
     * @param timings         periods and waits
     * @param topologyScore   NVIDIA: publish the GPU pair scores ({@code --topology-score}); the plugin also turns
     *                        them on for env {@code ENABLE_TOPOLOGY_SCORE=true}
     */
    public record Settings(
            String backend,
            String nodeName,
            Path kubeconfig,
            Path devicePluginDir,
            Path library,
            DeviceConfig deviceConfig,
            Sharing sharing,
            HostPaths paths,
            Timings timings,
            boolean topologyScore) {
        public static final Path DEFAULT_DEVICE_PLUGIN_DIR = Path.of("/var/lib/kubelet/device-plugins");

        /** Without the topology score (unless the environment asks for it). */
        public Settings(
                String backend,
                String nodeName,
                Path kubeconfig,
                Path devicePluginDir,
                Path library,
                DeviceConfig deviceConfig,
                Sharing sharing,
                HostPaths paths,
                Timings timings) {
            this(backend, nodeName, kubeconfig, devicePluginDir, library, deviceConfig, sharing, paths, timings, false);
        }

        public Settings {
            Objects.requireNonNull(backend, "backend");
            Objects.requireNonNull(devicePluginDir, "devicePluginDir");
            Objects.requireNonNull(deviceConfig, "deviceConfig");
            Objects.requireNonNull(sharing, "sharing");
            Objects.requireNonNull(paths, "paths");
            Objects.requireNonNull(timings, "timings");
            if (nodeName == null || nodeName.isBlank()) {
                throw new IllegalArgumentException("the node name is required: pass it or set NODE_NAME");
            }
            VendorPlugins.load().byName(backend);
        }
    }

    private final VendorPlugin vendor;
    private final RegistrationSupervisor registration;
    private final Optional<RegisterLoop> register;
    private final Optional<InetSocketAddress> metricsAddress;
    private final Deque<AutoCloseable> resources;

    /** What {@link PluginStarter} started; {@code resources} are closed with the app, newest first. */
    PluginApp(
            VendorPlugin vendor,
            RegistrationSupervisor registration,
            Optional<RegisterLoop> register,
            Optional<InetSocketAddress> metricsAddress,
            Deque<AutoCloseable> resources) {
        this.vendor = vendor;
        this.registration = registration;
        this.register = register;
        this.metricsAddress = metricsAddress;
        this.resources = resources;
    }

    /**
     * Starts one plugin with {@code client}, which the caller keeps and closes, serving {@code /metrics} at
     * {@code metricsBind} when present. The port is bound first, so a port in use fails the start before the vendor
     * library is opened.
     */
    public static PluginApp start(
            KubernetesClient client, Settings s, Clock clock, Optional<InetSocketAddress> metricsBind)
            throws PluginStartException {
        DeviceBackends backends = DeviceBackends.load(s.deviceConfig());
        PrometheusRegistry registry = new PrometheusRegistry();
        PluginMetrics metrics = new PluginMetrics(registry, s.nodeName(), s.backend());
        Optional<MetricsEndpoint> endpoint = PluginStarter.metricsEndpoint(metricsBind, registry);
        return new PluginStarter(client, s, clock, backends, metrics).start(endpoint);
    }

    /** As {@link #start(KubernetesClient, Settings, Clock, Optional)}, the metrics recorded but not served. */
    public static PluginApp start(KubernetesClient client, Settings s, Clock clock) throws PluginStartException {
        return start(client, s, clock, Optional.empty());
    }

    public VendorPlugin vendor() {
        return vendor;
    }

    /** Successful Register calls so far, over every resource. */
    public int registrations() {
        return registration.registrations();
    }

    /** Failed Register calls so far (no kubelet yet, or it refused), over every resource. */
    public int failedRegistrations() {
        return registration.failedRegistrations();
    }

    /** Rounds of the registration loop run to their end (each registers what is pending, then waits). */
    public int registrationRounds() {
        return registration.rounds();
    }

    /** Waits until every resource has been registered with the kubelet once. */
    public boolean awaitRegistered(Duration timeout) throws InterruptedException {
        return registration.awaitRegistered(timeout);
    }

    /** Where {@code /metrics} is served (the port chosen when 0 was asked for); empty when it is not. */
    public Optional<InetSocketAddress> metricsAddress() {
        return metricsAddress;
    }

    /** How often the register annotation was written; 0 for vendors without one. */
    public int registerPatches() {
        return register.map(RegisterLoop::patches).orElse(0);
    }

    /** Cycles of the register loop run to their end (written, unchanged or failed); 0 for vendors without one. */
    public int registerCycles() {
        return register.map(RegisterLoop::cycles).orElse(0);
    }

    /** Stops the servers (removing their sockets), the loops and the vendor library, newest first. */
    @Override
    public void close() {
        closeAll(resources);
    }

    static void closeAll(Deque<AutoCloseable> opened) {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                LOG.warn("while stopping: {}", e.getMessage());
            }
        }
    }
}
