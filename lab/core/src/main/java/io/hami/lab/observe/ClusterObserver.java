package io.hami.lab.observe;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.hami.lab.check.DeviceAccounting;
import io.hami.lab.check.Invariant;
import io.hami.lab.check.InvariantChecker;
import io.hami.lab.scenario.DurationText;
import io.hami.protocol.spi.DeviceBackends;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Watches the cluster from the outside, as a person with kubectl would: pods and nodes through informers of its own.
 * Samples pod states and device allocation over time, notices when pods last changed (for the end of the run), and
 * checks the capacity invariant at every sample, so an overcommit that lasts only a moment is still caught.
 */
public final class ClusterObserver implements AutoCloseable {
    /** Beyond this many devices the report draws no per-device time series. */
    private static final int MAX_CHARTED_DEVICES = 512;

    private static final int MAX_VIOLATIONS = 50;

    private final DeviceBackends backends;
    private final InvariantChecker checker;
    private final boolean chartDevices;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Node> nodes;
    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
    private final Set<String> capacityViolations = Collections.synchronizedSet(new LinkedHashSet<>());
    private volatile long lastChange = System.nanoTime();
    /** When something last happened that may let an unschedulable pod fit: a pod ended, a node's devices changed. */
    private volatile long lastFreed = System.nanoTime();

    public ClusterObserver(KubernetesClient client, DeviceBackends backends, InvariantChecker checker, int devices) {
        this.backends = backends;
        this.checker = checker;
        this.chartDevices = devices <= MAX_CHARTED_DEVICES;
        this.pods = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                lastChange = System.nanoTime();
            }

            @Override
            public void onUpdate(Pod before, Pod after) {
                PodState was = PodState.of(before);
                PodState is = PodState.of(after);
                if (was != is) {
                    lastChange = System.nanoTime();
                    if (ended(is) && !ended(was)) {
                        lastFreed = lastChange;
                    }
                }
            }

            @Override
            public void onDelete(Pod pod, boolean unknown) {
                lastChange = System.nanoTime();
                if (!ended(PodState.of(pod))) {
                    lastFreed = lastChange;
                }
            }
        });
        List<String> registerKeys = backends.all().stream()
                .flatMap(b -> b.keys().registerKey().stream())
                .toList();
        this.nodes = client.nodes().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                lastFreed = System.nanoTime();
            }

            @Override
            public void onUpdate(Node before, Node after) {
                if (!Objects.equals(allocatable(before), allocatable(after))
                        || registerKeys.stream()
                                .anyMatch(k -> !Objects.equals(annotation(before, k), annotation(after, k)))) {
                    lastFreed = System.nanoTime();
                }
            }

            @Override
            public void onDelete(Node node, boolean unknown) {}
        });
    }

    private static boolean ended(PodState s) {
        return s == PodState.SUCCEEDED || s == PodState.FAILED;
    }

    private static Object allocatable(Node n) {
        return n.getStatus() == null ? null : n.getStatus().getAllocatable();
    }

    private static String annotation(Node n, String key) {
        return n.getMetadata().getAnnotations() == null
                ? null
                : n.getMetadata().getAnnotations().get(key);
    }

    /** Records the cluster as it is now, {@code at} into the run. */
    public Sample sample(Duration at) {
        List<Pod> current = pods.getStore().list();
        var counts = new EnumMap<PodState, Integer>(PodState.class);
        current.forEach(p -> counts.merge(PodState.of(p), 1, Integer::sum));
        Invariant capacity = checker.capacity(current);
        for (String v : capacity.violations()) {
            if (capacityViolations.size() < MAX_VIOLATIONS) {
                capacityViolations.add("at " + DurationText.format(at) + ": " + v);
            }
        }
        Map<DeviceAccounting.DeviceKey, DeviceAccounting.Usage> usage =
                chartDevices ? DeviceAccounting.of(current, backends).usage() : Map.of();
        Sample s = new Sample(at, counts, usage);
        samples.add(s);
        return s;
    }

    /** How long ago a pod last appeared, went away or changed state. */
    public Duration quietFor() {
        return Duration.ofNanos(System.nanoTime() - lastChange);
    }

    /**
     * How long ago something last happened that may let an unschedulable pod fit: a pod ended or went away, a node
     * appeared, or a node's allocatable or device inventory changed.
     */
    public Duration sinceFreed() {
        return Duration.ofNanos(System.nanoTime() - lastFreed);
    }

    public List<Pod> pods() {
        return pods.getStore().list();
    }

    public List<Node> nodes() {
        return nodes.getStore().list();
    }

    public List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /** Capacity violations seen in any sample, with when. */
    public List<String> capacityViolations() {
        synchronized (capacityViolations) {
            return List.copyOf(capacityViolations);
        }
    }

    @Override
    public void close() {
        pods.close();
        nodes.close();
    }
}
