package io.hami.scheduler.webhook;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.spi.Admission;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The mutating webhook's rules (docs/upstream.md#webhook, design D4 in docs/design.md#d4) as a pure function of the
 * pod and its namespace's quota room: send pods that ask for managed devices to our scheduler with the vendors'
 * defaults filled in, and reject what must never reach it.
 */
public final class AdmissionRules {
    static final String DEFAULT_SCHEDULER = "default-scheduler";

    private final DeviceBackends backends;
    private final String schedulerName;
    private final Set<String> protocolKeys;
    private final Function<String, Map<String, QuotaRoom>> quotaRooms;

    public AdmissionRules(DeviceBackends backends, String schedulerName) {
        this(backends, schedulerName, namespace -> Map.of());
    }

    /** @param quotaRooms per namespace, what one more pod may take per vendor under its quota */
    public AdmissionRules(
            DeviceBackends backends, String schedulerName, Function<String, Map<String, QuotaRoom>> quotaRooms) {
        this.backends = backends;
        this.schedulerName = schedulerName;
        this.quotaRooms = quotaRooms;
        var keys = new java.util.HashSet<String>();
        for (DeviceBackend b : backends.all()) {
            keys.add(b.keys().toAllocateKey());
            keys.add(b.keys().allocatedKey());
        }
        this.protocolKeys = Set.copyOf(keys);
    }

    /** The outcome for one pod. */
    public sealed interface Verdict {
        /** Admit {@code pod} (possibly changed from the one submitted). */
        record Allowed(Pod pod, String message) implements Verdict {}

        /** Refuse the pod with a message for its author. */
        record Denied(String message) implements Verdict {}
    }

    public Verdict review(Pod submitted) {
        return review(
                submitted,
                submitted.getMetadata() == null ? null : submitted.getMetadata().getNamespace());
    }

    /** The outcome for {@code submitted}, created in {@code namespace} (the review's, which a new pod may not carry). */
    public Verdict review(Pod submitted, String namespace) {
        var spec = submitted.getSpec();
        if (spec == null || spec.getContainers() == null || spec.getContainers().isEmpty()) {
            return new Verdict.Denied("pod has no containers");
        }
        Map<String, String> annotations =
                submitted.getMetadata() == null || submitted.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : submitted.getMetadata().getAnnotations();
        for (String key : annotations.keySet().stream().sorted().toList()) {
            if (isProtocolKey(key)) {
                return new Verdict.Denied(
                        "pod sets annotation " + key + ", which only the hami scheduler and device plugins may write;"
                                + " remove it (device grants cannot be requested through annotations)");
            }
        }
        String current = spec.getSchedulerName();
        if (current != null
                && !current.isEmpty()
                && !current.equals(DEFAULT_SCHEDULER)
                && !current.equals(schedulerName)) {
            return new Verdict.Allowed(submitted, "pod already has different scheduler assigned");
        }

        Pod pod = new PodBuilder(submitted).build();
        var podAnnotations = new LinkedHashMap<String, String>();
        String runtimeClass = "";
        boolean requested = false;
        List<Container> all = new ArrayList<>();
        if (pod.getSpec().getInitContainers() != null) {
            all.addAll(pod.getSpec().getInitContainers());
        }
        all.addAll(pod.getSpec().getContainers());
        for (Container c : all) {
            for (DeviceBackend b : backends.all()) {
                var unrepresentable = b.unrepresentable(c);
                if (unrepresentable.isPresent()) {
                    return new Verdict.Denied(unrepresentable.get());
                }
                switch (b.admit(c)) {
                    case Admission.Rejected r -> {
                        return new Verdict.Denied(r.message());
                    }
                    case Admission.Accepted a -> {
                        requested |= a.requested();
                        apply(c, a);
                        podAnnotations.putAll(a.podAnnotationsToSet());
                        if (runtimeClass.isEmpty()) {
                            runtimeClass = a.runtimeClassName(); // the first container's vendor that names one
                        }
                    }
                }
            }
        }
        // The vendors' defaults (counts, cores, memory for several GPUs) must be representable too.
        for (Container c : all) {
            for (DeviceBackend b : backends.all()) {
                var unrepresentable = b.unrepresentable(c);
                if (unrepresentable.isPresent()) {
                    return new Verdict.Denied(
                            unrepresentable.get() + " (after the " + b.vendor() + " defaults were applied)");
                }
            }
        }
        if (!requested) {
            return new Verdict.Allowed(pod, "no managed devices requested");
        }
        for (Container c : all) {
            if (c.getSecurityContext() != null
                    && Boolean.TRUE.equals(c.getSecurityContext().getPrivileged())) {
                return new Verdict.Denied(
                        "container " + c.getName() + " is privileged: a privileged container sees every device"
                                + " on the node, so it cannot be given a share of one");
            }
        }
        if (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
            return new Verdict.Denied("pod has node assigned (spec.nodeName "
                    + pod.getSpec().getNodeName() + "): pods that request shared devices must be placed by the "
                    + schedulerName + " scheduler");
        }
        String overQuota = namespace == null ? null : overQuota(pod, namespace);
        if (overQuota != null) {
            return new Verdict.Denied(overQuota);
        }
        if (!podAnnotations.isEmpty()) {
            var merged = new HashMap<>(annotations);
            merged.putAll(podAnnotations);
            pod.getMetadata().setAnnotations(merged);
        }
        String podClass = pod.getSpec().getRuntimeClassName();
        if (!runtimeClass.isEmpty() && (podClass == null || podClass.isEmpty())) {
            pod.getSpec().setRuntimeClassName(runtimeClass);
        }
        if (schedulerName != null && !schedulerName.isEmpty()) {
            pod.getSpec().setSchedulerName(schedulerName);
        }
        return new Verdict.Allowed(pod, "scheduled by " + schedulerName);
    }

