package io.hami.lab.check;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.lab.fault.UntrustedPod;
import io.hami.lab.kubelet.AllocationLog;
import io.hami.lab.kubelet.ContainerAllocation;
import io.hami.lab.scenario.Vendor;
import io.hami.lab.scenario.Workload;
import io.hami.lab.usage.ContainerUsage;
import io.hami.lab.usage.ContainerWorkloads;
import io.hami.lab.workload.PodPlan;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants every run must keep, checked against the API server's objects and the simulated kubelets'
 * records, never against the scheduler's own state.
 */
public final class InvariantChecker {
    private final DeviceInventory inventory;
    private final DeviceBackends backends;

    public InvariantChecker(DeviceInventory inventory, DeviceBackends backends) {
        this.inventory = inventory;
        this.backends = backends;
    }

    /** No device holds more memory, cores or tasks than it has, and every allocated device exists on its node. */
    public Invariant capacity(Collection<Pod> pods) {
        DeviceAccounting.Result result = DeviceAccounting.of(pods, backends);
        var violations = new ArrayList<>(result.unreadable());
        result.usage().forEach((key, used) -> {
            var device = inventory.find(key.node(), key.id());
            if (device.isEmpty()) {
                violations.add(key.node() + ": pods hold device " + key.id() + ", which the node does not have");
                return;
            }
            DeviceCapacity d = device.get();
            if (used.memory() > d.memory()) {
                violations.add(key.node() + " " + key.id() + ": " + used.memory() + " MiB allocated of " + d.memory());
            }
            if (used.cores() > d.cores()) {
                violations.add(key.node() + " " + key.id() + ": " + used.cores() + " cores allocated of " + d.cores());
            }
            if (d.slots() > 0 && used.tasks() > d.slots()) {
                violations.add(key.node() + " " + key.id() + ": " + used.tasks() + " tasks share it, split count "
                        + d.slots());
            }
        });
        return new Invariant(
                "capacity",
                "no device's allocated memory, cores or tasks exceed what it has",
                inventory.all().size(),
                violations);
    }

    /**
     * Every container of every pod that ran (running or succeeded) on a node with plugins got, through Allocate, the
     * environment and device nodes its pod's allocated annotation grants it ({@link GrantRules}).
     */
    public Invariant envMatchesAllocation(Collection<Pod> pods, Set<String> pluginNodes, AllocationLog log) {
        var violations = new ArrayList<String>();
        int checked = 0;
        for (Pod pod : pods) {
            String phase = phase(pod);
            boolean ran = "Running".equals(phase) || "Succeeded".equals(phase);
            if (!ran || !pluginNodes.contains(pod.getSpec().getNodeName())) {
                continue;
            }
            Map<Integer, GrantRules.Received> received = new HashMap<>();
            for (ContainerAllocation a : log.of(pod.getMetadata().getUid())) {
                var got = received.computeIfAbsent(
                        a.container().index(),
                        i -> new GrantRules.Received(new HashMap<>(), new ArrayList<>(), new ArrayList<>()));
                got.env().putAll(a.answer().env());
                a.answer().devices().forEach(d -> got.devices().add(d.containerPath()));
                a.answer().mounts().forEach(m -> got.mounts().add(m.containerPath()));
            }
            for (DeviceBackend b : backends.all()) {
                String value = pod.getMetadata().getAnnotations().get(b.keys().allocatedKey());
                if (value == null) {
                    continue;
                }
                PodDevices allocated;
                try {
                    allocated = PodDevicesCodec.decode(value);
                } catch (AnnotationFormatException e) {
                    violations.add(name(pod) + ": " + b.keys().allocatedKey() + " does not decode: " + e.getMessage());
                    continue;
                }
                for (int i = 0; i < allocated.containers().size(); i++) {
                    List<ContainerDevice> granted = allocated.containers().get(i);
                    if (granted.isEmpty()) {
                        continue;
                    }
                    checked++;
                    GrantRules.Received got = received.get(i);
                    String container = containerName(pod, i);
                    if (got == null) {
                        violations.add(name(pod) + " container " + container + ": granted " + granted.size() + " "
                                + b.vendor() + " device(s) but Allocate never served it");
                        continue;
                    }
                    Vendor vendor = Vendor.byKeyword(b.vendor());
                    GrantRules.mismatch(vendor, granted, got, pod.getSpec().getNodeName(), inventory)
                            .ifPresent(m -> violations.add(
                                    name(pod) + " container " + container + " (" + b.vendor() + "): " + m));
                }
            }
        }
        return new Invariant(
                "grants",
                "every container that ran got the env and devices its pod's allocated annotation grants",
                checked,
                violations);
    }

    /**
     * The {@code usage} invariant ({@link UsageAgreement}): the monitors' final figures against what the workloads
     * of the {@code started} containers last wrote.
     */
    public Invariant usage(
            List<ContainerWorkloads.Started> started,
            List<ContainerUsage> written,
            List<ContainerUsage> reported,
            List<String> problems) {
        var overLimit = new java.util.HashSet<String>();
        started.stream()
                .filter(s -> s.profile().overLimit())
                .forEach(s ->
                        overLimit.add(s.container().pod() + "/" + s.container().name()));
        return UsageAgreement.check(written, reported, overLimit, problems);
    }

