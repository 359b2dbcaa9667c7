package io.hami.lab.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.hami.kube.lock.NodeLockClient;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubelet and device plugins together for synthetic nodes, which have neither: when a pod is bound to one, it
 * finishes the allocation the way the vendor plugins would at the annotation level (design D4 in docs/design.md#d4: every vendor's entries
 * consumed, {@code bind-phase=success}, the node lock released by its holder) and starts the pod. Only for scale runs,
 * where what is measured is the scheduler; nodes with plugins use {@link SimulatedKubelet}.
 */
public final class SyntheticKubelet implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SyntheticKubelet.class);

    private final KubernetesClient client;
    private final Set<String> nodes;
    private final DeviceBackends backends;
    private final NodeLockClient locks;
    private final ContainerRuntime runtime;
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    private final SharedIndexInformer<Pod> informer;

    public SyntheticKubelet(
            KubernetesClient client,
            Set<String> nodes,
            DeviceBackends backends,
            NodeLockClient locks,
            ContainerRuntime runtime) {
        this.client = client;
        this.nodes = Set.copyOf(nodes);
        this.backends = backends;
        this.locks = locks;
        this.runtime = runtime;
        this.informer = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                admitIfOurs(pod);
            }

            @Override
            public void onUpdate(Pod before, Pod after) {
                admitIfOurs(after);
            }

            @Override
            public void onDelete(Pod pod, boolean unknown) {}
        });
    }

    private void admitIfOurs(Pod pod) {
        String node = pod.getSpec().getNodeName();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (node != null && nodes.contains(node) && pod.getMetadata().getDeletionTimestamp() != null) {
            workers.execute(() -> PodDeletion.confirm(client, pod));
            return;
        }
        if (node != null
                && nodes.contains(node)
                && (phase == null || phase.equals("Pending"))
                && admitted.add(pod.getMetadata().getUid())) {
            workers.execute(() -> admit(pod, node));
        }
    }

    private void admit(Pod pod, String node) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        try {
            Map<String, String> annotations = pod.getMetadata().getAnnotations() == null
                    ? Map.of()
                    : pod.getMetadata().getAnnotations();
            if (ProtocolKeys.PHASE_ALLOCATING.equals(annotations.get(ProtocolKeys.BIND_PHASE))) {
                consumeAll(pod, annotations);
                locks.release(node, ns, name);
            }
            runtime.start(pod);
        } catch (KubernetesClientException | AnnotationFormatException e) {
            LOG.warn("synthetic node {}: pod {}/{}: {}", node, ns, name, e.getMessage());
            runtime.status().failed(pod, "UnexpectedAdmissionError", e.getMessage());
        }
    }

    /** One patch: every vendor's to-allocate entries emptied and {@code bind-phase=success}. */
    private void consumeAll(Pod pod, Map<String, String> annotations) throws AnnotationFormatException {
        var set = new HashMap<String, String>();
        for (DeviceBackend b : backends.all()) {
            String value = annotations.get(b.keys().toAllocateKey());
            if (value != null) {
                PodDevices pending = PodDevicesCodec.decode(value);
                List<List<io.hami.protocol.device.ContainerDevice>> empty =
                        new ArrayList<>(Collections.nCopies(pending.containers().size(), List.of()));
                set.put(b.keys().toAllocateKey(), PodDevicesCodec.encode(new PodDevices(empty)));
            }
        }
        set.put(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_SUCCESS);
        PodStatusWriter.mergePatch(client, pod, false, AnnotationPatch.mergePatch(set, Map.of(), null));
    }

    @Override
    public void close() {
        informer.close();
        workers.shutdownNow();
    }
}
