package io.hami.kube.patch;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * Sends a JSON merge patch ({@link AnnotationPatch}) to a pod or node addressed by name only: fabric8's
 * {@code withName(..).patch(..)} first GETs the object just to learn its name, a read per write.
 */
public final class MergePatches {
    private MergePatches() {}

    /** @return the pod as the write left it */
    public static Pod pod(KubernetesClient client, String namespace, String name, String patch) {
        Pod named = new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .build();
        return client.pods().inNamespace(namespace).resource(named).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    /** @return the node as the write left it */
    public static Node node(KubernetesClient client, String name, String patch) {
        Node named =
                new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
        return client.nodes().resource(named).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }
}
