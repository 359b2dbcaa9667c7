package io.hami.kube.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Core v1 events on pods, as the scheduler and the plugins write them so that {@code kubectl describe pod} says
 * why, and on a plugin's Node ({@link #emitOnNode}) for what concerns the whole node. Events are advisory: they are written on one background thread from a bounded queue, so a slow or failing
 * API server never delays or fails the call that reports; what cannot be queued or written is logged and reported
 * to the owner's counter.
 */
public final class PodEvents implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PodEvents.class);
    /** The limit events.k8s.io/v1 puts on a note; core events are read through it too. */
    public static final int MESSAGE_LIMIT = 1024;
    /** Where the kubelet writes the events of its Node (a Node has no namespace, an event needs one). */
    public static final String NODE_EVENT_NAMESPACE = "default";

    /** Why an event was not written. */
    public enum NotWritten {
        /** The queue was full or the writer closed. */
        DROPPED,
        /** The API server refused or did not answer. */
        API_ERROR
    }

    private final KubernetesClient client;
    private final String component;
    private final String host;
    private final Clock clock;
    private final ExecutorService writer;
    private final Duration closeWait;
    private final Consumer<NotWritten> notWritten;
    /** Last nanosecond used in an event name: names must be unique even for events created in the same instant. */
    private final AtomicLong lastNanos = new AtomicLong();

    /**
     * @param component  the events' source and reporting component
     * @param host       the source host (a plugin's node), or null
     * @param writer     must reject (not block or run in the caller) when it cannot take more work; see {@link #writer}
     * @param closeWait  how long {@link #close} lets queued events be written
     * @param notWritten told about each event not written
     */
    public PodEvents(
            KubernetesClient client,
            String component,
            String host,
            Clock clock,
            ExecutorService writer,
            Duration closeWait,
            Consumer<NotWritten> notWritten) {
        this.client = Objects.requireNonNull(client);
        this.component = Objects.requireNonNull(component);
        this.host = host;
        this.clock = Objects.requireNonNull(clock);
        this.writer = Objects.requireNonNull(writer);
        this.closeWait = Objects.requireNonNull(closeWait);
        this.notWritten = Objects.requireNonNull(notWritten);
    }

    /** One daemon thread named {@code thread} with a queue of {@code capacity} events that rejects when full. */
    public static ExecutorService writer(String thread, int capacity) {
        return new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(capacity),
                Thread.ofPlatform().name(thread).daemon().factory(),
                new ThreadPoolExecutor.AbortPolicy());
    }

    /** Whether {@code pod} can carry an event: an event names its object by namespace and name. */
    public static boolean attachable(Pod pod) {
        return pod != null
                && pod.getMetadata() != null
                && pod.getMetadata().getName() != null
                && pod.getMetadata().getNamespace() != null;
    }

    /** Queues one event on {@code pod} ({@code type} Normal or Warning); never throws. */
    public void emit(Pod pod, String type, String reason, String message) {
        if (!attachable(pod)) {
            return;
        }
        ObjectMeta meta = pod.getMetadata();
        ObjectReference involved = new ObjectReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withNamespace(meta.getNamespace())
                .withName(meta.getName())
                .withUid(meta.getUid())
                .withResourceVersion(meta.getResourceVersion())
                .build();
        queue(
                event(meta.getName(), meta.getNamespace(), involved, type, reason, message),
                "pod " + meta.getNamespace() + "/" + meta.getName());
    }

    /**
     * Queues one event on Node {@code node} ({@code uid} null when unknown); never throws. As the kubelet writes
     * node events: in namespace {@code default}, the involved object without a namespace, its UID the node's name
     * when the node's own is not known ({@code kubectl describe node} finds either).
     */
    public void emitOnNode(String node, String uid, String type, String reason, String message) {
        ObjectReference involved = new ObjectReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .withUid(uid == null ? node : uid)
                .build();
        queue(event(node, NODE_EVENT_NAMESPACE, involved, type, reason, message), "node " + node);
    }

    private void queue(Event event, String object) {
        try {
            writer.execute(() -> write(event));
        } catch (RejectedExecutionException e) {
            notWritten.accept(NotWritten.DROPPED);
            LOG.warn("event {} for {} dropped: queue full or writer closed", event.getReason(), object);
        }
    }

    private void write(Event event) {
        try {
            client.v1()
                    .events()
                    .inNamespace(event.getMetadata().getNamespace())
                    .resource(event)
                    .create();
        } catch (RuntimeException e) {
            notWritten.accept(NotWritten.API_ERROR);
            LOG.warn(
                    "event {} for {} {} not written: {}",
                    event.getReason(),
                    event.getInvolvedObject().getKind(),
                    event.getInvolvedObject().getName(),
                    e.getMessage());
        }
    }

    private Event event(
            String objectName, String namespace, ObjectReference involved, String type, String reason, String message) {
        Instant now = clock.instant();
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        long unique = lastNanos.accumulateAndGet(nanos, (last, n) -> Math.max(last + 1, n));
        String timestamp = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
        return new EventBuilder()
                // client-go's naming: <object>.<unix nanos in hex>
                .withNewMetadata()
                .withName(objectName + "." + Long.toHexString(unique))
                .withNamespace(namespace)
                .endMetadata()
                .withInvolvedObject(involved)
                .withType(type)
                .withReason(reason)
                .withMessage(truncate(message))
                .withNewSource()
                .withComponent(component)
                .withHost(host)
                .endSource()
                .withReportingComponent(component)
                .withReportingInstance(host)
                .withFirstTimestamp(timestamp)
                .withLastTimestamp(timestamp)
                .withCount(1)
                .build();
    }

    /** {@code message} cut to {@link #MESSAGE_LIMIT} characters, ending in "..." when cut. */
    public static String truncate(String message) {
        return message.length() <= MESSAGE_LIMIT ? message : message.substring(0, MESSAGE_LIMIT - 3) + "...";
    }

    /** Writes what is queued, waiting at most {@code closeWait}; what is left then is dropped with a log line. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(closeWait.toMillis(), TimeUnit.MILLISECONDS)) {
                int left = writer.shutdownNow().size();
                for (int i = 0; i < left; i++) {
                    notWritten.accept(NotWritten.DROPPED);
                }
                LOG.warn("{} {} events not written before shutdown", left, component);
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
