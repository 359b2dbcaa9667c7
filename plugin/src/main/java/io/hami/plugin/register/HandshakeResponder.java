package io.hami.plugin.register;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.protocol.codec.Handshake;
import io.hami.protocol.codec.HandshakeCodec;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the scheduler's handshake (design D2/D3, docs/design.md#d3): whenever the Node's handshake annotation reads
 * {@code Requesting_<time>}, it is replaced by {@code Reported_<now>} (UTC). Polled often enough to answer well
 * within the scheduler's 60 s window.
 */
public final class HandshakeResponder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HandshakeResponder.class);
    private static final String REQUESTING = Handshake.State.Requesting.name() + "_";

    private final KubernetesClient client;
    private final String node;
    private final String key;
    private final Clock clock;
    private final NodeWriteObserver observer;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("hami-handshake").daemon().factory());

    public HandshakeResponder(
            KubernetesClient client, String node, String key, Clock clock, NodeWriteObserver observer) {
        this.client = client;
        this.node = node;
        this.key = key;
        this.clock = clock;
        this.observer = observer;
    }

    public void start(Duration poll) {
        // A periodic task that throws is never run again: log and answer on the next poll.
        var unused = timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        answer();
                    } catch (RuntimeException e) {
                        LOG.error("node {}: handshake {} not answered, retrying next poll", node, key, e);
                    }
                },
                0,
                poll.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** One look at the Node; answers a pending request. */
    void answer() {
        String value;
        try {
            Node n = client.nodes().withName(node).get();
            Map<String, String> a = n == null ? null : n.getMetadata().getAnnotations();
            value = a == null ? null : a.get(key);
        } catch (KubernetesClientException e) {
            LOG.warn("node {}: handshake {} not read this time: {}", node, key, e.getMessage());
            return;
        }
        if (value == null || !value.startsWith(REQUESTING)) {
            return;
        }
        String reported = HandshakeCodec.encode(
                new Handshake(Handshake.State.Reported, LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)));
        try {
            client.nodes()
                    .withName(node)
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            AnnotationPatch.mergePatch(Map.of(key, reported), Map.of(), null));
        } catch (KubernetesClientException e) {
            observer.handshakeAnswered(false);
            LOG.warn("node {}: handshake {} not answered this time: {}", node, key, e.getMessage());
            return;
        }
        observer.handshakeAnswered(true);
        LOG.info("node {}: answered {}={} with {}", node, key, value, reported);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
