package io.hami.lab.check;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.lab.kubescheduler.SchedulingLog;
import io.hami.lab.node.DeviceIds;
import io.hami.lab.scenario.DeviceGroup;
import io.hami.lab.scenario.NodeSpec;
import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.SchedulerSpec;
import io.hami.lab.scenario.Vendor;
import io.hami.lab.scenario.Workload;
import io.hami.lab.workload.LabKeys;
import io.hami.lab.workload.PodPlan;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The invariants of gangs, preemption and topology-aware placement, and the time pending pods waited after the
 * devices they got were freed, from the simulated kube-scheduler's {@link SchedulingLog} and the API server's pods
 * at the end (a preemption victim, deleted by then, as the log saw it).
 */
public final class SchedulingChecks {
    private final SchedulingLog log;
    private final DeviceBackends backends;
    /** Every pod's annotations: the API server's at the end, else as the log last saw them (deleted pods). */
    private final Map<String, Map<String, String>> annotations = new HashMap<>();

    public SchedulingChecks(SchedulingLog log, Collection<Pod> pods, DeviceBackends backends) {
        this.log = log;
        this.backends = backends;
        for (SchedulingLog.Entry e : log.entries()) {
            switch (e) {
                case SchedulingLog.Released r -> annotations.put(r.pod(), r.annotations());
                case SchedulingLog.Preemption p ->
                    p.victims().forEach(v -> annotations.putIfAbsent(v.pod(), v.annotations()));
                default -> {}
            }
        }
        for (Pod p : pods) {
            Map<String, String> a = p.getMetadata().getAnnotations();
            annotations.put(key(p), a == null ? Map.of() : a);
        }
    }

    /**
     * Every member of every gang (workloads with {@code podGroup}) was bound, and none of their binds was refused for
     * node-lock contention: the extender let a member wait in line for the node lock (up to the scheduler's
     * {@code --gang-lock-wait}) instead of refusing it.
     */
    public Invariant gangs(List<PodPlan> plans) {
        var violations = new ArrayList<String>();
        int checked = 0;
        for (PodPlan plan : plans) {
            String group = plan.workload().podGroup();
            if (group == null) {
                continue;
            }
            checked++;
            String pod = LabKeys.NAMESPACE + "/" + plan.name();
            if (lastBound(pod).isEmpty()) {
                violations.add(pod + " (gang " + group + ") was never bound");
            }
            List<SchedulingLog.Refused> refused = log.of(SchedulingLog.Refused.class).stream()
                    .filter(r -> r.pod().equals(pod) && r.contention())
                    .toList();
            if (!refused.isEmpty()) {
                violations.add(pod + " (gang " + group + "): " + refused.size()
                        + " bind(s) refused for node-lock contention, the longest after "
                        + refused.stream()
                                .map(SchedulingLog.Refused::took)
                                .max(Duration::compareTo)
                                .orElseThrow()
                                .toMillis()
                        + " ms: " + refused.getLast().error());
            }
        }
        return new Invariant(
                "gangs",
                "every gang member was bound, none refused for node-lock contention (it waits in line within the bind)",
                checked,
                violations);
    }

