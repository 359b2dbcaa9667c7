package io.hami.e2e.support;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * What kube-controller-manager's node lifecycle controller does for a node, which this control plane lacks.
 * kube-apiserver's TaintNodesByCondition admission plugin (on by default) taints every new node
 * {@code node.kubernetes.io/not-ready:NoSchedule}; the controller removes the taint once the node reports Ready.
 * Without it kube-scheduler places no pod on a node created here.
 */
public final class NodeLifecycle {
    public static final String NOT_READY = "node.kubernetes.io/not-ready";

    private NodeLifecycle() {}

    /** Creates {@code node} (its status says Ready) and removes the not-ready taint as the controller would. */
    public static Node createReady(KubernetesClient admin, Node node) {
        admin.nodes().resource(node).create();
        return admin.nodes()
                .withName(node.getMetadata().getName())
                .edit(n -> n.getSpec() == null || n.getSpec().getTaints() == null
                        ? n
                        : new NodeBuilder(n)
                                .editSpec()
                                .withTaints(n.getSpec().getTaints().stream()
                                        .filter(t -> !NOT_READY.equals(t.getKey()))
                                        .toList())
                                .endSpec()
                                .build());
    }
}