    /**
     * Upstream's {@code fitResourceQuota}: per vendor the larger of the app containers' sum and the largest init
     * container, against the namespace's room; a memory percentage counts as nothing here (it depends on the device).
     * Cores count as granted (above 100 as 100), as the fit checks the quota, where upstream's webhook counts them as
     * asked (docs/upstream.md#lenient-inputs).
     */
    private String overQuota(Pod pod, String namespace) {
        Map<String, QuotaRoom> rooms = quotaRooms.apply(namespace);
        if (rooms.isEmpty()) {
            return null;
        }
        for (DeviceBackend b : backends.all()) {
            QuotaRoom room = rooms.get(b.vendor());
            if (room == null) {
                continue;
            }
            long appMem = 0;
            long appCores = 0;
            for (Container c : pod.getSpec().getContainers()) {
                ContainerRequest r = b.request(c);
                appMem += (long) r.memreq() * r.nums();
                appCores += (long) r.grantedCores() * r.nums();
            }
            long initMem = 0;
            long initCores = 0;
            for (Container c : pod.getSpec().getInitContainers() == null
                    ? List.<Container>of()
                    : pod.getSpec().getInitContainers()) {
                ContainerRequest r = b.request(c);
                initMem = Math.max(initMem, (long) r.memreq() * r.nums());
                initCores = Math.max(initCores, (long) r.grantedCores() * r.nums());
            }
            long mem = Math.max(appMem, initMem);
            long cores = Math.max(appCores, initCores);
            if (!room.admits(mem, cores)) {
                return "exceeding resource quota: the pod asks for " + mem + " MiB and " + cores + " cores of "
                        + b.vendor()
                        + " devices, namespace " + namespace + " has " + left(room.memMiB()) + " MiB and "
                        + left(room.cores())
                        + " cores left under its ResourceQuota";
            }
        }
        return null;
    }

    private static String left(long value) {
        return value == Long.MAX_VALUE ? "unlimited" : Long.toString(Math.max(value, 0));
    }

    /** Keys the scheduler and plugins own (design D4): {@code hami.io/vgpu-*}, {@code hami.io/bind-*} and every vendor's pod keys. */
    boolean isProtocolKey(String key) {
        return key.startsWith(ProtocolKeys.VGPU_PREFIX)
                || key.startsWith(ProtocolKeys.BIND_PREFIX)
                || protocolKeys.contains(key);
    }

    private static void apply(Container c, Admission.Accepted a) {
        if (!a.limitsToSet().isEmpty()) {
            var limits = new HashMap<String, Quantity>(
                    c.getResources().getLimits() == null
                            ? Map.of()
                            : c.getResources().getLimits());
            a.limitsToSet().forEach((name, value) -> limits.put(name, new Quantity(value)));
            c.getResources().setLimits(limits);
        }
        if (!a.envToAdd().isEmpty()) {
            var env = new ArrayList<EnvVar>(c.getEnv() == null ? List.of() : c.getEnv());
            a.envToAdd().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
                if (env.stream().noneMatch(v -> v.getName().equals(e.getKey()))) {
                    env.add(new EnvVar(e.getKey(), e.getValue(), null));
                }
            });
            c.setEnv(env);
        }
    }
}