    /**
     * Each preemption evicted only pods of lower priority than the preemptor, the preemptor was then bound to the
     * node it preempted on, and every victim held a device that a pod which preempted on that node got there: no
     * victim was evicted whose devices no preemptor needed. (Two pods preempting on one node at once may each take
     * the device the other's victim freed, so the devices are pooled per node.)
     */
    public Invariant preemptions() {
        var violations = new ArrayList<String>();
        List<SchedulingLog.Preemption> preemptions = log.of(SchedulingLog.Preemption.class);
        Map<String, Set<String>> gotOnNode = new HashMap<>();
        for (SchedulingLog.Preemption p : preemptions) {
            String what = p.pod() + " (priority " + p.priority() + ") on " + p.node();
            for (SchedulingLog.Victim v : p.victims()) {
                if (v.priority() >= p.priority()) {
                    violations.add(what + " evicted " + v.pod() + " of priority " + v.priority() + ", not lower");
                }
            }
            Optional<SchedulingLog.Bound> bound = lastBound(p.pod()).filter(b -> b.atNanos() > p.atNanos());
            if (bound.isEmpty()) {
                violations.add(what + " was never bound after preempting " + names(p.victims()));
            } else if (!bound.get().node().equals(p.node())) {
                violations.add(what + " was bound to " + bound.get().node() + ", not the node it preempted "
                        + names(p.victims()) + " on");
            } else {
                gotOnNode
                        .computeIfAbsent(p.node(), n -> new HashSet<>())
                        .addAll(uuids(annotations.getOrDefault(p.pod(), Map.of())));
            }
        }
        for (SchedulingLog.Preemption p : preemptions) {
            Set<String> got = gotOnNode.getOrDefault(p.node(), Set.of());
            for (SchedulingLog.Victim v : p.victims()) {
                Set<String> held = uuids(v.annotations());
                if (held.stream().noneMatch(got::contains)) {
                    violations.add(p.pod() + " on " + p.node() + " evicted " + v.pod() + ", which held " + held
                            + ", none of which a pod that preempted there got (they got " + got + ": "
                            + preemptions.stream()
                                    .filter(o -> o.node().equals(p.node()))
                                    .map(o -> o.pod() + " " + uuids(annotations.getOrDefault(o.pod(), Map.of())))
                                    .distinct()
                                    .toList()
                            + ")");
                }
            }
        }
        return new Invariant(
                "preemption",
                "each preemption evicted only lower-priority pods holding devices that the node's preemptors then got",
                preemptions.size(),
                violations);
    }

