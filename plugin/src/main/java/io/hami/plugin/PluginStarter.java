package io.hami.plugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.events.PodEvents;
import io.hami.kube.lock.NodeLockClient;
import io.hami.nativebind.NativeLibraryException;
import io.hami.nativebind.VendorStatusException;
import io.hami.plugin.allocate.EntryAllocation;
import io.hami.plugin.allocate.InstanceReaper;
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
import io.hami.protocol.spi.DeviceBackends;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts one {@link PluginApp}, a step each: the vendor library, its health, the kubelet servers (one per resource,
 * with their Allocate), their registration with the kubelet, then the vendor's annotations on the Node. What a step
 * opened is closed, newest first, when a later one fails; once started, the app closes it. One start per instance.
 */
final class PluginStarter {
    private static final Logger LOG = LoggerFactory.getLogger(PluginStarter.class);
    /** The plugin only reads and releases the node lock; the timeout matters to the scheduler, which takes it. */
    private static final Duration LOCK_TIMEOUT = Duration.ofMinutes(5);
    /** The source of the events the plugins write. */
    static final String EVENT_COMPONENT = "hami-device-plugin";

    private final KubernetesClient client;
    private final PluginApp.Settings s;
    private final Clock clock;
    private final DeviceBackends backends;
    private final PluginMetrics metrics;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Whether the library could be used is recorded in {@code metrics}. */
    PluginStarter(
            KubernetesClient client,
            PluginApp.Settings settings,
            Clock clock,
            DeviceBackends backends,
            PluginMetrics metrics) {
        this.client = client;
        this.s = settings;
        this.clock = clock;
        this.backends = backends;
        this.metrics = metrics;
    }

