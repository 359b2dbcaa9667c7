package io.hami.scheduler.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.lock.LockOutcome;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.metrics.DenialReasons;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes upstream's scheduling events (upstream-scheduler.md §8.3) on the pod, so {@code kubectl describe pod}
 * says why HAMi did or did not place it. Events are advisory: they are written on one background thread from a
 * bounded queue, so a slow or failing API server never delays or fails filter and bind; what cannot be queued
 * or written is logged and counted in {@code hami_event_write_failures_total}.
 */
public final class EventRecorder implements FilterObserver, BindObserver, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);

    static final String FILTERING_SUCCEED = "FilteringSucceed";
    static final String FILTERING_FAILED = "FilteringFailed";
    static final String BINDING_SUCCEED = "BindingSucceed";
    static final String BINDING_FAILED = "BindingFailed";
    static final String NORMAL = "Normal";
    static final String WARNING = "Warning";
    /**
     * Upstream lists every node; in a large cluster that makes messages of many kilobytes. 1024 is the limit
     * events.k8s.io/v1 puts on a note.
     */
    static final int MESSAGE_LIMIT = 1024;
    private static final int QUEUE_CAPACITY = 1000;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final KubernetesClient client;
    private final String component;
    private final Clock clock;
    private final ExecutorService writer;
    private final Counter failures;
    /** Last nanosecond used in an event name: names must be unique even for events created in the same instant. */
    private final AtomicLong lastNanos = new AtomicLong();

    /**
     * @param schedulerName the events' source component ({@code --scheduler-name})
     * @param registry      where the write-failure counter is registered
     */
    public EventRecorder(KubernetesClient client, String schedulerName, PrometheusRegistry registry, Clock clock) {
        this(client, schedulerName, registry, clock, new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE_CAPACITY), Thread.ofPlatform().name("hami-events").daemon().factory(),
                new ThreadPoolExecutor.AbortPolicy()));
    }

    /** {@code writer} must reject (not block or run in the caller) when it cannot take more work. */
    EventRecorder(KubernetesClient client, String schedulerName, PrometheusRegistry registry, Clock clock,
                  ExecutorService writer) {
        this.client = client;
        this.component = schedulerName;
        this.clock = clock;
        this.writer = writer;
        this.failures = Counter.builder().name("hami_event_write_failures_total")
                .help("Scheduling events not written: dropped (queue full or recorder closed) or api_error")
                .labelNames("cause").register(registry);
    }

    @Override
    public void filtered(Pod pod, List<String> fitting, Map<String, String> failed, Duration took) {
        if (!attachable(pod)) {
            return;
        }
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
        if (!attachable(pod)) {
            return;
        }
        emit(pod, NORMAL, BINDING_SUCCEED, "Successfully binding node [%s] to %s/%s"
                .formatted(node, pod.getMetadata().getNamespace(), pod.getMetadata().getName()));
    }

    /** Without a pod there is nothing to attach the event to; kube-scheduler reports the bind error itself. */
    @Override
    public void bindFailed(Pod pod, String node, String message, Duration took) {
        if (attachable(pod)) {
            emit(pod, WARNING, BINDING_FAILED, message);
        }
    }

    /** No event: a contended or failed lock reaches {@link #bindFailed} with its message. */
    @Override
    public void lock(String node, LockOutcome outcome, Duration took) {
    }

    /** An event names its object by namespace and name; a pod without them gets none rather than an exception. */
    private static boolean attachable(Pod pod) {
        return pod != null && pod.getMetadata() != null && pod.getMetadata().getName() != null
                && pod.getMetadata().getNamespace() != null;
    }

    private void emit(Pod pod, String type, String reason, String message) {
        try {
            Event event = event(pod, type, reason, message);
            writer.execute(() -> write(event));
        } catch (RejectedExecutionException e) {
            failures.labelValues("dropped").inc();
            LOG.warn("event {} for pod {}/{} dropped: queue full or recorder closed", reason,
                    pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        }
    }

    private void write(Event event) {
        try {
            client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
        } catch (RuntimeException e) {
            failures.labelValues("api_error").inc();
            LOG.warn("event {} for pod {}/{} not written: {}", event.getReason(), event.getInvolvedObject().getNamespace(),
                    event.getInvolvedObject().getName(), e.getMessage());
        }
    }

    private Event event(Pod pod, String type, String reason, String message) {
        ObjectMeta meta = pod.getMetadata();
        Instant now = clock.instant();
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        long unique = lastNanos.accumulateAndGet(nanos, (last, n) -> Math.max(last + 1, n));
        String timestamp = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
        return new EventBuilder()
                // client-go's naming: <object>.<unix nanos in hex>
                .withNewMetadata().withName(meta.getName() + "." + Long.toHexString(unique))
                .withNamespace(meta.getNamespace()).endMetadata()
                .withNewInvolvedObject().withApiVersion("v1").withKind("Pod").withNamespace(meta.getNamespace())
                .withName(meta.getName()).withUid(meta.getUid()).withResourceVersion(meta.getResourceVersion())
                .endInvolvedObject()
                .withType(type).withReason(reason).withMessage(truncate(message))
                .withNewSource().withComponent(component).endSource()
                .withReportingComponent(component)
                .withFirstTimestamp(timestamp).withLastTimestamp(timestamp).withCount(1)
                .build();
    }

    static String truncate(String message) {
        return message.length() <= MESSAGE_LIMIT ? message : message.substring(0, MESSAGE_LIMIT - 3) + "...";
    }

    /** Writes what is queued, waiting at most a few seconds; what is left then is dropped with a log line. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                int left = writer.shutdownNow().size();
                failures.labelValues("dropped").inc(left);
                LOG.warn("{} scheduling events not written before shutdown", left);
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