    /**
     * Every container of a topology-aware pod with two or more NVIDIA GPUs on a node with NVLink islands got GPUs of
     * one island, unless no island had that many GPUs that no other pod held from its scheduling attempt to its bind.
     */
    public Invariant topology(Scenario scenario) {
        var violations = new ArrayList<String>();
        int checked = 0;
        Map<String, NodeSpec> nodes = new HashMap<>();
        scenario.nodeSpecs().forEach(n -> nodes.put(n.name(), n));
        for (SchedulingLog.Bound b : log.of(SchedulingLog.Bound.class)) {
            NodeSpec node = nodes.get(b.node());
            DeviceGroup gpus = node == null ? null : node.devices(Vendor.NVIDIA).orElse(null);
            if (gpus == null || gpus.nvlink().isEmpty() || !topologyAware(b.pod(), scenario)) {
                continue;
            }
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < gpus.count(); i++) {
                index.put(DeviceIds.uuid(Vendor.NVIDIA, node.name(), i), i);
            }
            for (List<ContainerDevice> container : nvidia(annotations.getOrDefault(b.pod(), Map.of()))) {
                if (container.size() < 2) {
                    continue;
                }
                checked++;
                Set<Integer> islands = new HashSet<>();
                container.forEach(d -> islands.add(gpus.islandOf(index.getOrDefault(d.uuid(), -1))));
                if (islands.size() == 1 && !islands.contains(-1)) {
                    continue;
                }
                Set<Integer> held = heldDuring(b, index);
                for (int island = 0; island < gpus.nvlink().size(); island++) {
                    long free = gpus.nvlink().get(island).stream()
                            .filter(i -> !held.contains(i))
                            .count();
                    if (free >= container.size()) {
                        violations.add(b.pod() + " on " + b.node() + " got GPUs "
                                + container.stream()
                                        .map(d -> index.getOrDefault(d.uuid(), -1))
                                        .toList()
                                + " across islands while island "
                                + gpus.nvlink().get(island) + " had " + free
                                + " free");
                        break;
                    }
                }
            }
        }
        return new Invariant(
                "topology",
                "every multi-GPU container of a topology-aware pod got NVLinked GPUs when an island had room",
                checked,
                violations);
    }

    /**
     * How long pods that had been found unschedulable waited, after the last release of a device they then got on
     * their node, until they were bound; pods that got no device released while they waited are left out.
     */
    public ReleaseWaits releaseWaits() {
        Map<String, Long> firstUnschedulable = new HashMap<>();
        log.of(SchedulingLog.Unschedulable.class).forEach(u -> firstUnschedulable.putIfAbsent(u.pod(), u.atNanos()));
        List<SchedulingLog.Released> releases = log.of(SchedulingLog.Released.class);
        var waits = new ArrayList<Duration>();
        firstUnschedulable.forEach((pod, since) -> lastBound(pod).ifPresent(b -> {
            Set<String> got = uuids(annotations.getOrDefault(pod, Map.of()));
            releases.stream()
                    .filter(r -> !r.pod().equals(pod)
                            && b.node().equals(r.node())
                            && r.atNanos() > since
                            && r.atNanos() < b.atNanos()
                            && uuids(r.annotations()).stream().anyMatch(got::contains))
                    .mapToLong(SchedulingLog.Released::atNanos)
                    .max()
                    .ifPresent(last -> waits.add(Duration.ofNanos(b.atNanos() - last)));
        }));
        return ReleaseWaits.of(waits);
    }

    /** GPUs of the node that another pod held at any time from the pod's scheduling attempt to its bind. */
    private Set<Integer> heldDuring(SchedulingLog.Bound b, Map<String, Integer> index) {
        Map<String, Long> released = new HashMap<>();
        log.of(SchedulingLog.Released.class).forEach(r -> released.put(r.pod(), r.atNanos()));
        var held = new HashSet<Integer>();
        for (SchedulingLog.Bound other : log.of(SchedulingLog.Bound.class)) {
            if (other.pod().equals(b.pod())
                    || !other.node().equals(b.node())
                    || other.startedNanos() >= b.atNanos()
                    || released.getOrDefault(other.pod(), Long.MAX_VALUE) <= b.startedNanos()) {
                continue;
            }
            for (String uuid : uuids(annotations.getOrDefault(other.pod(), Map.of()))) {
                Integer i = index.get(uuid);
                if (i != null) {
                    held.add(i);
                }
            }
        }
        return held;
    }

    private boolean topologyAware(String pod, Scenario scenario) {
        String policy = annotations.getOrDefault(pod, Map.of()).get(Workload.GPU_POLICY);
        return SchedulerSpec.TOPOLOGY_AWARE.equals(
                policy != null ? policy : scenario.scheduler().gpuPolicy());
    }

    private Optional<SchedulingLog.Bound> lastBound(String pod) {
        return log.of(SchedulingLog.Bound.class).stream()
                .filter(b -> b.pod().equals(pod))
                .reduce((a, b) -> b);
    }

    /** Every device the annotations allocate, of any vendor. */
    private Set<String> uuids(Map<String, String> a) {
        var ids = new HashSet<String>();
        for (DeviceBackend b : backends.all()) {
            decode(a.get(b.keys().allocatedKey())).forEach(c -> c.forEach(d -> ids.add(d.uuid())));
        }
        return ids;
    }

    private List<List<ContainerDevice>> nvidia(Map<String, String> a) {
        return backends.byVendor(Vendor.NVIDIA.keyword())
                .map(b -> decode(a.get(b.keys().allocatedKey())))
                .orElse(List.of());
    }

    private static List<List<ContainerDevice>> decode(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        try {
            return PodDevicesCodec.decode(value).containers();
        } catch (AnnotationFormatException e) {
            return List.of(); // the grants invariant reports annotations that do not decode
        }
    }

    private static List<String> names(List<SchedulingLog.Victim> victims) {
        return victims.stream().map(SchedulingLog.Victim::pod).toList();
    }

    private static String key(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }
}
