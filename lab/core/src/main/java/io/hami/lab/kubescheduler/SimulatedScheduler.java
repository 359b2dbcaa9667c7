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
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of kube-scheduler (v1.37) that the embedded control plane needs, for one scheduler name whose only plugin
 * is the HAMi extender: pending pods queued by priority (then the earlier queued), one scheduling loop that filters
 * each against every node and scores the fitting ones through the extender, picks the best (ties at random), and
 * hands the bind to an asynchronous binding cycle ({@code bindParallelism} at once) that calls {@code /bind}. A failed
 * attempt is retried after kube-scheduler's backoff (1 s doubling to 10 s). Everything finer about kube-scheduler is
 * the real one's, run by {@code --control-plane kubernetes}.
 *
 * <p>A pod no node can take gets a {@code PodScheduled=False} condition and waits until a change that may give it
 * room ({@link RoomChanges}), including one that came while it was being tried. So the run's "nothing left to do"
 * ({@link #busy()}) is simply: no pod queued or in an attempt.
 *
 * <p>Preemption (DefaultPreemption with the extender's {@code /preempt}): when no node fits and the pod may preempt,
 * the bound lower-priority pods holding devices of its vendors on the nodes the extender failed as resolvable are
 * proposed as victims (kube-scheduler's in-tree plugins do not see device resources), the extender trims them, the
 * node is picked as pickOneNodeForPreemption does, its victims get a {@code DisruptionTarget} condition and are
 * deleted, and the pod is nominated there (tried alone first next time).
 *
 * <p>One deliberate difference: a bind refused for node-lock contention (design D5) is retried after 100 ms doubling
 * to 1 s, since the node is busy only for one allocation.
 */
public final class SimulatedScheduler extends SchedulingProgress implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedScheduler.class);
    /** How the extender's bind says that another pod holds the node lock (design D5). */
    static final String LOCK_CONTENTION = "node lock contention";

    private final KubernetesClient client;
    private final String schedulerName;
    private final ExtenderClient extender;
    private final DeviceBackends backends;
    private final RandomGenerator random;
    private final Map<String, Tracked> pods = new ConcurrentHashMap<>();
    /** kube-scheduler's backoffQ (by when each entry is due) and activeQ (by priority, then the earlier queued). */
    private final PriorityQueue<Ready> backingOff = new PriorityQueue<>(Comparator.comparingLong(Ready::atNanos));

    private final PriorityQueue<Ready> active = new PriorityQueue<>(
            Comparator.comparingInt(Ready::priority).reversed().thenComparingLong(Ready::queuedNanos));
    private final Semaphore binders;
    private final ExecutorService binding = Executors.newVirtualThreadPerTaskExecutor();
    private final SchedulingLog log = new SchedulingLog();
    /** Counts the changes that may give a pod room: an attempt that began before the last one is stale. */
    private final AtomicLong changes = new AtomicLong();
    /** Node annotations whose writes change no capacity: the node lock and the handshake stamps. */
    private final Set<String> freeNothing;

    private final SharedIndexInformer<Node> nodeInformer;
    private final SharedIndexInformer<Pod> podInformer;
    private final Thread loop;

    private enum State {
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
        /** {@link #changes} when the last attempt began; -1 once the pod itself changed during it. */
        volatile long triedAt;
        /** The node a preemption nominated, as in {@code status.nominatedNodeName}. */
        volatile String nominated;

        volatile String message = "";
        /** Bumped whenever the pod is queued, so stale queue entries are skipped. */
        final AtomicLong generation = new AtomicLong();
    }

    /** A queue entry: due at {@code atNanos} (its backoff), then by priority and the time it was queued. */
    private record Ready(String key, long generation, int priority, long atNanos, long queuedNanos) {}

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
        super(LOG);
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
    }

    /** What this kube-scheduler did, for the scheduling invariants and figures. */
    public SchedulingLog log() {
        return log;
    }

    /** Pods queued (a first try, a retry, or a change that may give them room) or in an attempt. */
    @Override
    public int busy() {
        return (int) pods.values().stream()
                .filter(t -> t.state == State.QUEUED || t.state == State.IN_FLIGHT)
                .count();
    }

    private Ready take() throws InterruptedException {
        synchronized (backingOff) {
            while (true) {
                long now = System.nanoTime();
                while (!backingOff.isEmpty() && backingOff.peek().atNanos() <= now) {
                    active.add(backingOff.poll());
                }
                if (!active.isEmpty()) {
                    return active.poll();
                }
                backingOff.wait(
                        backingOff.isEmpty()
                                ? 0
                                : Math.max(1, (backingOff.peek().atNanos() - now) / 1_000_000));
            }
        }
    }

    private void run() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Ready ready = take();
                Tracked t = pods.get(ready.key());
                if (t == null || t.state != State.QUEUED || t.generation.get() != ready.generation()) {
                    continue;
                }
                // Noted before the pod is read: a change from here on makes an unschedulable answer stale.
                t.triedAt = changes.get();
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
                countFailure("filter", pod, null, filtered.error());
                retry(key, t, "filter: " + filtered.error());
                return;
            }
            if (filtered.fitting().isEmpty()) {
                log.add(new SchedulingLog.Unschedulable(key, System.nanoTime()));
                step = "preempt";
                String node = preempt(key, pod, t, filtered);
                if (node != null) {
                    t.nominated = node;
                }
                unschedulable(key, pod, t, FitError.message(nodes.size(), filtered.failed()));
                return;
            }
            step = "prioritize";
            String node = best(
                    filtered.fitting(),
                    filtered.fitting().size() == 1 ? Map.of() : extender.prioritize(pod, filtered.fitting()));
            binding.execute(() -> bindOne(key, pod, t, node, started));
            handedOver = true;
        } catch (IOException e) {
            countFailure(step, pod, null, e.getMessage());
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
        int priority = priority(pod);
        Set<DeviceBackend> vendors = askedVendors(pod);
        if ("Never".equals(pod.getSpec().getPreemptionPolicy())
                || vendors.isEmpty()
                || terminatingOnNominated(t.nominated, priority)) {
            return null;
        }
        Map<String, List<Pod>> proposed = new LinkedHashMap<>();
        Map<String, Pod> byUid = new HashMap<>();
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
                byUid.put(p.getMetadata().getUid(), p);
            }
        }
        if (proposed.isEmpty()) {
            return null;
        }
        Map<String, List<String>> uids = new LinkedHashMap<>();
        proposed.forEach((node, victims) -> uids.put(
                node,
                victims.stream()
                        .sorted(Comparator.comparingInt(SimulatedScheduler::priority)
                                .reversed())
                        .map(v -> v.getMetadata().getUid())
                        .toList()));
        ExtenderClient.PreemptOutcome answer = extender.preempt(pod, uids);
        // pickOneNodeForPreemption: fewest PDB violations, lowest highest victim priority, lowest sum, fewest victims.
        Comparator<Candidate> order = Comparator.comparingInt(Candidate::pdb)
                .thenComparingInt(Candidate::highest)
                .thenComparingLong(Candidate::sum)
                .thenComparingInt(c -> c.victims().size())
                .thenComparing(Candidate::node);
        Candidate best = answer.victims().entrySet().stream()
                .filter(e -> proposed.containsKey(e.getKey())) // it may only answer for the nodes it was asked about
                .map(e -> {
                    List<Pod> victims = e.getValue().stream()
                            .map(byUid::get)
                            .filter(Objects::nonNull)
                            .toList();
                    return new Candidate(
                            e.getKey(),
                            answer.pdbViolations().getOrDefault(e.getKey(), 0),
                            victims.stream()
                                    .mapToInt(SimulatedScheduler::priority)
                                    .max()
                                    .orElse(Integer.MIN_VALUE),
                            victims.stream()
                                    .mapToLong(SimulatedScheduler::priority)
                                    .sum(),
                            victims);
                })
                .min(order)
                .orElse(null);
        if (best == null) {
            LOG.debug("pod {}: preemption would not help on any node", key);
            return null;
        }
        var recorded = new ArrayList<SchedulingLog.Victim>();
        for (Pod victim : best.victims()) {
            recorded.add(new SchedulingLog.Victim(
                    Cache.metaNamespaceKeyFunc(victim), priority(victim), annotations(victim)));
            evict(victim, pod);
        }
        log.add(new SchedulingLog.Preemption(
                key, priority, best.node(), proposed.get(best.node()).size(), recorded, System.nanoTime()));
        LOG.info(
                "pod {} (priority {}) preempted {} on {}",
                key,
                priority,
                recorded.stream().map(SchedulingLog.Victim::pod).toList(),
                best.node());
        return best.node();
    }

    private record Candidate(String node, int pdb, int highest, long sum, List<Pod> victims) {}

    /** kube-scheduler's PodEligibleToPreemptOthers: it waits while a lower-priority pod on its node terminates. */
    private boolean terminatingOnNominated(String nominated, int priority) {
        return nominated != null
                && podInformer.getStore().list().stream()
                        .anyMatch(p -> nominated.equals(p.getSpec().getNodeName())
                                && p.getMetadata().getDeletionTimestamp() != null
                                && priority(p) < priority);
    }

    /** As kube-scheduler's prepareCandidate: the DisruptionTarget condition, then the deletion. */
    private void evict(Pod victim, Pod preemptor) {
        var condition = Map.of(
                "type", "DisruptionTarget",
                "status", "True",
                "reason", "PreemptionByScheduler",
                "message", schedulerName + ": preempting to accommodate a higher priority pod " + name(preemptor));
        patchStatus(victim, Map.of("conditions", List.of(condition)));
        try {
            client.pods().inNamespace(namespace(victim)).withName(name(victim)).delete();
        } catch (KubernetesClientException e) {
            LOG.warn("pod {}: deleting the preemption victim failed: {}", name(victim), e.getMessage());
        }
    }

    /** The backends whose resources some container of the pod asks for. */
    private Set<DeviceBackend> askedVendors(Pod pod) {
        var names = new HashSet<String>();
        List<Container> containers = new ArrayList<>(pod.getSpec().getContainers());
        containers.addAll(pod.getSpec().getInitContainers());
        for (Container c : containers) {
            if (c.getResources() != null) {
                names.addAll(Objects.requireNonNullElse(c.getResources().getLimits(), Map.<String, Quantity>of())
                        .keySet());
                names.addAll(Objects.requireNonNullElse(c.getResources().getRequests(), Map.<String, Quantity>of())
                        .keySet());
            }
        }
        return backends.all().stream()
                .filter(b -> b.resources().all().stream().anyMatch(names::contains))
                .collect(Collectors.toSet());
    }

    private static boolean holdsDevicesOf(Pod pod, Set<DeviceBackend> vendors) {
        return vendors.stream().anyMatch(b -> {
            String allocated = annotations(pod).get(b.keys().allocatedKey());
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
                countBound(now);
                log.add(new SchedulingLog.Bound(key, node, started, now));
                return;
            }
            boolean contention = error.contains(LOCK_CONTENTION);
            log.add(new SchedulingLog.Refused(key, node, now, contention, Duration.ofNanos(now - start), error));
            countRefused(pod, node, error);
            if (contention) {
                LOG.debug("pod {}: {}", key, error);
                t.message = "bind to " + node + ": " + error;
                enqueue(key, t, Backoff.LOCK_CONTENTION.after(t.contended.incrementAndGet()));
            } else {
                retry(key, t, "bind to " + node + ": " + error);
            }
        } catch (IOException e) {
            countRefused(pod, node, e.getMessage());
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
        t.message = message;
        enqueue(key, t, Backoff.KUBE_SCHEDULER.after(t.attempts.incrementAndGet()));
    }

    private void unschedulable(String key, Pod pod, Tracked t, String message) {
        LOG.debug("pod {}: unschedulable: {}", key, message);
        t.attempts.incrementAndGet();
        if (!message.equals(t.message) || !Objects.equals(t.nominated, nominatedOf(pod))) {
            // The condition kube-scheduler writes, so kubectl describe shows why, and the nominated node.
            var status = new LinkedHashMap<String, Object>();
            status.put(
                    "conditions",
                    List.of(Map.of(
                            "type", "PodScheduled", "status", "False", "reason", "Unschedulable", "message", message)));
            if (t.nominated != null) {
                status.put("nominatedNodeName", t.nominated);
            }
            patchStatus(pod, status);
        }
        t.message = message;
        t.state = State.UNSCHEDULABLE;
        // Read after the state is written: a change either comes before this read or moves the pod itself.
        if (changes.get() != t.triedAt) {
            enqueueAfterBackoff(key, t);
        }
    }

    private void patchStatus(Pod pod, Map<String, Object> status) {
        String patch = client.getKubernetesSerialization().asJson(Map.of("status", status));
        try {
            client.pods()
                    .inNamespace(namespace(pod))
                    .withName(name(pod))
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (KubernetesClientException e) {
            LOG.debug("pod {}: writing its status failed: {}", name(pod), e.getMessage());
        }
    }

    private static String nominatedOf(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
    }

    private void enqueue(String key, Tracked t, Duration delay) {
        long generation = t.generation.incrementAndGet();
        t.state = State.QUEUED;
        long now = System.nanoTime();
        synchronized (backingOff) {
            backingOff.add(new Ready(key, generation, t.priority, now + delay.toNanos(), now));
            backingOff.notifyAll();
        }
    }

    /** Back to the queue once the backoff of its last failed attempt is over. */
    private void enqueueAfterBackoff(String key, Tracked t) {
        enqueue(key, t, Backoff.KUBE_SCHEDULER.after(Math.max(1, t.attempts.get())));
    }

    /** A change that may give any pod room: counted first, so an attempt already running sees it is stale. */
    private void roomChanged() {
        changes.incrementAndGet();
        pods.forEach((key, t) -> {
            if (t.state == State.UNSCHEDULABLE) {
                enqueueAfterBackoff(key, t);
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

    static boolean terminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static String namespace(Pod pod) {
        return pod.getMetadata().getNamespace();
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }

    private void track(Pod pod) {
        var t = new Tracked();
        t.priority = priority(pod);
        t.nominated = nominatedOf(pod);
        // Queued only once the map holds it: the loop skips entries it cannot find.
        if (pods.putIfAbsent(Cache.metaNamespaceKeyFunc(pod), t) == null) {
            enqueue(Cache.metaNamespaceKeyFunc(pod), t, Duration.ZERO);
        }
    }

    private void released(Pod pod) {
        log.add(new SchedulingLog.Released(
                Cache.metaNamespaceKeyFunc(pod), pod.getSpec().getNodeName(), annotations(pod), System.nanoTime()));
        roomChanged();
    }

    private final class PodEvents implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            if (ours(pod) && !bound(pod) && !terminal(pod)) {
                track(pod);
            }
        }

        @Override
        public void onUpdate(Pod before, Pod after) {
            String key = Cache.metaNamespaceKeyFunc(after);
            if (bound(before)) {
                if (terminal(before)) {
                    return; // its devices were released when it ended
                }
                if (terminal(after)) {
                    released(after);
                } else if (RoomChanges.assignedPod(before, after)) {
                    roomChanged();
                }
            } else if (!bound(after) && ours(after) && !terminal(after)) {
                Tracked t = pods.get(key);
                if (t == null) {
                    track(after);
                } else if (RoomChanges.pendingPod(before, after)) {
                    t.priority = priority(after);
                    if (t.state == State.UNSCHEDULABLE) {
                        enqueueAfterBackoff(key, t);
                    } else {
                        t.triedAt = -1; // an attempt under way saw the pod as it was
                    }
                }
            }
        }

        @Override
        public void onDelete(Pod pod, boolean finalStateUnknown) {
            pods.remove(Cache.metaNamespaceKeyFunc(pod));
            if (bound(pod) && !terminal(pod)) {
                released(pod);
            }
        }
    }

    private final class NodeEvents implements ResourceEventHandler<Node> {
        @Override
        public void onAdd(Node node) {
            roomChanged();
        }

        @Override
        public void onUpdate(Node before, Node after) {
            if (RoomChanges.node(before, after, freeNothing)) {
                roomChanged();
            }
        }

        @Override
        public void onDelete(Node node, boolean finalStateUnknown) {}
    }

    @Override
    public void close() {
        logSummary();
        loop.interrupt();
        binding.shutdownNow();
        podInformer.close();
        nodeInformer.close();
    }
}
