package io.hami.e2e.faults;

import static io.hami.e2e.support.ClusterOps.annotations;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.HamiScheduler;
import io.hami.lab.kubelet.AllocationLog;
import io.hami.lab.kubelet.ContainerAllocation;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.codec.UnixTimeCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A burst of single-GPU pods on {@link PluginNodes}, and what it left behind, read from the API server alone (plus the
 * kubelets' record of the Allocate answers they received): which pods are bound, Running (their Allocate answered),
 * refused by the kubelet, still pending; how many devices hold more memory, cores or tasks than they have; and every
 * pod whose state does not add up.
 */
final class Burst {
    /** The reason the kubelet gives a pod whose admission failed (an Allocate error among others). */
    static final String ADMISSION_ERROR = "UnexpectedAdmissionError";

    private final KubernetesClient admin;
    private final String namespace;
    private final String pool;
    private final int memMiB;

    Burst(KubernetesClient admin, String namespace, String pool, int memMiB) {
        this.admin = admin;
        this.namespace = namespace;
        this.pool = pool;
        this.memMiB = memMiB;
    }

    /**
     * Creates {@code count} pods {@code prefix-0 ...} of one GPU and the burst's memory, for kube-scheduler. They ask
     * for the {@code spread} node policy, so that consecutive pods go to different nodes and their binds and
     * Allocates run on every node at once; under {@code binpack} every pod wants the fullest node, whose lock admits
     * one bind at a time, and kube-scheduler's back-off after each refused bind (1 s doubling to 10 s) stretched a
     * burst of 120 pods on four nodes to two minutes.
     */
    void create(String prefix, int count) {
        for (int i = 0; i < count; i++) {
            admin.pods().inNamespace(namespace).resource(pod(prefix + "-" + i)).create();
        }
    }

    /** Creates one such pod that only {@code node} may take. */
    void createOn(String name, String node) {
        admin.pods()
                .inNamespace(namespace)
                .resource(new PodBuilder(pod(name))
                        .editSpec()
                        .addToNodeSelector("kubernetes.io/hostname", node)
                        .endSpec()
                        .build())
                .create();
    }

    private Pod pod(String name) {
        return new PodBuilder(Cluster.pod(
                                namespace,
                                name,
                                Cluster.container(
                                        "cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", String.valueOf(memMiB)))
                        .build())
                .editMetadata()
                .addToAnnotations(ProtocolKeys.NODE_SCHEDULER_POLICY, "spread")
                .endMetadata()
                .editSpec()
                .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                .addToTolerations(Cluster.e2eToleration())
                .addToNodeSelector(PluginNodes.POOL_LABEL, pool)
                .endSpec()
                .build();
    }

    List<Pod> pods() {
        return admin.pods().inNamespace(namespace).list().getItems();
    }

    static boolean bound(Pod p) {
        return p.getSpec().getNodeName() != null;
    }

    static String phase(Pod p) {
        return p.getStatus() == null ? null : p.getStatus().getPhase();
    }

    static boolean running(Pod p) {
        return "Running".equals(phase(p));
    }

    /** Refused by the kubelet at admission. */
    static boolean refused(Pod p) {
        return "Failed".equals(phase(p));
    }

    /** Running or refused: nothing is left to happen to it. */
    static boolean settled(Pod p) {
        return running(p) || refused(p);
    }

    /** When the API server bound the pod ({@code PodScheduled=True}, whole seconds), else its decision's bind time. */
    static Optional<Instant> boundAt(Pod p) {
        if (!bound(p)) {
            return Optional.empty();
        }
        Optional<Instant> condition = p.getStatus() == null
                ? Optional.empty()
                : p.getStatus().getConditions().stream()
                        .filter(c -> "PodScheduled".equals(c.getType()) && "True".equals(c.getStatus()))
                        .map(PodCondition::getLastTransitionTime)
                        .filter(t -> t != null)
                        .map(Instant::parse)
                        .findFirst();
        if (condition.isPresent()) {
            return condition;
        }
        try {
            String bindTime = annotations(p).get(ProtocolKeys.BIND_TIME);
            return bindTime == null ? Optional.empty() : Optional.of(UnixTimeCodec.decode(bindTime));
        } catch (AnnotationFormatException e) {
            return Optional.empty();
        }
    }

    /** Each pod that is not yet settled, with its state, for a failure message. */
    static String unsettled(List<Pod> pods) {
        return pods.stream().filter(p -> !settled(p)).map(Burst::describe).collect(Collectors.joining("\n"));
    }

    static String describe(Pod p) {
        Map<String, String> a = annotations(p);
        return p.getMetadata().getName() + " node=" + p.getSpec().getNodeName() + " phase=" + phase(p)
                + " bind-phase=" + a.get(ProtocolKeys.BIND_PHASE) + " to-allocate=" + a.get(NvidiaKeys.TO_ALLOCATE)
                + (p.getStatus() != null && p.getStatus().getMessage() != null
                        ? " message=" + p.getStatus().getMessage()
                        : "");
    }

    /**
     * The devices of {@code nodes} that hold more memory, cores or tasks than they have, summed over every pod bound
     * to them that has not ended (Running, or bound and not yet admitted: what the scheduler counts too; a pod the
     * kubelet refused holds nothing), from its allocated annotation. Empty is the invariant.
     */
    List<String> overcommits(Collection<String> nodes) throws AnnotationFormatException {
        Map<String, DeviceInfo> devices = new HashMap<>();
        devicesOf(nodes).values().forEach(devices::putAll);
        var mem = new HashMap<String, Integer>();
        var cores = new HashMap<String, Integer>();
        var tasks = new HashMap<String, Integer>();
        for (Pod pod : pods()) {
            String allocated = annotations(pod).get(NvidiaKeys.ALLOCATED);
            if (!bound(pod) || refused(pod) || "Succeeded".equals(phase(pod)) || allocated == null) {
                continue;
            }
            for (List<ContainerDevice> container :
                    PodDevicesCodec.decode(allocated).containers()) {
                for (ContainerDevice d : container) {
                    mem.merge(d.uuid(), d.usedmem(), Integer::sum);
                    cores.merge(d.uuid(), d.usedcores(), Integer::sum);
                    tasks.merge(d.uuid(), 1, Integer::sum);
                }
            }
        }
        var over = new ArrayList<String>();
        tasks.forEach((uuid, t) -> {
            DeviceInfo d = devices.get(uuid);
            if (d == null) {
                over.add(uuid + ": no such device on " + nodes);
            } else if (mem.get(uuid) > d.devmem() || cores.get(uuid) > d.devcore() || t > d.count()) {
                over.add(uuid + ": memory " + mem.get(uuid) + "/" + d.devmem() + " MiB, cores " + cores.get(uuid) + "/"
                        + d.devcore() + ", tasks " + t + "/" + d.count());
            }
        });
        return over;
    }

    /** Each node's GPUs by UUID, as its plugin registered them. */
    private Map<String, Map<String, DeviceInfo>> devicesOf(Collection<String> nodes) throws AnnotationFormatException {
        var byNode = new HashMap<String, Map<String, DeviceInfo>>();
        for (String name : nodes) {
            String register = annotations(admin.nodes().withName(name).get()).get(NvidiaKeys.REGISTER);
            var devices = new HashMap<String, DeviceInfo>();
            for (DeviceInfo d : JsonRegisterCodec.decode(register)) {
                devices.put(d.id(), d);
            }
            byNode.put(name, devices);
        }
        return byNode;
    }

    /**
     * Every settled pod whose state does not add up, with why. A Running pod: bound, {@code bind-phase=success}, its
     * decision for its own node's devices with nothing left to allocate, and exactly one Allocate answer, which names
     * the decided GPU and its memory. A refused pod: {@code UnexpectedAdmissionError}, and no Allocate answer (the
     * kubelet refuses only when it got none). A pod that is not settled is reported as such.
     */
    List<String> inconsistencies(Collection<String> nodes, AllocationLog answers) throws AnnotationFormatException {
        Map<String, Map<String, DeviceInfo>> devices = devicesOf(nodes);
        var wrong = new ArrayList<String>();
        for (Pod p : pods()) {
            String name = p.getMetadata().getName();
            List<ContainerAllocation> got = answers.of(p.getMetadata().getUid());
            if (refused(p)) {
                if (!ADMISSION_ERROR.equals(p.getStatus().getReason())) {
                    wrong.add(name + ": Failed with reason " + p.getStatus().getReason());
                }
                if (!got.isEmpty()) {
                    wrong.add(name + ": refused although Allocate answered " + got);
                }
                continue;
            }
            if (!running(p)) {
                wrong.add(name + ": not settled: " + describe(p));
                continue;
            }
            Map<String, String> a = annotations(p);
            String node = p.getSpec().getNodeName();
            if (!ProtocolKeys.PHASE_SUCCESS.equals(a.get(ProtocolKeys.BIND_PHASE))) {
                wrong.add(name + ": Running with " + describe(p));
            }
            if (!node.equals(a.get(ProtocolKeys.VGPU_NODE)) || !nodes.contains(node)) {
                wrong.add(name + ": bound to " + node + ", decided for " + a.get(ProtocolKeys.VGPU_NODE));
            }
            try {
                List<ContainerDevice> decided = PodDevicesCodec.decode(a.get(NvidiaKeys.ALLOCATED))
                        .containers()
                        .getFirst();
                if (!PodDevicesCodec.decode(a.get(NvidiaKeys.TO_ALLOCATE)).isEmpty()) {
                    wrong.add(name + ": Running with entries left: " + a.get(NvidiaKeys.TO_ALLOCATE));
                }
                if (decided.size() != 1
                        || !devices.getOrDefault(node, Map.of())
                                .containsKey(decided.getFirst().uuid())) {
                    wrong.add(name + ": decision " + decided + " is not one GPU of " + node);
                }
                if (got.size() != 1) {
                    wrong.add(name + ": " + got.size() + " Allocate answers: " + got);
                } else {
                    Map<String, String> env = got.getFirst().answer().env();
                    ContainerDevice d = decided.getFirst();
                    if (!d.uuid().equals(env.get("NVIDIA_VISIBLE_DEVICES"))
                            || !(d.usedmem() + "m").equals(env.get("CUDA_DEVICE_MEMORY_LIMIT_0"))) {
                        wrong.add(name + ": decided " + d + " but Allocate answered " + env);
                    }
                }
            } catch (AnnotationFormatException | RuntimeException e) {
                wrong.add(name + ": decision unreadable: " + e.getMessage() + " in " + describe(p));
            }
        }
        return wrong;
    }
}
