package io.hami.fake;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Nodes whose capacity holds fake XPUs, as the fake's device plugin would advertise them. */
final class FakeNodes {
    private FakeNodes() {}

    /** Node {@code name} with two XPUs of 16 GiB: 200 cores, 32 memory units of 1 GiB. */
    static void createWithTwoXpus(KubernetesClient client, String name) {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewStatus()
                        .addToCapacity(FakeKeys.CORES, new Quantity("200"))
                        .addToCapacity(FakeKeys.MEMORY, new Quantity("32"))
                        .endStatus()
                        .build())
                .create();
    }
}
