package io.hami.cli.inspect;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The nodes and pods of a cluster as one LIST each returned them, sorted by name. */
record Cluster(List<Node> nodes, List<Pod> pods) {

    Cluster {
        nodes = nodes.stream()
                .sorted(Comparator.comparing(n -> n.getMetadata().getName()))
                .toList();
        pods = pods.stream()
                .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getNamespace())
                        .thenComparing(p -> p.getMetadata().getName()))
                .toList();
    }

    static Cluster read(KubernetesClient client) {
        return new Cluster(
                client.nodes().list().getItems(),
                client.pods().inAnyNamespace().list().getItems());
    }

    static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    static Map<String, String> annotations(io.fabric8.kubernetes.api.model.HasMetadata o) {
        Map<String, String> a = o.getMetadata() == null ? null : o.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }
}
