package io.hami.e2e.support;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.lock.HolderPod;
import io.hami.kube.lock.HolderState;
import io.hami.kube.lock.LockRules;
import io.hami.kube.lock.LockTimeouts;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The invariants a burst of binds must leave behind, read from the API server alone (NVIDIA nodes): every bound pod
 * carries a finished decision for its own node's devices, no device holds more memory, cores or tasks than it has,
 * and every node lock is free or one the next bind may take (design D5).
 */
public final class ClusterInvariants {
    private ClusterInvariants() {}

    /** Fails on the first bound pod whose decision is missing, elsewhere or unfinished, or on an overcommitted GPU. */
    public static void assertNoOvercommit(KubernetesClient admin, String namespace, Collection<String> nodes)
            throws AnnotationFormatException {
        var devices = new HashMap<String, DeviceInfo>();
        var nodeOf = new HashMap<String, String>();
        for (String name : nodes) {
            String register = annotations(admin.nodes().withName(name).get()).get("hami.io/node-nvidia-register");
            for (DeviceInfo d : JsonRegisterCodec.decode(register)) {
                devices.put(d.id(), d);
                nodeOf.put(d.id(), name);
            }
        }
        var mem = new HashMap<String, Integer>();
        var cores = new HashMap<String, Integer>();
        var tasks = new HashMap<String, Integer>();
        for (Pod pod : admin.pods().inNamespace(namespace).list().getItems()) {
            String node = pod.getSpec().getNodeName();
            if (node == null) {
                continue;
            }
            String name = pod.getMetadata().getName();
            Map<String, String> a = annotations(pod);
            String allocated = a.get("hami.io/vgpu-devices-allocated");
            assertThat(allocated).as("bound pod %s carries its decision", name).isNotNull();
            assertThat(a.get(ProtocolKeys.VGPU_NODE))
                    .as("pod %s decision names its node", name)
                    .isEqualTo(node);
            assertThat(a.get(ProtocolKeys.BIND_PHASE))
                    .as("pod %s allocated", name)
                    .isEqualTo(ProtocolKeys.PHASE_SUCCESS);
            for (List<ContainerDevice> container :
                    PodDevicesCodec.decode(allocated).containers()) {
                for (ContainerDevice d : container) {
                    assertThat(nodeOf.get(d.uuid()))
                            .as("pod %s device %s is on %s", name, d.uuid(), node)
                            .isEqualTo(node);
                    mem.merge(d.uuid(), d.usedmem(), Integer::sum);
                    cores.merge(d.uuid(), d.usedcores(), Integer::sum);
                    tasks.merge(d.uuid(), 1, Integer::sum);
                }
            }
        }
        mem.forEach((uuid, m) -> assertThat(m)
                .as("memory on %s", uuid)
                .isLessThanOrEqualTo(devices.get(uuid).devmem()));
        cores.forEach((uuid, c) -> assertThat(c)
                .as("cores on %s", uuid)
                .isLessThanOrEqualTo(devices.get(uuid).devcore()));
        tasks.forEach((uuid, t) -> assertThat(t)
                .as("tasks on %s", uuid)
                .isLessThanOrEqualTo(devices.get(uuid).count()));
    }

    /** How many of {@code nodes} hold a lock that the next bind would have to wait for (0 is the invariant). */
    public static int stuckLocks(KubernetesClient admin, Collection<String> nodes, Duration lockTimeout)
            throws AnnotationFormatException {
        Instant now = Instant.now();
        int stuck = 0;
        for (String name : nodes) {
            Node node = admin.nodes().withName(name).get();
            String value = annotations(node).get(ProtocolKeys.NODE_LOCK);
            if (value == null) {
                continue;
            }
            var lock = NodeLockCodec.decode(value);
            Pod holder = admin.pods()
                    .inNamespace(lock.namespace())
                    .withName(lock.name())
                    .get();
            HolderState state = LockRules.holderState(name, lock, HolderPod.of(holder));
            if (LockRules.decide(lock, "", "someone-else", state, now, LockTimeouts.of(lockTimeout))
                    instanceof LockRules.Decision.Wait) {
                stuck++;
            }
        }
        return stuck;
    }
}
