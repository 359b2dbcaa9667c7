package io.hami.plugin.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Annotation keys are case-sensitive: the plugin's pod lookup takes no variant of {@code bind-phase},
 * {@code vgpu-node} or a to-allocate key for the real one, so a pod carrying only variants is a pod without a
 * decision (which Allocate refuses to serve), never the pod to serve. The API server refuses the variants all the
 * same (deploy/'s protocol-keys-policy.yaml; e2e's trust tests).
 */
class CaseVariantKeysTest {
    private static final String TO_ALLOCATE = "hami.io/vgpu-devices-to-allocate";

    private static Pod pod(Map<String, String> annotations) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withNodeName("n1")
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
    }

    @Test
    void aPodWithVariantsOfTheDecisionIsNeverThePodToServe() {
        Pod real = pod(Map.of(
                "hami.io/bind-phase", "allocating", "hami.io/vgpu-node", "n1", TO_ALLOCATE, "GPU-0,NVIDIA,1000,10:;"));
        assertThat(WaitingPods.of(List.of(real), "n1", TO_ALLOCATE)).containsExactly(real);

        for (var variant : List.of(
                Map.of(
                        "Hami.io/bind-phase",
                        "allocating",
                        "hami.io/vgpu-node",
                        "n1",
                        TO_ALLOCATE,
                        "GPU-0,NVIDIA,1000,10:;"),
                Map.of(
                        "hami.io/bind-phase",
                        "allocating",
                        "HAMI.IO/VGPU-NODE",
                        "n1",
                        TO_ALLOCATE,
                        "GPU-0,NVIDIA,1000,10:;"),
                Map.of(
                        "hami.io/bind-phase",
                        "allocating",
                        "hami.io/vgpu-node",
                        "n1",
                        "Hami.io/vgpu-devices-to-allocate",
                        "GPU-0,NVIDIA,1000,10:;"))) {
            Pod p = pod(variant);
            assertThat(WaitingPods.of(List.of(p), "n1", TO_ALLOCATE))
                    .as(variant.toString())
                    .isEmpty();
            assertThat(WaitingPods.withoutDecision(List.of(p), "n1", "nvidia.com/gpu", TO_ALLOCATE))
                    .as("a pod asking for the resource without a decision: " + variant)
                    .containsExactly(p);
        }
    }
}
