package io.hami.lab.kubescheduler;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kube-scheduler (v1.37) for one scheduler name whose only plugin is the HAMi extender. Pending pods of that name
 * are queued by priority (higher first, then the earlier queued: kube-scheduler's PrioritySort); one scheduling loop
 * filters each against every node and scores the fitting ones through the extender, picks the best (ties at random),
 * and hands the bind to an asynchronous binding cycle that calls the extender's {@code /bind}. A failed attempt
 * goes back to the queue after kube-scheduler's backoff (1 s doubling to 10 s, counted from the failure).
 *
 * <p>A pod no node can take waits as unschedulable, with a {@code PodScheduled=False} condition carrying the reasons,
 * until something moves it, as in kube-scheduler 1.37 for a pod the extender rejected (no plugin rejected it, so
 * every event is worth a retry after its backoff): a cluster event (an assigned pod added, updated, ended or deleted;
 * a node added, or its allocatable, labels, taints, condition statuses, annotations or unschedulable flag changed),
 * an update of the pending pod itself (such as the scheduler's {@code hami.io/requeue-after-release} annotation), an
 * event that arrived while its attempt was in flight, or the 5-minute flush of the unschedulable pool. Nothing else:
 * when the extender's index had not yet seen a release when it filtered, the pod waits for the next event, which is
 * the race that the scheduler's requeue on release (issue 14, point 4) closes. Because node-lock and handshake writes
 * move such a pod too, the run's idea of "nothing left to do" ({@link #busy()}) is not "nothing queued" but
 * {@link Settling}'s: every pod tried since the last change that may give it room.
 *
 * <p>Preemption (kube-scheduler's DefaultPreemption with an extender that has {@code preemptVerb}): when no node fits
 * and the pod may preempt ({@code preemptionPolicy} not {@code Never}, no lower-priority pod still terminating on its
 * nominated node), the nodes the extender failed as resolvable are candidates; on each, the bound lower-priority pods
 * that hold devices of a vendor the pod asks for are proposed as victims, and {@code /preempt} answers the nodes where
 * evicting (a trimmed set of) them frees enough. The node is chosen as kube-scheduler's pickOneNodeForPreemption does
 * (fewest PDB violations, then lowest highest victim priority, lowest sum of priorities, fewest victims; then the
 * first by name), its victims get a {@code DisruptionTarget} condition and are deleted, and the pod's
 * {@code status.nominatedNodeName} is set; its next attempt tries the nominated node first. An extender without
 * {@code /preempt} (404) turns preemption off, as kube-scheduler's own victims would be none here.
 *
 * <p>Differences from kube-scheduler, all deliberate:
 *
 * <ul>
 *   <li>Victims: kube-scheduler's in-tree plugins do not see device resources (the extender manages them), so its
 *       own victim selection would reprieve every pod; here the victims proposed are the lower-priority pods on the
 *       node holding devices of the pod's vendors, and the extender trims them. Nominated pods are not counted
 *       against lower-priority pods on the nominated node (the in-tree filters would not see their devices either).
 *       Preemption is synchronous (no asynchronous API calls).
 *   <li>A bind refused for node-lock contention (design D5 in docs/design.md#d5: the extender answers at once instead
 *       of waiting for the lock, and asks to be retried) is retried after 100 ms doubling to 1 s, since the node is
 *       only busy for the length of one allocation; kube-scheduler's 1-10 s backoff would make a binpacked node take
 *       one pod every few seconds and hide everything else a run shows.
 *   <li>Gangs get nothing special, as in kube-scheduler without coscheduling: members are scheduled one by one and
 *       bound in parallel binding cycles ({@code bindParallelism}).
 * </ul>
 */
public final class SimulatedScheduler implements AutoCloseable, SchedulingProgress {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedScheduler.class);
    /** How the extender's bind says that another pod holds the node lock (design D5). */
    static final String LOCK_CONTENTION = "node lock contention";
    /** kube-scheduler's podMaxInUnschedulablePodsDuration. */
    static final Duration UNSCHEDULABLE_FLUSH = Duration.ofMinutes(5);

    private final KubernetesClient client;
    private final String schedulerName;
    private final ExtenderClient extender;
    private final DeviceBackends backends;
    private final RandomGenerator random;
    private final Backoff backoff = Backoff.KUBE_SCHEDULER;
    private final Backoff contentionBackoff = Backoff.LOCK_CONTENTION;

    private final Map<String, Tracked> pods = new ConcurrentHashMap<>();
    private final ActiveQueue queue = new ActiveQueue();
    private final Semaphore binders;
    private final ExecutorService binding = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger bindFailures = new AtomicInteger();
    private final AtomicInteger contentions = new AtomicInteger();
    private final AtomicInteger bound = new AtomicInteger();
    private final AtomicBoolean preemptVerb = new AtomicBoolean(true);
    private final FailureCauses causes = new FailureCauses(LOG);
    private final SchedulingLog log = new SchedulingLog();
    private volatile long lastBindNanos;
    /** Numbers the changes that may give a pod room, and attempts by the changes they saw (see {@link Settling}). */
    private final AtomicLong changes = new AtomicLong();
    /** The number of the last cluster change that may give any pod room. */
    private final AtomicLong clusterRoomAt = new AtomicLong();
    /** Node annotations whose writes change no capacity: the node lock and the handshake stamps. */
    private final Set<String> freeNothing;

    private final ScheduledExecutorService flush = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("lab-kube-scheduler-flush").daemon().factory());
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
        volatile int priority;
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger contended = new AtomicInteger();
        /** {@link System#nanoTime()} of the last failed attempt: its backoff counts from there. */
        volatile long failedAt;
        /** An event arrived while the attempt was in flight: a rejection goes back to the queue, not the pool. */
        volatile boolean eventInFlight;
        /** The node a preemption nominated, as in {@code status.nominatedNodeName}. */
        volatile String nominated;
        /** The last attempt failed in a way that is retried whatever happens (see {@link Settling}). */
        volatile boolean retryDue;
        /** The change number when its last attempt began (see {@link Settling}). */
        volatile long triedAt = Settling.NEVER_TRIED;
        /** The number of the last update of the pod itself that may change its answer. */
        volatile long roomAt;

        volatile String message = "";
        /** Bumped whenever the pod is queued, so stale queue entries are skipped (by two informers at once too). */
        final AtomicLong generation = new AtomicLong();
    }

    private record Ready(String key, long generation, int priority, long atNanos, long queuedNanos) {}

    /**
     * kube-scheduler's activeQ and backoffQ: an entry whose backoff is over is popped by priority, then by the time
     * it was queued.
     */
    private static final class ActiveQueue {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private final PriorityQueue<Ready> active = new PriorityQueue<>(
                Comparator.comparingInt(Ready::priority).reversed().thenComparingLong(Ready::queuedNanos));
        private final PriorityQueue<Ready> backingOff = new PriorityQueue<>(Comparator.comparingLong(Ready::atNanos));

        void add(Ready r) {
            lock.lock();
            try {
                backingOff.add(r);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        Ready take() throws InterruptedException {
            lock.lock();
            try {
                while (true) {
                    long now = System.nanoTime();
                    while (!backingOff.isEmpty() && backingOff.peek().atNanos() <= now) {
                        active.add(backingOff.poll());
                    }
                    if (!active.isEmpty()) {
                        return active.poll();
                    }
                    if (backingOff.isEmpty()) {
                        changed.await();
                    } else {
                        var unused = changed.awaitNanos(backingOff.peek().atNanos() - now);
                    }
                }
            } finally {
                lock.unlock();
            }
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
        this.backends = backends;
        this.random = random;
        this.binders = new Semaphore(bindParallelism);
        var keys = new HashSet<String>();
        keys.add(ProtocolKeys.NODE_LOCK);
        backends.all().forEach(b -> b.keys().handshakeKey().ifPresent(keys::add));
        this.freeNothing = Set.copyOf(keys);
        this.nodeInformer = client.nodes().inform(new NodeEvents());
        this.podInformer = client.pods().inAnyNamespace().inform(new PodEvents());
        this.loop = Thread.ofPlatform().name("lab-kube-scheduler").daemon().start(this::run);
        // A periodic task that throws is never run again: log and flush on the next round.
        var unused = flush.scheduleWithFixedDelay(
                () -> {
                    try {
                        flushUnschedulable();
                    } catch (RuntimeException e) {
                        LOG.error("flushing unschedulable pods", e);
                    }
                },
                30,
                30,
                TimeUnit.SECONDS);
    }

    /** What this kube-scheduler did, for the scheduling invariants and figures. */
    public SchedulingLog log() {
        return log;
    }

    /**
     * Pods that may still change state without new input ({@link Settling}): in an attempt, never tried, due for a
     * retry of a failed bind or filter, or not tried since the last change that may give them room. A pod queued
     * again only by node-lock or handshake writes is not counted.
     */
    @Override
    public int busy() {
        return (int) pods.values().stream().filter(this::moving).count();
    }

    private boolean moving(Tracked t) {
        // Read in the reverse order of the loop's writes (state, then triedAt), so a new triedAt comes with its state.
        long tried = t.triedAt;
        State state = t.state;
        boolean due = t.retryDue;
        long room = Math.max(clusterRoomAt.get(), t.roomAt);
        return Settling.moving(new Settling.PodProgress(state, due, tried, room));
    }

    /** The unschedulable pool's leftovers, after kube-scheduler's five minutes. */
    private void flushUnschedulable() {
        long now = System.nanoTime();
        pods.forEach((key, t) -> {
            if (t.state == State.UNSCHEDULABLE && now - t.failedAt > UNSCHEDULABLE_FLUSH.toNanos()) {
                moveAfterBackoff(key, t);
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
                t.eventInFlight = false;
                t.state = State.IN_FLIGHT;
                t.retryDue = false;
                t.triedAt = changes.get();
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
        long started = System.nanoTime();
        boolean handedOver = false;
        String step = "filter";
        try {
            List<String> nodes = nodeInformer.getStore().list().stream()
                    .map(n -> n.getMetadata().getName())
                    .sorted()
                    .toList();
            // kube-scheduler's evaluateNominatedNode: the node a preemption freed is tried alone first.
            String nominated = t.nominated;
            if (nominated != null && nodes.contains(nominated)) {
                ExtenderClient.FilterOutcome alone = extender.filter(pod, List.of(nominated));
                if (alone.error().isEmpty() && alone.fitting().contains(nominated)) {
                    binding.execute(() -> bindOne(key, pod, t, nominated, started));
                    handedOver = true;
                    return;
                }
            }
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
                String message = FitError.message(nodes.size(), filtered.failed());
                log.add(new SchedulingLog.Unschedulable(key, System.nanoTime()));
                step = "preempt";
                String node = preempt(key, pod, t, filtered);
                if (node != null) {
                    t.nominated = node;
                }
                unschedulable(key, pod, t, message);
                return;
            }
            step = "prioritize";
            String node = best(
                    filtered.fitting(),
                    filtered.fitting().size() == 1 ? Map.of() : extender.prioritize(pod, filtered.fitting()));
            binding.execute(() -> bindOne(key, pod, t, node, started));
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

    /**
     * kube-scheduler's PostFilter with the extender's {@code /preempt}: proposes victims, lets the extender trim
     * them, picks a node, evicts its victims and returns it; null when the pod preempts nothing.
     */
    private String preempt(String key, Pod pod, Tracked t, ExtenderClient.FilterOutcome filtered) throws IOException {
        if (!preemptVerb.get() || "Never".equals(pod.getSpec().getPreemptionPolicy())) {
            return null;
        }
        int priority = priority(pod);
        Set<DeviceBackend> vendors = askedVendors(pod);
        if (vendors.isEmpty() || terminatingOnNominated(t.nominated, priority)) {
            return null;
        }
        Map<String, List<Pod>> proposed = new LinkedHashMap<>();
        for (Pod p : podInformer.getStore().list()) {
            String node = p.getSpec().getNodeName();
            if (bound(p)
                    && !terminal(p)
                    && p.getMetadata().getDeletionTimestamp() == null
                    && filtered.failed().containsKey(node)
                    && !filtered.unresolvable().contains(node)
                    && priority(p) < priority
                    && holdsDevicesOf(p, vendors)) {
                proposed.computeIfAbsent(node, n -> new ArrayList<>()).add(p);
            }
        }
        if (proposed.isEmpty()) {
            return null;
        }
        Map<String, Pod> byUid = new HashMap<>();
        Map<String, List<String>> uids = new LinkedHashMap<>();
        proposed.forEach((node, victims) -> {
            victims.sort(Comparator.comparingInt(SimulatedScheduler::priority).reversed());
            victims.forEach(v -> byUid.put(v.getMetadata().getUid(), v));
            uids.put(node, victims.stream().map(v -> v.getMetadata().getUid()).toList());
        });
        ExtenderClient.PreemptOutcome answer;
        try {
            answer = extender.preempt(pod, uids);
        } catch (ExtenderClient.VerbNotServed e) {
            if (preemptVerb.getAndSet(false)) {
                LOG.warn(
                        "the extender serves no /preempt ({}): preemption is off, as for a kube-scheduler configured "
                                + "without preemptVerb",
                        e.getMessage());
            }
            return null;
        }
        Comparator<Candidate> order = Comparator.comparingInt(Candidate::pdb)
                .thenComparingInt(Candidate::highest)
                .thenComparingLong(Candidate::sum)
                .thenComparingInt(Candidate::count)
                .thenComparing(Candidate::node);
        Candidate best = null;
        for (Map.Entry<String, List<String>> e : answer.victims().entrySet()) {
            if (!proposed.containsKey(e.getKey())) {
                continue; // the extender may only answer for the nodes it was asked about
            }
            List<Pod> victims = e.getValue().stream()
                    .map(byUid::get)
                    .filter(Objects::nonNull)
                    .toList();
            var c = new Candidate(
                    e.getKey(),
                    answer.pdbViolations().getOrDefault(e.getKey(), 0),
                    victims.stream()
                            .mapToInt(SimulatedScheduler::priority)
                            .max()
                            .orElse(Integer.MIN_VALUE),
                    victims.stream().mapToLong(SimulatedScheduler::priority).sum(),
                    victims.size(),
                    victims);
            if (best == null || order.compare(c, best) < 0) {
                best = c;
            }
        }
        if (best == null) {
            LOG.debug("pod {}: preemption would not help on any node", key);
            return null;
        }
        String chosen = best.node();
        var recorded = new ArrayList<SchedulingLog.Victim>();
        for (Pod victim : best.victims()) {
            recorded.add(new SchedulingLog.Victim(
                    Cache.metaNamespaceKeyFunc(victim), priority(victim), annotations(victim)));
            evict(victim, pod);
        }
        log.add(new SchedulingLog.Preemption(
                key, priority, chosen, proposed.get(chosen).size(), recorded, System.nanoTime()));
        LOG.info(
                "pod {} (priority {}) preempted {} on {}",
                key,
                priority,
                recorded.stream().map(SchedulingLog.Victim::pod).toList(),
                chosen);
        return chosen;
    }

    private record Candidate(String node, int pdb, int highest, long sum, int count, List<Pod> victims) {}

    /** kube-scheduler's PodEligibleToPreemptOthers: it waits while a lower-priority pod on its node terminates. */
    private boolean terminatingOnNominated(String nominated, int priority) {
        if (nominated == null) {
            return false;
        }
        return podInformer.getStore().list().stream()
                .anyMatch(p -> nominated.equals(p.getSpec().getNodeName())
                        && p.getMetadata().getDeletionTimestamp() != null
                        && priority(p) < priority);
    }

    /** As kube-scheduler's prepareCandidate: the DisruptionTarget condition, then the deletion. */
    private void evict(Pod victim, Pod preemptor) {
        String ns = victim.getMetadata().getNamespace();
        String name = victim.getMetadata().getName();
        String patch = client.getKubernetesSerialization()
                .asJson(Map.of(
                        "status",
                        Map.of(
                                "conditions",
                                List.of(Map.of(
                                        "type",
                                        "DisruptionTarget",
                                        "status",
                                        "True",
                                        "reason",
                                        "PreemptionByScheduler",
                                        "message",
                                        schedulerName + ": preempting to accommodate a higher priority pod "
                                                + preemptor.getMetadata().getName())))));
        try {
            client.pods()
                    .inNamespace(ns)
                    .withName(name)
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (KubernetesClientException e) {
            LOG.debug("pod {}: writing the DisruptionTarget condition failed: {}", name, e.getMessage());
        }
        try {
            client.pods().inNamespace(ns).withName(name).delete();
        } catch (KubernetesClientException e) {
            LOG.warn("pod {}: deleting the preemption victim failed: {}", name, e.getMessage());
        }
    }

    /** The backends whose resources some container of the pod asks for. */
    private Set<DeviceBackend> askedVendors(Pod pod) {
        var names = new HashSet<String>();
        List<Container> containers = new ArrayList<>(pod.getSpec().getContainers());
        containers.addAll(pod.getSpec().getInitContainers());
        for (Container c : containers) {
            if (c.getResources() != null) {
                names.addAll(keys(c.getResources().getLimits()));
                names.addAll(keys(c.getResources().getRequests()));
            }
        }
        var vendors = new HashSet<DeviceBackend>();
        for (DeviceBackend b : backends.all()) {
            if (b.resources().all().stream().anyMatch(names::contains)) {
                vendors.add(b);
            }
        }
        return vendors;
    }

    private static Set<String> keys(Map<String, Quantity> m) {
        return m == null ? Set.of() : m.keySet();
    }

    private static boolean holdsDevicesOf(Pod pod, Set<DeviceBackend> vendors) {
        Map<String, String> a = annotations(pod);
        return vendors.stream().anyMatch(b -> {
            String allocated = a.get(b.keys().allocatedKey());
            return allocated != null && !allocated.isBlank();
        });
    }

    private static Map<String, String> annotations(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    static int priority(Pod pod) {
        Integer p = pod.getSpec() == null ? null : pod.getSpec().getPriority();
        return p == null ? 0 : p;
    }

    private void bindOne(String key, Pod pod, Tracked t, String node, long started) {
        long start = System.nanoTime();
        try {
            String error = extender.bind(pod, node);
            long now = System.nanoTime();
            if (error.isEmpty()) {
                t.state = State.BOUND;
                t.message = "";
                bound.incrementAndGet();
                lastBindNanos = now;
                log.add(new SchedulingLog.Bound(key, node, started, now));
            } else if (error.contains(LOCK_CONTENTION)) {
                contentions.incrementAndGet();
                log.add(new SchedulingLog.Refused(key, node, now, true, Duration.ofNanos(now - start), error));
                LOG.debug("pod {}: {}", key, error);
                int contended = t.contended.incrementAndGet();
                t.message = "bind to " + node + ": " + error;
                t.retryDue = true;
                enqueue(key, t, contentionBackoff.after(contended));
            } else {
                bindFailures.incrementAndGet();
                log.add(new SchedulingLog.Refused(key, node, now, false, Duration.ofNanos(now - start), error));
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
        t.failedAt = System.nanoTime();
        t.retryDue = true;
        enqueue(key, t, backoff.after(attempts));
    }

    private void unschedulable(String key, Pod pod, Tracked t, String message) {
        LOG.debug("pod {}: unschedulable: {}", key, message);
        t.attempts.incrementAndGet();
        t.failedAt = System.nanoTime();
        boolean changed = !message.equals(t.message) || !Objects.equals(t.nominated, nominatedOf(pod));
        t.message = message;
        t.state = State.UNSCHEDULABLE;
        if (changed) {
            markUnschedulable(pod, message, t.nominated);
        }
        if (t.eventInFlight) {
            moveAfterBackoff(key, t); // kube-scheduler's in-flight events: something changed during the attempt
        }
    }

    private static String nominatedOf(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
    }

    /** The condition kube-scheduler writes, so {@code kubectl describe} shows why, and the nominated node. */
    private void markUnschedulable(Pod pod, String message, String nominated) {
        var status = new LinkedHashMap<String, Object>();
        status.put(
                "conditions",
                List.of(Map.of(
                        "type", "PodScheduled", "status", "False", "reason", "Unschedulable", "message", message)));
        if (nominated != null) {
            status.put("nominatedNodeName", nominated);
        }
        String patch = client.getKubernetesSerialization().asJson(Map.of("status", status));
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
        long now = System.nanoTime();
        queue.add(new Ready(key, generation, t.priority, now + delay.toNanos(), now));
    }

    /** kube-scheduler's queueAfterBackoff: to the backoff queue until the backoff of its last failure is over. */
    private void moveAfterBackoff(String key, Tracked t) {
        long left = t.failedAt + backoff.after(Math.max(1, t.attempts.get())).toNanos() - System.nanoTime();
        enqueue(key, t, Duration.ofNanos(Math.max(0, left)));
    }

    /**
     * A cluster change that may give a pod room (a release, a node's devices): numbered before any pod moves, so an
     * attempt that begins after it counts as a try since it.
     */
    private void roomChanged() {
        long n = changes.incrementAndGet();
        clusterRoomAt.accumulateAndGet(n, Math::max);
    }

    /** A cluster event: every unschedulable pod is worth a retry after its backoff; attempts in flight note it. */
    private void clusterChanged() {
        pods.forEach((key, t) -> {
            if (t.state == State.UNSCHEDULABLE) {
                moveAfterBackoff(key, t);
            } else if (t.state == State.IN_FLIGHT) {
                t.eventInFlight = true;
            }
        });
    }

    /** The pending pod itself was updated (an annotation, its status): kube-scheduler's Update of the queue. */
    private void podUpdated(String key, Pod before, Pod pod) {
        Tracked t = pods.get(key);
        if (t == null) {
            return;
        }
        if (Settling.pendingPodMayGiveRoom(before, pod)) {
            t.roomAt = changes.incrementAndGet();
        }
        t.priority = priority(pod);
        if (t.state == State.UNSCHEDULABLE) {
            moveAfterBackoff(key, t);
        } else if (t.state == State.IN_FLIGHT) {
            t.eventInFlight = true;
        }
    }

    private void released(Pod pod) {
        log.add(new SchedulingLog.Released(
                Cache.metaNamespaceKeyFunc(pod), pod.getSpec().getNodeName(), annotations(pod), System.nanoTime()));
    }

    private boolean ours(Pod pod) {
        return pod.getSpec() != null && schedulerName.equals(pod.getSpec().getSchedulerName());
    }

    private static boolean bound(Pod pod) {
        return pod.getSpec().getNodeName() != null
                && !pod.getSpec().getNodeName().isEmpty();
    }

    static boolean terminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private final class PodEvents implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            if (ours(pod) && !bound(pod) && !terminal(pod)) {
                track(pod);
            } else if (bound(pod) && !terminal(pod)) {
                clusterChanged(); // AssignedPodAdd
            }
        }

        private void track(Pod pod) {
            String key = Cache.metaNamespaceKeyFunc(pod);
            var t = new Tracked();
            t.priority = priority(pod);
            t.nominated = nominatedOf(pod);
            // Queued only once the map holds it: the loop skips entries it cannot find.
            if (pods.putIfAbsent(key, t) == null) {
                long now = System.nanoTime();
                queue.add(new Ready(key, t.generation.get(), t.priority, now, now));
            }
        }

        @Override
        public void onUpdate(Pod before, Pod after) {
            if (Objects.equals(
                    before.getMetadata().getResourceVersion(),
                    after.getMetadata().getResourceVersion())) {
                return; // a resync: kube-scheduler skips identical objects
            }
            if (bound(before)) {
                if (terminal(before)) {
                    return; // kube-scheduler's informer no longer holds it
                }
                if (terminal(after)) {
                    released(after); // AssignedPodDelete: its informer drops pods that ended
                }
                if (Settling.assignedPodMayGiveRoom(before, after)) {
                    roomChanged();
                }
                clusterChanged();
            } else if (bound(after)) {
                if (!terminal(after)) {
                    clusterChanged(); // the binding: AssignedPodAdd
                }
            } else if (ours(after) && !terminal(after)) {
                if (pods.containsKey(Cache.metaNamespaceKeyFunc(after))) {
                    podUpdated(Cache.metaNamespaceKeyFunc(after), before, after);
                } else {
                    track(after);
                }
            }
        }

        @Override
        public void onDelete(Pod pod, boolean finalStateUnknown) {
            pods.remove(Cache.metaNamespaceKeyFunc(pod));
            if (bound(pod) && !terminal(pod)) {
                released(pod);
                roomChanged();
                clusterChanged();
            }
        }
    }

    private final class NodeEvents implements ResourceEventHandler<Node> {
        @Override
        public void onAdd(Node node) {
            roomChanged();
            clusterChanged();
        }

        @Override
        public void onUpdate(Node before, Node after) {
            if (schedulingPropertiesChanged(before, after)) {
                if (Settling.nodeMayGiveRoom(before, after, freeNothing)) {
                    roomChanged();
                }
                clusterChanged();
            }
        }

        @Override
        public void onDelete(Node node, boolean finalStateUnknown) {}
    }

    /** kube-scheduler's NodeSchedulingPropertiesChange: what of a node may make a pod fit. */
    static boolean schedulingPropertiesChanged(Node before, Node after) {
        return propertiesBesideAnnotationsChanged(before, after)
                || !Objects.equals(
                        before.getMetadata().getAnnotations(),
                        after.getMetadata().getAnnotations());
    }

    /** {@link #schedulingPropertiesChanged} but for the annotations. */
    static boolean propertiesBesideAnnotationsChanged(Node before, Node after) {
        return (Boolean.TRUE.equals(
                                before.getSpec() == null
                                        ? null
                                        : before.getSpec().getUnschedulable())
                        && !Boolean.TRUE.equals(
                                after.getSpec() == null ? null : after.getSpec().getUnschedulable()))
                || !Objects.equals(status(before, "allocatable"), status(after, "allocatable"))
                || !Objects.equals(
                        before.getMetadata().getLabels(), after.getMetadata().getLabels())
                || !Objects.equals(
                        before.getSpec() == null ? null : before.getSpec().getTaints(),
                        after.getSpec() == null ? null : after.getSpec().getTaints())
                || !Objects.equals(status(before, "conditions"), status(after, "conditions"));
    }

    private static Object status(Node n, String what) {
        if (n.getStatus() == null) {
            return null;
        }
        if (what.equals("allocatable")) {
            return n.getStatus().getAllocatable();
        }
        var statuses = new java.util.TreeMap<String, String>();
        n.getStatus().getConditions().forEach(c -> statuses.put(c.getType(), c.getStatus()));
        return statuses;
    }

    @Override
    public void close() {
        causes.logSummary();
        flush.shutdownNow();
        loop.interrupt();
        binding.shutdownNow();
        podInformer.close();
        nodeInformer.close();
    }
}
