package io.hami.scheduler.events;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.events.PodEvents;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.fit.Denial;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;

/**
 * Writes upstream's scheduling events (docs/upstream.md#events) on the pod, so {@code kubectl describe pod}
 * says why HAMi did or did not place it, through {@link PodEvents} (advisory, written in the background): filter
 * and bind are never delayed or failed by them; what cannot be queued or written is logged and counted in
 * {@code hami_event_write_failures_total}. A contended or failed node lock gets no event of its own: it reaches
 * {@link #bindFailed} with its message. Filter outcomes go through an {@link EventGate}: one event per pod and outcome
 * (fit, no fit) in {@link #REPEAT_AFTER}, rate-limited over all pods, never one per filter call.
 */
public final class EventRecorder implements FilterObserver, BindObserver, AutoCloseable {
    static final String FILTERING_SUCCEED = "FilteringSucceed";
    static final String FILTERING_FAILED = "FilteringFailed";
    static final String BINDING_SUCCEED = "BindingSucceed";
    static final String BINDING_FAILED = "BindingFailed";
    static final String NORMAL = "Normal";
    static final String WARNING = "Warning";
    private static final int QUEUE_CAPACITY = 1000;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /** A pending pod's outcome is told again after this, as events expire (the API server keeps them an hour). */
    static final Duration REPEAT_AFTER = Duration.ofMinutes(15);
    /** Pods whose last filter events are remembered (about 100 bytes each). */
    static final int REMEMBERED = 50_000;
    /** Filter events per second over all pods, and how many may be written at once. */
    static final double FILTER_EVENTS_PER_SECOND = 20;

    static final int FILTER_EVENTS_BURST = 200;

    private final PodEvents events;
    private final EventGate gate;
    private final Counter failures;

    /**
     * @param schedulerName the events' source component ({@code --scheduler-name})
     * @param registry      where the write-failure counter is registered
     */
    public EventRecorder(KubernetesClient client, String schedulerName, PrometheusRegistry registry, Clock clock) {
        this(client, schedulerName, registry, clock, PodEvents.writer("hami-events", QUEUE_CAPACITY));
    }

    /** {@code writer} must reject (not block or run in the caller) when it cannot take more work. */
    EventRecorder(
            KubernetesClient client,
            String schedulerName,
            PrometheusRegistry registry,
            Clock clock,
            ExecutorService writer) {
        this.failures = Counter.builder()
                .name("hami_event_write_failures_total")
                .help(
                        "Scheduling events not written: dropped (queue full or recorder closed), api_error, or rate_limited "
                                + "(filter events over their rate)")
                .labelNames("cause")
                .register(registry);
        this.gate = new EventGate(clock, REPEAT_AFTER, REMEMBERED, FILTER_EVENTS_PER_SECOND, FILTER_EVENTS_BURST);
        // Upstream lists every node in a message; PodEvents cuts messages to the limit events.k8s.io/v1 puts on a note.
        this.events = new PodEvents(
                client,
                schedulerName,
                null,
                clock,
                writer,
                CLOSE_WAIT,
                cause -> failures.labelValues(cause.name().toLowerCase(Locale.ROOT))
                        .inc());
    }

    @Override
    public void filtered(Pod pod, List<String> fitting, Map<String, Denial> failed, Duration took) {
        if (!PodEvents.attachable(pod)) {
            return;
        }
        String outcome = fitting.isEmpty() ? FILTERING_FAILED : FILTERING_SUCCEED;
        switch (gate.admit(podKey(pod), outcome)) {
            case REPEAT -> {
                return;
            }
            case RATE_LIMITED -> {
                failures.labelValues("rate_limited").inc();
                return;
            }
            case WRITE -> {}
        }
        if (!fitting.isEmpty()) {
            // Upstream names its single choice and the scores; filter here returns every fitting node instead.
            emit(
                    pod,
                    NORMAL,
                    FILTERING_SUCCEED,
                    "find fit node(%s), %d nodes not fit, %d nodes fit(%s)"
                            .formatted(fitting.getFirst(), failed.size(), fitting.size(), String.join(",", fitting)));
            return;
        }
        // Upstream writes one event per reason kind, then this summary; one event carries them all here.
        var message = new StringBuilder("no available node, %d nodes do not meet".formatted(failed.size()));
        String separator = ": ";
        for (var kind : nodesByKind(failed).entrySet()) {
            message.append(separator)
                    .append("%d nodes %s(%s)"
                            .formatted(kind.getValue().size(), kind.getKey(), String.join(",", kind.getValue())));
            separator = "; ";
        }
        emit(pod, WARNING, FILTERING_FAILED, message.toString());
    }

    /** Reason kind ({@link Denial#labels}) to the sorted nodes denied for it, kinds sorted. */
    static Map<String, Set<String>> nodesByKind(Map<String, Denial> failed) {
        var out = new TreeMap<String, Set<String>>();
        failed.forEach((node, denial) -> denial.labels()
                .forEach(k -> out.computeIfAbsent(k, x -> new TreeSet<>()).add(node)));
        return out;
    }

    private static String podKey(Pod pod) {
        String uid = pod.getMetadata().getUid();
        return uid != null
                ? uid
                : pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    @Override
    public void bound(Pod pod, String node, Duration took) {
        if (!PodEvents.attachable(pod)) {
            return;
        }
        emit(
                pod,
                NORMAL,
                BINDING_SUCCEED,
                "Successfully binding node [%s] to %s/%s"
                        .formatted(
                                node,
                                pod.getMetadata().getNamespace(),
                                pod.getMetadata().getName()));
    }

    /** Without a pod there is nothing to attach the event to; kube-scheduler reports the bind error itself. */
    @Override
    public void bindFailed(Pod pod, String node, String message, Duration took) {
        emit(pod, WARNING, BINDING_FAILED, message);
    }

    private void emit(Pod pod, String type, String reason, String message) {
        events.emit(pod, type, reason, message);
    }

    @Override
    public void close() {
        events.close();
    }
}
