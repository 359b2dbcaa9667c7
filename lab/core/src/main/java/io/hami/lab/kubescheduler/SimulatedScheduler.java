package io.hami.lab.kubescheduler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kube-scheduler for one scheduler name whose only plugin is the HAMi extender. Pending pods of that name are
 * queued; one scheduling loop filters each against every node and scores the fitting ones through the extender,
 * picks the best (ties at random), and hands the bind to an asynchronous binding cycle that calls the extender's
 * {@code /bind}. As in kube-scheduler, a failed attempt goes back to the queue with backoff (1 s doubling to 10 s),
 * and a pod no node can take waits as unschedulable, with a {@code PodScheduled=False} condition carrying the reasons,
 * until the cluster changes (a pod ends, or a node's capacity or device inventory changes). The extender learns of a
 * change through informers of its own, which may lag behind this scheduler's, so an unschedulable pod that was last
 * evaluated before a change had time to reach the extender is evaluated once more when it has ({@link #INDEX_LAG}).
 *
 * <p>One difference from kube-scheduler: a bind refused for node-lock contention (design D5 in docs/design.md#d5: the extender answers
 * at once instead of waiting for the lock, and asks to be retried) is retried after a short backoff of its own
 * (100 ms doubling to 1 s), since the node is only busy for the length of one allocation. kube-scheduler's 1-10 s
 * backoff would make a binpacked node take one pod every few seconds and hide everything else a run shows.
 */
public final class SimulatedScheduler implements AutoCloseable, SchedulingProgress {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedScheduler.class);
    /** How long the extender's usage index may take to see a change this scheduler's informers saw. */
    static final Duration INDEX_LAG = Duration.ofSeconds(2);
    /** How the extender's bind says that another pod holds the node lock (design D5). */
    static final String LOCK_CONTENTION = "node lock contention";

    private final KubernetesClient client;
    private final String schedulerName;
    private final ExtenderClient extender;
    private final List<String> registerKeys;
    private final RandomGenerator random;
    private final Backoff backoff = Backoff.KUBE_SCHEDULER;
    private final Backoff contentionBackoff = Backoff.LOCK_CONTENTION;

    private final Map<String, Tracked> pods = new ConcurrentHashMap<>();
    private final DelayQueue<Ready> queue = new DelayQueue<>();
    private final Semaphore binders;
    private final ExecutorService binding = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger bindFailures = new AtomicInteger();
    private final AtomicInteger contentions = new AtomicInteger();
    private final AtomicInteger bound = new AtomicInteger();
    private final FailureCauses causes = new FailureCauses(LOG);
    private volatile long lastBindNanos;
    /** {@link System#nanoTime()} of the last change that may let an unschedulable pod fit. */
    private volatile long lastChange = System.nanoTime();

    private final ScheduledExecutorService recheck = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("lab-kube-scheduler-recheck").daemon().factory());
    private final SharedIndexInformer<Node> nodeInformer;
    private final SharedIndexInformer<Pod> podInformer;
    private final Thread loop;

    /** Where one pod stands in the scheduling queue. */
    public enum State {
        QUEUED,
        IN_FLIGHT,
        UNSCHEDULABLE,
        BOUND
    }

    private static final class Tracked {
        volatile State state = State.QUEUED;
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger contended = new AtomicInteger();
        /** {@link System#nanoTime()} of the filter call that found it unschedulable. */
        volatile long evaluatedAt;

        volatile String message = "";
        /** Bumped whenever the pod is queued, so stale queue entries are skipped (by two informers at once too). */
        final AtomicLong generation = new AtomicLong();
    }

    private record Ready(String key, long generation, long atNanos) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(atNanos, ((Ready) o).atNanos);
        }
    }

    /**
     * @param bindParallelism binding cycles at once; the scheduling loop waits when all are busy
     * @param random          breaks ties between equally scored nodes
     */
    public SimulatedScheduler(
            KubernetesClient client,
            String schedulerName,
            ExtenderClient extender,
            DeviceBackends backends,
            int bindParallelism,
            RandomGenerator random) {
        this.client = client;
        this.schedulerName = schedulerName;
        this.extender = extender;
        this.registerKeys = backends.all().stream()
                .map(DeviceBackend::keys)
                .flatMap(k -> k.registerKey().stream())
                .toList();
        this.random = random;
        this.binders = new Semaphore(bindParallelism);
        this.nodeInformer = client.nodes().inform(new NodeEvents());
        this.podInformer = client.pods().inAnyNamespace().inform(new PodEvents());
        this.loop = Thread.ofPlatform().name("lab-kube-scheduler").daemon().start(this::run);
        // A periodic task that throws is never run again: log and recheck on the next round.
        var unused = recheck.scheduleWithFixedDelay(
                () -> {
                    try {
                        recheckStale();
                    } catch (RuntimeException e) {
                        LOG.error("rechecking unschedulable pods", e);
                    }
                },
                500,
                500,
                TimeUnit.MILLISECONDS);
    }

    /** Pods waiting for an attempt, in one, or unschedulable but due for another look: the scheduler still has work. */
    @Override
    public int busy() {
        return (int) pods.values().stream()
                .filter(t -> t.state == State.QUEUED
                        || t.state == State.IN_FLIGHT
                        || (t.state == State.UNSCHEDULABLE && stale(t)))
                .count();
    }

    /** Whether the pod was found unschedulable before the last change could reach the extender. */
    private boolean stale(Tracked t) {
        return t.evaluatedAt - lastChange < INDEX_LAG.toNanos();
    }

    private void recheckStale() {
        if (System.nanoTime() - lastChange < INDEX_LAG.toNanos()) {
            return;
        }
        pods.forEach((key, t) -> {
            if (t.state == State.UNSCHEDULABLE && stale(t)) {
                enqueue(key, t, Duration.ZERO);
            }
        });
    }

    /** Pods bound so far. */
    @Override
    public int bound() {
        return bound.get();
    }

    /** {@link System#nanoTime()} of the last successful bind. */
    @Override
    public long lastBindNanos() {
        return lastBindNanos;
    }

    /** Binds refused because another pod held the node lock (each was retried soon). */
    @Override
    public int contentions() {
        return contentions.get();
    }

    /** Binds the extender refused or could not finish for another reason (each was retried with backoff). */
    @Override
    public int bindFailures() {
        return bindFailures.get();
    }

    /** Failed binds (other than for lock contention) and failed filters, by cause, most frequent first. */
    @Override
    public Map<String, Integer> failureCauses() {
        return causes.counts();
    }

    private void run() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Ready ready = queue.take();
                Tracked t = pods.get(ready.key());
                if (t == null || t.state != State.QUEUED || t.generation.get() != ready.generation()) {
                    continue;
                }
                Pod pod = podInformer.getStore().getByKey(ready.key());
                if (pod == null) {
                    pods.remove(ready.key(), t);
                    continue;
                }
                if (bound(pod)) {
                    t.state = State.BOUND; // bound by an attempt whose answer was lost
                    continue;
                }
                binders.acquire();
                t.state = State.IN_FLIGHT;
                scheduleOne(ready.key(), pod, t);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.error("scheduling loop", e);
            }
        }
    }

    /** Filter and score in the scheduling loop; bind in a binding cycle of its own. Holds one binder permit. */
    private void scheduleOne(String key, Pod pod, Tracked t) {
        boolean handedOver = false;
        String step = "filter";
        try {
            List<String> nodes = nodeInformer.getStore().list().stream()
                    .map(n -> n.getMetadata().getName())
                    .sorted()
                    .toList();
            t.evaluatedAt = System.nanoTime();
            ExtenderClient.FilterOutcome filtered = extender.filter(pod, nodes);
            if (!filtered.error().isEmpty()) {
                causes.record(
                        "filter",
                        pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(),
                        null,
                        filtered.error());
                retry(key, t, "filter: " + filtered.error());
                return;
            }
            if (filtered.fitting().isEmpty()) {
                unschedulable(key, pod, t, FitError.message(nodes.size(), filtered.failed()));
                return;
            }
            step = "prioritize";
            String node = best(
                    filtered.fitting(),
                    filtered.fitting().size() == 1 ? Map.of() : extender.prioritize(pod, filtered.fitting()));
            binding.execute(() -> bindOne(key, pod, t, node));
            handedOver = true;
        } catch (IOException e) {
            causes.record(
                    step, pod.getMetadata().getNamespace(), pod.getMetadata().getName(), null, e.getMessage());
            retry(key, t, e.getMessage());
        } finally {
            if (!handedOver) {
                binders.release();
            }
        }
    }

    private void bindOne(String key, Pod pod, Tracked t, String node) {
        try {
            String error = extender.bind(pod, node);
            if (error.isEmpty()) {
                t.state = State.BOUND;
                t.message = "";
                bound.incrementAndGet();
                lastBindNanos = System.nanoTime();
            } else if (error.contains(LOCK_CONTENTION)) {
                contentions.incrementAndGet();
                LOG.debug("pod {}: {}", key, error);
                int contended = t.contended.incrementAndGet();
                t.message = "bind to " + node + ": " + error;
                enqueue(key, t, contentionBackoff.after(contended));
            } else {
                bindFailures.incrementAndGet();
                causes.record(
                        "bind",
                        pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(),
                        node,
                        error);
                retry(key, t, "bind to " + node + ": " + error);
            }
        } catch (IOException e) {
            bindFailures.incrementAndGet();
            causes.record(
                    "bind", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), node, e.getMessage());
            retry(key, t, "bind to " + node + ": " + e.getMessage());
        } finally {
            binders.release();
        }
    }

    /** The highest score; among equals, one at random, as kube-scheduler's selectHost does. */
    private String best(List<String> fitting, Map<String, Long> scores) {
        long top = fitting.stream()
                .mapToLong(n -> scores.getOrDefault(n, 0L))
                .max()
                .orElse(0);
        List<String> ties =
                fitting.stream().filter(n -> scores.getOrDefault(n, 0L) == top).toList();
        synchronized (random) {
            return ties.get(random.nextInt(ties.size()));
        }
    }

    private void retry(String key, Tracked t, String message) {
        LOG.debug("pod {}: {}", key, message);
        int attempts = t.attempts.incrementAndGet();
        t.message = message;
        enqueue(key, t, backoff.after(attempts));
    }

    private void unschedulable(String key, Pod pod, Tracked t, String message) {
        LOG.debug("pod {}: unschedulable: {}", key, message);
        t.attempts.incrementAndGet();
        boolean changed = !message.equals(t.message);
        t.message = message;
        t.state = State.UNSCHEDULABLE;
        if (changed) {
            markUnschedulable(pod, message);
        }
    }

    /** The condition kube-scheduler writes, so {@code kubectl describe} shows why. */
    private void markUnschedulable(Pod pod, String message) {
        String patch = client.getKubernetesSerialization()
                .asJson(Map.of(
                        "status",
                        Map.of(
                                "conditions",
                                List.of(Map.of(
                                        "type",
                                        "PodScheduled",
                                        "status",
                                        "False",
                                        "reason",
                                        "Unschedulable",
                                        "message",
                                        message)))));
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (KubernetesClientException e) {
            LOG.debug(
                    "pod {}: writing the Unschedulable condition failed: {}",
                    pod.getMetadata().getName(),
                    e.getMessage());
        }
    }

    private void enqueue(String key, Tracked t, Duration delay) {
        long generation = t.generation.incrementAndGet();
        t.state = State.QUEUED;
        queue.add(new Ready(key, generation, System.nanoTime() + delay.toNanos()));
    }

    /** Something that may let an unschedulable pod fit happened: retry them all, each after its backoff. */
    private void clusterChanged() {
        lastChange = System.nanoTime();
        pods.forEach((key, t) -> {
            if (t.state == State.UNSCHEDULABLE) {
                enqueue(key, t, backoff.after(t.attempts.get()));
            }
        });
    }

    private boolean ours(Pod pod) {
        return pod.getSpec() != null && schedulerName.equals(pod.getSpec().getSchedulerName());
    }

    private static boolean bound(Pod pod) {
        return pod.getSpec().getNodeName() != null
                && !pod.getSpec().getNodeName().isEmpty();
    }

    private static boolean terminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private final class PodEvents implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            if (ours(pod) && !bound(pod) && !terminal(pod)) {
                String key = Cache.metaNamespaceKeyFunc(pod);
                var t = new Tracked();
                // Queued only once the map holds it: the loop skips entries it cannot find.
                if (pods.putIfAbsent(key, t) == null) {
                    queue.add(new Ready(key, t.generation.get(), System.nanoTime()));
                }
            }
        }

        @Override
        public void onUpdate(Pod before, Pod after) {
            onAdd(after);
            if (bound(after) && terminal(after) && !terminal(before)) {
                clusterChanged();
            }
        }

        @Override
        public void onDelete(Pod pod, boolean finalStateUnknown) {
            pods.remove(Cache.metaNamespaceKeyFunc(pod));
            if (bound(pod) && !terminal(pod)) {
                clusterChanged();
            }
        }
    }

    private final class NodeEvents implements ResourceEventHandler<Node> {
        @Override
        public void onAdd(Node node) {
            clusterChanged();
        }

        @Override
        public void onUpdate(Node before, Node after) {
            if (!Objects.equals(allocatable(before), allocatable(after))
                    || registerKeys.stream()
                            .anyMatch(k -> !Objects.equals(annotation(before, k), annotation(after, k)))) {
                clusterChanged();
            }
        }

        @Override
        public void onDelete(Node node, boolean finalStateUnknown) {}

        private static Object allocatable(Node n) {
            return n.getStatus() == null ? null : n.getStatus().getAllocatable();
        }

        private static String annotation(Node n, String key) {
            return n.getMetadata().getAnnotations() == null
                    ? null
                    : n.getMetadata().getAnnotations().get(key);
        }
    }

    @Override
    public void close() {
        causes.logSummary();
        recheck.shutdownNow();
        loop.interrupt();
        binding.shutdownNow();
        podInformer.close();
        nodeInformer.close();
    }
}