    /** {@code registry} served at {@code bind}, when present; a port in use is a start failure naming the flag. */
    static Optional<MetricsEndpoint> metricsEndpoint(Optional<InetSocketAddress> bind, PrometheusRegistry registry)
            throws PluginStartException {
        if (bind.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MetricsEndpoint.start(bind.get(), registry));
        } catch (IOException e) {
            throw new PluginStartException(
                    "cannot serve metrics on " + bind.get() + " (--metrics-bind-address): " + e.getMessage(), e);
        }
    }

    static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /** Runs the steps; {@code endpoint}, when present, is closed with the app, or at once when the start fails. */
    PluginApp start(Optional<MetricsEndpoint> endpoint) throws PluginStartException {
        endpoint.ifPresent(opened::push);
        try {
            VendorPlugin vendor = library();
            HealthBoard board = health(vendor);
            UnixSockets sockets = own(new UnixSockets());
            RegistrationSupervisor registration = registration(servers(vendor, board, sockets), sockets);
            Optional<RegisterLoop> register = nodeAnnotations(vendor, board);
            LOG.info(
                    "{} plugin on node {}: {} devices, resources {}",
                    s.backend(),
                    s.nodeName(),
                    vendor.devices().size(),
                    vendor.resources().stream().map(KubeletResource::name).toList());
            endpoint.ifPresent(m -> LOG.info("metrics on http://{}/metrics", hostPort(m.address())));
            metrics.libraryUsable(true);
            return new PluginApp(vendor, registration, register, endpoint.map(MetricsEndpoint::address), opened);
        } catch (NativeLibraryException | VendorStatusException e) {
            PluginApp.closeAll(opened);
            metrics.libraryUsable(false);
            throw new PluginStartException(
                    "the " + s.backend() + " plugin cannot use its vendor library: " + e.getMessage(), e);
        } catch (PluginStartException | RuntimeException e) {
            PluginApp.closeAll(opened);
            throw e;
        }
    }

    /** Opens the vendor library; a library that reports no devices is a start failure. */
    private VendorPlugin library() throws PluginStartException {
        VendorPlugin vendor = own(VendorPlugins.load()
                .byName(s.backend())
                .open(new VendorSettings(
                        s.nodeName(),
                        s.library(),
                        backends,
                        s.deviceConfig(),
                        s.sharing(),
                        s.paths(),
                        s.topologyScore())));
        if (vendor.devices().isEmpty()) {
            throw new PluginStartException(
                    "the " + s.backend() + " library reports no devices on node " + s.nodeName());
        }
        return vendor;
    }

    /** The cards' health, watched from the vendor's source and read by the metrics at each scrape. */
    private HealthBoard health(VendorPlugin vendor) {
        HealthBoard board = new HealthBoard();
        metrics.watchHealth(vendor.devices(), board, countResource(vendor.resources()));
        own(HealthWatcher.start(
                vendor.openHealth(),
                board,
                vendor.devices().stream().map(PhysicalDevice::index).toList(),
                s.timings().healthWait(),
                vendor.backend().vendor()));
        return board;
    }

    /** A gRPC server per kubelet resource, on its socket: its device list and its Allocate. */
    private List<Endpoint> servers(VendorPlugin vendor, HealthBoard board, UnixSockets sockets) {
        List<String> everyToAllocateKey =
                backends.all().stream().map(b -> b.keys().toAllocateKey()).toList();
        NodeLockClient locks = new NodeLockClient(client, LOCK_TIMEOUT, clock);
        InstanceReaper reaper = own(new InstanceReaper(client, s.nodeName(), vendor));
        reaper.start(s.timings().socketCheck());
        // Advisory: PodEvents logs what it cannot write, and the metrics count it.
        PodEvents events = own(new PodEvents(
                client,
                EVENT_COMPONENT,
                s.nodeName(),
                clock,
                PodEvents.writer("hami-plugin-events", 100),
                Duration.ofSeconds(2),
                metrics::eventNotWritten));
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
            DevicePluginService service =
                    new DevicePluginService(r.name(), new DeviceListFeed(r, vendor.devices(), board), handler, metrics);
            endpoints.add(new Endpoint(
                    r.name(),
                    new ResourceServer(s.devicePluginDir().resolve(r.socketName()), service, sockets),
                    service.options()));
        }
        return endpoints;
    }

    /** Registers every server with the kubelet, and again whenever the kubelet or a socket is new. */
    private RegistrationSupervisor registration(List<Endpoint> endpoints, UnixSockets sockets) {
        RegistrationSupervisor registration = own(new RegistrationSupervisor(
                endpoints,
                new KubeletRegistrar(s.devicePluginDir(), sockets),
                s.timings().registrationRetry(),
                s.timings().socketCheck(),
                metrics));
        registration.start();
        return registration;
    }

    /** The register loop, and the handshake answer where the vendor has one; empty for vendors that publish none. */
    private Optional<RegisterLoop> nodeAnnotations(VendorPlugin vendor, HealthBoard board) {
        var publisher = vendor.publisher();
        if (publisher.isEmpty()) {
            return Optional.empty();
        }
        RegisterLoop register = own(new RegisterLoop(
                client,
                s.nodeName(),
                vendor.backend().keys(),
                publisher.get(),
                board,
                s.timings().registerPeriod(),
                s.timings().registerRetry(),
                metrics));
        register.start();
        var handshakeKey = vendor.backend().keys().handshakeKey();
        if (publisher.get().answersHandshake() && handshakeKey.isPresent()) {
            own(new HandshakeResponder(client, s.nodeName(), handshakeKey.get(), clock, metrics))
                    .start(s.timings().handshakePoll());
        }
        return Optional.of(register);
    }

    /** Keeps {@code resource} to close with the app, or when a later step fails. */
    private <T extends AutoCloseable> T own(T resource) {
        opened.push(resource);
        return resource;
    }

    /** The resource the cards are counted in (the one that consumes the scheduler's entries), for the health gauge. */
    private static String countResource(List<KubeletResource> resources) {
        return resources.stream()
                .filter(KubeletResource::consumesEntries)
                .findFirst()
                .orElse(resources.getFirst())
                .name();
    }

    /** Kubelet device ID to card, over one resource's replicas. */
    private static Map<String, PhysicalDevice> replicaCards(KubeletResource r, List<PhysicalDevice> cards) {
        Map<String, PhysicalDevice> map = new HashMap<>();
        for (PhysicalDevice card : cards) {
            r.replicas().apply(card).forEach(id -> map.put(id, card));
        }
        return Map.copyOf(map);
    }
}
