package io.hami.scheduler.events;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.events.PodEvents;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.metrics.DenialReasons;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Writes upstream's scheduling events (upstream-scheduler.md §8.3) on the pod, so {@code kubectl describe pod}
 * says why HAMi did or did not place it, through {@link PodEvents} (advisory, written in the background): filter
 * and bind are never delayed or failed by them; what cannot be queued or written is logged and counted in
 * {@code hami_event_write_failures_total}. A contended or failed node lock gets no event of its own: it reaches
 * {@link #bindFailed} with its message.
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

    private final PodEvents events;

    /**
     * @param schedulerName the events' source component ({@code --scheduler-name})
     * @param registry      where the write-failure counter is registered
     */
    public EventRecorder(KubernetesClient client, String schedulerName, PrometheusRegistry registry, Clock clock) {
        this(client, schedulerName, registry, clock, PodEvents.writer("hami-events", QUEUE_CAPACITY));
    }

    /** {@code writer} must reject (not block or run in the caller) when it cannot take more work. */
    EventRecorder(KubernetesClient client, String schedulerName, PrometheusRegistry registry, Clock clock,
                  ExecutorService writer) {
        Counter failures = Counter.builder().name("hami_event_write_failures_total")
                .help("Scheduling events not written: dropped (queue full or recorder closed) or api_error")
                .labelNames("cause").register(registry);
        // Upstream lists every node in a message; PodEvents cuts messages to the limit events.k8s.io/v1 puts on a note.
        this.events = new PodEvents(client, schedulerName, null, clock, writer, CLOSE_WAIT,
                cause -> failures.labelValues(cause.name().toLowerCase(Locale.ROOT)).inc());
    }

    @Override
    public void filtered(Pod pod, List<String> fitting, Map<String, String> failed, Duration took) {
        if (!fitting.isEmpty()) {
            // Upstream names its single choice and the scores; filter here returns every fitting node instead.
            emit(pod, NORMAL, FILTERING_SUCCEED, "find fit node(%s), %d nodes not fit, %d nodes fit(%s)"
                    .formatted(fitting.getFirst(), failed.size(), fitting.size(), String.join(",", fitting)));
            return;
        }
        DenialReasons.nodesByKind(failed).forEach((kind, nodes) ->
                emit(pod, WARNING, FILTERING_FAILED, "%d nodes %s(%s)".formatted(nodes.size(), kind, String.join(",", nodes))));
        emit(pod, WARNING, FILTERING_FAILED, "no available node, %d nodes do not meet".formatted(failed.size()));
    }

    @Override
    public void bound(Pod pod, String node, Duration took) {
        if (!PodEvents.attachable(pod)) {
            return;
        }
        emit(pod, NORMAL, BINDING_SUCCEED, "Successfully binding node [%s] to %s/%s"
                .formatted(node, pod.getMetadata().getNamespace(), pod.getMetadata().getName()));
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
