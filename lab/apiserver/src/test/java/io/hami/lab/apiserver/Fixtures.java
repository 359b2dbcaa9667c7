package io.hami.lab.apiserver;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.Map;

/** Minimal valid objects for the tests. */
final class Fixtures {

    private Fixtures() {}

    static Namespace namespace(String name) {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .build();
    }

    static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    static Pod pod(String name, Map<String, String> labels) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
    }

    static Pod pod(String name) {
        return pod(name, Map.of());
    }

    static Pod podOn(String name, String nodeName, String phase) {
        Pod pod = pod(name);
        pod.getSpec().setNodeName(nodeName);
        pod.setStatus(new PodStatusBuilder().withPhase(phase).build());
        return pod;
    }
}
