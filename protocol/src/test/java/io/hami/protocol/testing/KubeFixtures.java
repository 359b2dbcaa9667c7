package io.hami.protocol.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;

/** Nodes and containers built with fabric8's builders, for backend tests. */
public final class KubeFixtures {
    private KubeFixtures() {}

    /** A node with annotations only. */
    public static Node node(String name, Map<String, String> annotations) {
        return node(name, annotations, Map.of(), Map.of());
    }

    /** A node with annotations, Capacity and Allocatable given as quantity strings. */
    public static Node node(
            String name,
            Map<String, String> annotations,
            Map<String, String> capacity,
            Map<String, String> allocatable) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewStatus()
                .withCapacity(quantities(capacity))
                .withAllocatable(quantities(allocatable))
                .endStatus()
                .build();
    }

    /** A container with these resource limits. */
    public static Container container(Map<String, String> limits) {
        return container(limits, Map.of());
    }

    /** A container with these resource limits and requests. */
    public static Container container(Map<String, String> limits, Map<String, String> requests) {
        return new ContainerBuilder()
                .withName("main")
                .withNewResources()
                .withLimits(quantities(limits))
                .withRequests(quantities(requests))
                .endResources()
                .build();
    }

    /** Quantities parsed from text by fabric8, as the API client would. */
    public static Map<String, Quantity> quantities(Map<String, String> values) {
        Map<String, Quantity> result = new LinkedHashMap<>();
        values.forEach((name, text) -> result.put(name, new Quantity(text)));
        return result;
    }
}