    /** No node still carries a node lock. */
    public Invariant locksReleased(Collection<Node> nodes) {
        var violations = new ArrayList<String>();
        for (Node n : nodes) {
            Map<String, String> a = n.getMetadata().getAnnotations();
            String lock = a == null ? null : a.get(ProtocolKeys.NODE_LOCK);
            if (lock != null) {
                violations.add(n.getMetadata().getName() + " is still locked: " + lock);
            }
        }
        return new Invariant("locks", "every node lock is released at the end", nodes.size(), violations);
    }

    /** No pod is left allocating, or bound without having been started or refused by its kubelet. */
    public Invariant noneStuck(Collection<Pod> pods) {
        var violations = new ArrayList<String>();
        for (Pod pod : pods) {
            String phase = phase(pod);
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            Map<String, String> a = pod.getMetadata().getAnnotations();
            if (ProtocolKeys.PHASE_ALLOCATING.equals(a.get(ProtocolKeys.BIND_PHASE))) {
                violations.add(name(pod) + " is still allocating on " + a.get(ProtocolKeys.VGPU_NODE));
            } else if (pod.getSpec().getNodeName() != null && !"Running".equals(phase)) {
                violations.add(name(pod) + " is bound to " + pod.getSpec().getNodeName() + " but still " + phase);
            }
        }
        return new Invariant("stuck", "no pod is stuck allocating or bound but not started", pods.size(), violations);
    }

    /** Every pod of a workload with an expectation ended as expected. */
    public Invariant expectations(List<PodPlan> plans, Collection<Pod> pods, Map<String, String> rejected) {
        Map<String, Pod> byName = new HashMap<>();
        pods.forEach(p -> byName.put(p.getMetadata().getName(), p));
        var violations = new ArrayList<String>();
        int checked = 0;
        for (PodPlan plan : plans) {
            Workload.Expectation expect = plan.workload().expect();
            if (expect == null) {
                continue;
            }
            checked++;
            Pod pod = byName.get(plan.name());
            String got = pod == null ? (rejected.containsKey(plan.name()) ? "rejected" : "missing") : outcome(pod);
            boolean ok = switch (expect) {
                case RUNNING -> got.equals("Running") || got.equals("Succeeded");
                case UNSCHEDULABLE -> got.equals("Unschedulable");
                case REJECTED -> got.equals("rejected");
            };
            if (!ok) {
                violations.add(plan.name() + " (workload " + plan.workload().name() + "): expected "
                        + expect.name().toLowerCase(java.util.Locale.ROOT) + ", got " + got);
            }
        }
        return new Invariant(
                "expectations", "every pod of a workload with an expectation ended as expected", checked, violations);
    }

    /** How soon a node whose lock holder its kubelet rejected must take its next pod. */
    public static final Duration TAKEOVER = Duration.ofSeconds(10);

    /**
     * No pod a fault made untrustworthy (a self-written grant, a lock holder its kubelet rejected) received a device
     * through Allocate or ran, and each rejected holder's node lock moved on within {@link #TAKEOVER}.
     */
    public Invariant untrusted(List<UntrustedPod> untrusted, Collection<Pod> pods, AllocationLog log) {
        Map<String, Pod> byUid = new HashMap<>();
        pods.forEach(p -> byUid.put(p.getMetadata().getUid(), p));
        var violations = new ArrayList<String>();
        for (UntrustedPod u : untrusted) {
            var served = log.of(u.uid());
            if (!served.isEmpty()) {
                violations.add(u.pod() + " (" + u.fault() + "): Allocate served it "
                        + served.stream()
                                .map(a -> a.resource() + " " + a.deviceIds())
                                .toList());
            }
            Pod pod = byUid.get(u.uid());
            String phase = pod == null ? "deleted" : String.valueOf(phase(pod));
            if (!phase.equals("Failed") && !phase.equals("deleted")) {
                violations.add(u.pod() + " (" + u.fault() + "): ended " + phase + ", not Failed");
            }
            if (u.fault().equals("kubelet-rejects")
                    && (u.takeover() == null || u.takeover().compareTo(TAKEOVER) > 0)) {
                violations.add(u.node() + ": the lock of rejected pod " + u.pod() + " moved on "
                        + (u.takeover() == null
                                ? "never"
                                : "after " + u.takeover().toMillis() + " ms") + ", not within "
                        + TAKEOVER.toSeconds() + " s");
            }
        }
        return new Invariant(
                "trust",
                "no self-granted pod or kubelet-rejected lock holder gets a device, and the node takes "
                        + "its next pod within " + TAKEOVER.toSeconds() + " s",
                untrusted.size(),
                violations);
    }

    private static String outcome(Pod pod) {
        boolean unschedulable = pod.getSpec().getNodeName() == null
                && pod.getStatus() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "PodScheduled".equals(c.getType()) && "Unschedulable".equals(c.getReason()));
        return unschedulable ? "Unschedulable" : String.valueOf(phase(pod));
    }

    private static String phase(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    private static String containerName(Pod pod, int index) {
        int init = pod.getSpec().getInitContainers().size();
        return index < init
                ? pod.getSpec().getInitContainers().get(index).getName()
                : index - init < pod.getSpec().getContainers().size()
                        ? pod.getSpec().getContainers().get(index - init).getName()
                        : "#" + index;
    }
}
