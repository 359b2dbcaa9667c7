package io.hami.plugin.register;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.plugin.health.HealthBoard;
import io.hami.plugin.spi.InventoryPublisher;
import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.VendorKeys;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the vendor's inventory in its Node register annotation (design D7, docs/design.md#d7): every period the inventory is scanned
 * and encoded, and the Node is patched only when the value, or one of the publisher's further annotations, differs
 * from the last one written. The value is
 * remembered only after the patch succeeded (upstream remembers it before, so a failed patch is never retried),
 * and a failed cycle is retried after the short retry wait. A health change starts a cycle at once.
 */
public final class RegisterLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RegisterLoop.class);

    private final KubernetesClient client;
    private final String node;
    private final String key;
    private final RegisterCodec codec;
    private final InventoryPublisher publisher;
    private final HealthBoard health;
    private final Duration period;
    private final Duration retry;
    private final NodeWriteObserver observer;
    private final Semaphore wake = new Semaphore(0);
    private final AtomicInteger patches = new AtomicInteger();
    /** Cycles run to their end, written, unchanged or failed (tests wait on it rather than on the clock). */
    private final AtomicInteger cycles = new AtomicInteger();

    private final Thread thread;
    private final HealthBoard.Subscription subscription;
    private volatile boolean running = true;
    private Map<String, String> written;

    public RegisterLoop(
            KubernetesClient client,
            String node,
            VendorKeys keys,
            InventoryPublisher publisher,
            HealthBoard health,
            Duration period,
            Duration retry,
            NodeWriteObserver observer) {
        this.client = client;
        this.node = node;
        this.key = keys.registerKey().orElseThrow(() -> new IllegalArgumentException("the vendor has no register key"));
        this.codec = keys.registerCodec().orElseThrow();
        this.publisher = publisher;
        this.health = health;
        this.period = period;
        this.retry = retry;
        this.observer = observer;
        this.thread = Thread.ofPlatform().name("hami-register").daemon().unstarted(this::loop);
        this.subscription = health.listen(wake::release);
    }

    public void start() {
        thread.start();
    }

    /** How many times the Node was patched. */
    public int patches() {
        return patches.get();
    }

    /** How many cycles have run to their end, whether they patched, found nothing new or failed. */
    public int cycles() {
        return cycles.get();
    }

    private void loop() {
        while (running) {
            Duration next = period;
            try {
                cycle();
            } catch (RuntimeException e) {
                LOG.warn("node {}: publishing {} failed, retrying in {}: {}", node, key, retry, e.getMessage());
                next = retry;
            } finally {
                cycles.incrementAndGet();
            }
            try {
                if (wake.tryAcquire(next.toMillis(), TimeUnit.MILLISECONDS)) {
                    wake.drainPermits();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void cycle() {
        List<DeviceInfo> devices = publisher.scan(health.unhealthy());
        String value = codec.encode(devices);
        Map<String, String> annotations = new LinkedHashMap<>(publisher.annotations(devices));
        annotations.put(key, value);
        if (annotations.equals(written)) {
            return;
        }
        try {
            client.nodes()
                    .withName(node)
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            AnnotationPatch.mergePatch(annotations, Map.of(), null));
        } catch (KubernetesClientException e) {
            observer.registerWritten(false);
            throw e;
        }
        written = Map.copyOf(annotations);
        patches.incrementAndGet();
        observer.registerWritten(true);
        annotations.forEach((k, v) -> LOG.info("node {}: published {}={}", node, k, v));
    }

    @Override
    public void close() {
        running = false;
        subscription.close();
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
