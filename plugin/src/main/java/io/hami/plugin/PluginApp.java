package io.hami.plugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.client.KubeClients;
import io.hami.kube.events.PodEvents;
import io.hami.kube.lock.NodeLockClient;
import io.hami.nativebind.NativeLibraryException;
import io.hami.nativebind.VendorStatusException;
import io.hami.plugin.allocate.EntryAllocation;
import io.hami.plugin.allocate.InstanceReaper;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.plugin.health.HealthBoard;
import io.hami.plugin.health.HealthWatcher;
import io.hami.plugin.metrics.MetricsEndpoint;
import io.hami.plugin.metrics.PluginMetrics;
import io.hami.plugin.register.HandshakeResponder;
import io.hami.plugin.register.RegisterLoop;
import io.hami.plugin.registration.Endpoint;
import io.hami.plugin.registration.KubeletRegistrar;
import io.hami.plugin.registration.RegistrationSupervisor;
import io.hami.plugin.server.AllocationHandler;
import io.hami.plugin.server.CapacityAllocation;
import io.hami.plugin.server.DeviceListFeed;
import io.hami.plugin.server.DevicePluginService;
import io.hami.plugin.server.ResourceServer;
import io.hami.plugin.server.UnixSockets;
import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorSettings;
import io.hami.plugin.vendor.VendorPlugins;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One device-plugin process for one vendor: the vendor library, a gRPC server per kubelet resource on its Unix
 * socket, kubelet registration kept alive, health watch, Allocate, and the register loop and handshake where
 * the vendor publishes on its Node. {@link #close()} stops everything and removes the sockets.
 */
public final class PluginApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PluginApp.class);
    /** The plugin only reads and releases the node lock; the timeout matters to the scheduler, which takes it. */
    private static final Duration LOCK_TIMEOUT = Duration.ofMinutes(5);
    /** The source of the events the plugins write. */
    static final String EVENT_COMPONENT = "hami-device-plugin";

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
    private final RegisterLoop register;
    private final Optional<InetSocketAddress> metricsAddress;
    private final Deque<AutoCloseable> resources;

    private PluginApp(
            VendorPlugin vendor,
            RegistrationSupervisor registration,
            RegisterLoop register,
            Optional<InetSocketAddress> metricsAddress,
            Deque<AutoCloseable> resources) {
        this.vendor = vendor;
        this.registration = registration;
        this.register = register;
        this.metricsAddress = metricsAddress;
        this.resources = resources;
    }

    /** As {@link #start(Settings, Optional)} without serving metrics. */
    public static PluginApp start(Settings settings) throws PluginStartException {
        return start(settings, Optional.empty());
    }

    /**
     * Connects to the cluster of {@code settings.kubeconfig()} and starts, serving {@code /metrics} at
     * {@code metricsBind} when present; the client is closed with the app.
     */
    public static PluginApp start(Settings settings, Optional<InetSocketAddress> metricsBind)
            throws PluginStartException {
        KubernetesClient client;
        try {
            client = KubeClients.connect(settings.kubeconfig());
        } catch (IOException e) {
            throw new PluginStartException("cannot connect to the cluster: " + e.getMessage(), e);
        }
        try {
            PluginApp app = start(client, settings, Clock.systemUTC(), metricsBind);
            app.resources.push(client);
            return app;
        } catch (PluginStartException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** Starts with {@code client}, which the caller keeps and closes; metrics are recorded but not served. */
    public static PluginApp start(KubernetesClient client, Settings s, Clock clock) throws PluginStartException {
        return start(client, s, clock, Optional.empty());
    }

    /** Starts with {@code client}, which the caller keeps and closes, serving metrics at {@code metricsBind}. */
    public static PluginApp start(
            KubernetesClient client, Settings s, Clock clock, Optional<InetSocketAddress> metricsBind)
            throws PluginStartException {
        DeviceBackends backends = DeviceBackends.load(s.deviceConfig());
        PrometheusRegistry registry = new PrometheusRegistry();
        PluginMetrics metrics = new PluginMetrics(registry, s.nodeName(), s.backend());
        // Bound first: a port in use fails the start before the vendor library is opened.
        Optional<MetricsEndpoint> endpoint = serve(metricsBind, registry);
        try {
            return start(client, s, clock, backends, metrics, endpoint);
        } catch (PluginStartException | RuntimeException e) {
            endpoint.ifPresent(MetricsEndpoint::close);
            throw e;
        }
    }

    /**
     * Opens the vendor library and starts on it; {@code endpoint} (when present) is closed with the app. Whether the
     * library could be used is recorded in {@code metrics} either way.
     */
    static PluginApp start(
            KubernetesClient client,
            Settings s,
            Clock clock,
            DeviceBackends backends,
            PluginMetrics metrics,
            Optional<MetricsEndpoint> endpoint)
            throws PluginStartException {
        try {
            PluginApp app = open(client, s, clock, backends, metrics, endpoint);
            metrics.libraryUsable(true);
            return app;
        } catch (PluginStartException e) {
            if (e.vendorLibrary()) {
                metrics.libraryUsable(false);
            }
            throw e;
        }
    }

    private static PluginApp open(
            KubernetesClient client,
            Settings s,
            Clock clock,
            DeviceBackends backends,
            PluginMetrics metrics,
            Optional<MetricsEndpoint> endpoint)
            throws PluginStartException {
        VendorPlugin vendor;
        try {
            vendor = VendorPlugins.load()
                    .byName(s.backend())
                    .open(new VendorSettings(
                            s.nodeName(),
                            s.library(),
                            backends,
                            s.deviceConfig(),
                            s.sharing(),
                            s.paths(),
                            s.topologyScore()));
        } catch (NativeLibraryException | VendorStatusException e) {
            throw new PluginStartException(
                    "the " + s.backend() + " plugin cannot use its vendor library: " + e.getMessage(), e);
        }
        Deque<AutoCloseable> opened = new ArrayDeque<>();
        endpoint.ifPresent(opened::push);
        opened.push(vendor);
        try {
            if (vendor.devices().isEmpty()) {
                throw new PluginStartException(
                        "the " + s.backend() + " library reports no devices on node " + s.nodeName());
            }
            HealthBoard board = new HealthBoard();
            metrics.watchHealth(vendor.devices(), board, countResource(vendor.resources()));
            opened.push(HealthWatcher.start(
                    vendor.openHealth(),
                    board,
                    vendor.devices().stream().map(PhysicalDevice::index).toList(),
                    s.timings().healthWait(),
                    vendor.backend().vendor()));
            UnixSockets sockets = new UnixSockets();
            opened.push(sockets);
            List<String> everyToAllocateKey =
                    backends.all().stream().map(b -> b.keys().toAllocateKey()).toList();
            NodeLockClient locks = new NodeLockClient(client, LOCK_TIMEOUT, clock);
            InstanceReaper reaper = new InstanceReaper(client, s.nodeName(), vendor);
            opened.push(reaper);
            reaper.start(s.timings().socketCheck());
            // Advisory: PodEvents logs what it cannot write, and the metrics count it.
            PodEvents events = new PodEvents(
                    client,
                    EVENT_COMPONENT,
                    s.nodeName(),
                    clock,
                    PodEvents.writer("hami-plugin-events", 100),
                    Duration.ofSeconds(2),
                    metrics::eventNotWritten);
            opened.push(events);
            List<Endpoint> endpoints = new ArrayList<>();
            for (KubeletResource r : vendor.resources()) {
                AllocationHandler handler = r.consumesEntries()
                        ? new EntryAllocation(
                                client,
                                locks,
                                s.nodeName(),
                                vendor,
                                r.name(),
                                replicaCards(r, vendor.devices()),
                                everyToAllocateKey,
                                s.timings().ambiguityWait(),
                                reaper::reap,
                                events)
                        : new CapacityAllocation();
                DevicePluginService service = new DevicePluginService(
                        r.name(), new DeviceListFeed(r, vendor.devices(), board), handler, metrics);
                endpoints.add(new Endpoint(
                        r.name(),
                        new ResourceServer(s.devicePluginDir().resolve(r.socketName()), service, sockets),
                        service.options()));
            }
            RegistrationSupervisor registration = new RegistrationSupervisor(
                    endpoints,
                    new KubeletRegistrar(s.devicePluginDir(), sockets),
                    s.timings().registrationRetry(),
                    s.timings().socketCheck(),
                    metrics);
            opened.push(registration);
            registration.start();
            RegisterLoop register = null;
            var publisher = vendor.publisher();
            if (publisher.isPresent()) {
                register = new RegisterLoop(
                        client,
                        s.nodeName(),
                        vendor.backend().keys(),
                        publisher.get(),
                        board,
                        s.timings().registerPeriod(),
                        s.timings().registerRetry(),
                        metrics);
                opened.push(register);
                register.start();
                var handshakeKey = vendor.backend().keys().handshakeKey();
                if (publisher.get().answersHandshake() && handshakeKey.isPresent()) {
                    HandshakeResponder handshake =
                            new HandshakeResponder(client, s.nodeName(), handshakeKey.get(), clock, metrics);
                    opened.push(handshake);
                    handshake.start(s.timings().handshakePoll());
                }
            }
            LOG.info(
                    "{} plugin on node {}: {} devices, resources {}",
                    s.backend(),
                    s.nodeName(),
                    vendor.devices().size(),
                    vendor.resources().stream().map(KubeletResource::name).toList());
            if (endpoint.isPresent()) {
                LOG.info("metrics on http://{}/metrics", hostPort(endpoint.get().address()));
            }
            return new PluginApp(vendor, registration, register, endpoint.map(MetricsEndpoint::address), opened);
        } catch (PluginStartException | RuntimeException e) {
            closeAll(opened);
            if (e instanceof NativeLibraryException || e instanceof VendorStatusException) {
                throw new PluginStartException(
                        "the " + s.backend() + " plugin cannot use its vendor library: " + e.getMessage(), e);
            }
            throw e;
        }
    }

    /** {@code registry} served at {@code metricsBind}, when present; a port in use is a start failure naming the flag. */
    static Optional<MetricsEndpoint> serve(Optional<InetSocketAddress> metricsBind, PrometheusRegistry registry)
            throws PluginStartException {
        if (metricsBind.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MetricsEndpoint.start(metricsBind.get(), registry));
        } catch (IOException e) {
            throw new PluginStartException(
                    "cannot serve metrics on " + metricsBind.get() + " (--metrics-bind-address): " + e.getMessage(), e);
        }
    }

    /** The resource the cards are counted in (the one that consumes the scheduler's entries), for the health gauge. */
    private static String countResource(List<KubeletResource> resources) {
        return resources.stream()
                .filter(KubeletResource::consumesEntries)
                .findFirst()
                .orElse(resources.getFirst())
                .name();
    }

    static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /** Kubelet device ID to card, over one resource's replicas. */
    private static Map<String, PhysicalDevice> replicaCards(KubeletResource r, List<PhysicalDevice> cards) {
        Map<String, PhysicalDevice> map = new HashMap<>();
        for (PhysicalDevice card : cards) {
            r.replicas().apply(card).forEach(id -> map.put(id, card));
        }
        return Map.copyOf(map);
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
        return register == null ? 0 : register.patches();
    }

    /** Cycles of the register loop run to their end (written, unchanged or failed); 0 for vendors without one. */
    public int registerCycles() {
        return register == null ? 0 : register.cycles();
    }

    /** Stops the servers (removing their sockets), the loops and the vendor library, newest first. */
    @Override
    public void close() {
        closeAll(resources);
    }

    private static void closeAll(Deque<AutoCloseable> opened) {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                LOG.warn("while stopping: {}", e.getMessage());
            }
        }
    }
}
