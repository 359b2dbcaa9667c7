package io.hami.lab.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one part of kube-controller-manager's node lifecycle controller a lab run on the real control plane needs:
 * kube-apiserver's TaintNodesByCondition admission gives every new Node the {@code node.kubernetes.io/not-ready}
 * NoSchedule taint, which the controller removes once the node reports Ready; without it kube-scheduler places no pod
 * ("had untolerated taint(s)"). No kube-controller-manager runs here, so this removes the taint from nodes whose Ready
 * condition is True.
 */
final class NodeLifecycle implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeLifecycle.class);
    static final String NOT_READY = "node.kubernetes.io/not-ready";

    private final KubernetesClient client;
    /** A virtual thread per write: a thousand new nodes are untainted in parallel, as the controller's workers do. */
    private final ExecutorService writer = Executors.newVirtualThreadPerTaskExecutor();

    private final SharedIndexInformer<Node> nodes;

    NodeLifecycle(KubernetesClient client) {
        this.client = client;
        this.nodes = client.nodes().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                check(node);
            }

            @Override
            public void onUpdate(Node before, Node after) {
                check(after);
            }

            @Override
            public void onDelete(Node node, boolean unknown) {}
        });
    }

    private void check(Node node) {
        if (ready(node) && tainted(node)) {
            writer.execute(() -> untaint(node));
        }
    }

    /** Removes the taint from the node as the informer delivered it; a conflict means a newer one is on its way. */
    private void untaint(Node node) {
        String name = node.getMetadata().getName();
        try {
            List<Taint> kept = taints(node).stream()
                    .filter(t -> !NOT_READY.equals(t.getKey()))
                    .toList();
            var spec = new HashMap<String, Object>();
            spec.put("taints", kept.isEmpty() ? null : kept);
            var patch = new HashMap<String, Object>();
            patch.put("metadata", Map.of("resourceVersion", node.getMetadata().getResourceVersion()));
            patch.put("spec", spec);
            client.nodes()
                    .withName(name)
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            client.getKubernetesSerialization().asJson(patch));
        } catch (KubernetesClientException e) {
            LOG.debug("node {}: removing the {} taint: {}", name, NOT_READY, e.getMessage());
        }
    }

    /** Whether the node still has the taint a new node gets until it is Ready. */
    static boolean tainted(Node node) {
        return taints(node).stream().anyMatch(t -> NOT_READY.equals(t.getKey()));
    }

    private static boolean ready(Node node) {
        return node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static List<Taint> taints(Node node) {
        return node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of()
                : node.getSpec().getTaints();
    }

    @Override
    public void close() {
        nodes.close();
        writer.shutdownNow();
    }
}
