package io.hami.plugin.metrics;

import io.grpc.Status;
import io.hami.kube.events.PodEvents;
import io.hami.plugin.health.HealthBoard;
import io.hami.plugin.register.NodeWriteObserver;
import io.hami.plugin.registration.RegistrationObserver;
import io.hami.plugin.server.ServerObserver;
import io.hami.plugin.spi.PhysicalDevice;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One plugin's Prometheus metrics ({@code hami_plugin_*}, every series labelled with the node and the backend):
 * Allocate latency and outcomes, kubelet registrations, ListAndWatch lists sent, register-annotation writes,
 * handshake answers, Warning events not written, whether the vendor library can be used, and per card its health,
 * read from the {@link HealthBoard} at each scrape.
 */
public final class PluginMetrics implements ServerObserver, RegistrationObserver, NodeWriteObserver {
    /** Kubelet calls wait on the API server (about 6 ms) and, when the pod is ambiguous, up to the 3 s wait. */
    private static final double[] ALLOCATE_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    private final PrometheusRegistry registry;
    private final String node;
    private final String backend;
    private final Histogram allocateDuration;
    private final Counter allocations;
    private final Counter registrations;
    private final Counter listUpdates;
    private final Counter registerWrites;
    private final Counter handshakeAnswers;
    private final Counter eventsNotWritten;
    private final Gauge libraryUsable;
    /** The card gauge of the last start; replaced when a plugin waiting for its library starts again. */
    private GaugeWithCallback cardHealth;

    public PluginMetrics(PrometheusRegistry registry, String node, String backend) {
        this.registry = registry;
        this.node = node;
        this.backend = backend;
        allocateDuration = Histogram.builder()
                .name("hami_plugin_allocate_duration_seconds")
                .help("Time of one Allocate call of the kubelet, by resource and outcome")
                .labelNames("node", "backend", "resource", "outcome")
                .classicOnly()
                .classicUpperBounds(ALLOCATE_BUCKETS)
                .register(registry);
        allocations = Counter.builder()
                .name("hami_plugin_allocations_total")
                .help("Allocate calls by outcome (granted, refused, error) and gRPC status code")
                .labelNames("node", "backend", "resource", "outcome", "code")
                .register(registry);
        registrations = Counter.builder()
                .name("hami_plugin_kubelet_registrations_total")
                .help("Register calls to the kubelet, accepted or failed (failed ones are retried)")
                .labelNames("node", "backend", "resource", "outcome")
                .register(registry);
        listUpdates = Counter.builder()
                .name("hami_plugin_list_and_watch_updates_total")
                .help("Device lists sent to the kubelet on ListAndWatch (the first one, then one per health change)")
                .labelNames("node", "backend", "resource")
                .register(registry);
        registerWrites = Counter.builder()
                .name("hami_plugin_register_annotation_writes_total")
                .help("Patches of the Node's register annotation, written or failed")
                .labelNames("node", "backend", "outcome")
                .register(registry);
        handshakeAnswers = Counter.builder()
                .name("hami_plugin_handshake_answers_total")
                .help("Answers to the scheduler's handshake request on the Node, written or failed")
                .labelNames("node", "backend", "outcome")
                .register(registry);
        eventsNotWritten = Counter.builder()
                .name("hami_plugin_event_write_failures_total")
                .help(
                        "Warning events on pods (refused Allocate calls) not written: dropped, or refused by the API server")
                .labelNames("node", "backend", "cause")
                .register(registry);
        libraryUsable = Gauge.builder()
                .name("hami_plugin_vendor_library_usable")
                .help("1 while the plugin uses its vendor library, 0 while it waits for one it can load and initialise")
                .labelNames("node", "backend")
                .register(registry);
    }

    /** Whether the vendor library could be loaded and initialised at the last attempt. */
    public void libraryUsable(boolean usable) {
        libraryUsable.labelValues(node, backend).set(usable ? 1 : 0);
    }

    /** Serves per card 1 while healthy, 0 while not, as {@code board} tells at each scrape. */
    public synchronized void watchHealth(List<PhysicalDevice> cards, HealthBoard board, String resource) {
        List<PhysicalDevice> copy = List.copyOf(cards);
        if (cardHealth != null) {
            registry.unregister(cardHealth);
        }
        cardHealth = GaugeWithCallback.builder()
                .name("hami_plugin_device_healthy")
                .help("1 while the card is healthy (listed Healthy to the kubelet), 0 while it is not")
                .labelNames("node", "backend", "resource", "device_index", "device_uuid")
                .callback(callback -> {
                    for (PhysicalDevice card : copy) {
                        callback.call(
                                board.isHealthy(card.index()) ? 1 : 0,
                                node,
                                backend,
                                resource,
                                Integer.toString(card.index()),
                                card.uuid());
                    }
                })
                .register(registry);
    }

    @Override
    public void allocated(String resource, Status.Code code, Duration took) {
        String outcome = outcome(code);
        allocateDuration.labelValues(node, backend, resource, outcome).observe(took.toNanos() / 1e9);
        allocations.labelValues(node, backend, resource, outcome, code.name()).inc();
    }

    /**
     * {@code granted} for OK; {@code refused} when the call was turned down on purpose (no pod it can be for, an
     * ambiguous node, a bad request, the kubelet cancelled, the pod kept changing); {@code error} when something
     * failed (the API server, the vendor library, an unexpected exception).
     */
    static String outcome(Status.Code code) {
        return switch (code) {
            case OK -> "granted";
            case INVALID_ARGUMENT, FAILED_PRECONDITION, CANCELLED, ABORTED -> "refused";
            default -> "error";
        };
    }

    /** A Warning event was not written ({@code dropped}: queue full; {@code api_error}: the API server). */
    public void eventNotWritten(PodEvents.NotWritten why) {
        eventsNotWritten
                .labelValues(node, backend, why.name().toLowerCase(Locale.ROOT))
                .inc();
    }

    @Override
    public void listSent(String resource) {
        listUpdates.labelValues(node, backend, resource).inc();
    }

    @Override
    public void registered(String resource, boolean accepted) {
        registrations
                .labelValues(node, backend, resource, accepted ? "accepted" : "failed")
                .inc();
    }

    @Override
    public void registerWritten(boolean written) {
        registerWrites
                .labelValues(node, backend, written ? "written" : "failed")
                .inc();
    }

    @Override
    public void handshakeAnswered(boolean answered) {
        handshakeAnswers
                .labelValues(node, backend, answered ? "answered" : "failed")
                .inc();
    }
}
