package io.hami.lab.check;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.lab.node.DeviceIds;
import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.ScenarioLoader;
import io.hami.lab.scenario.Vendor;
import io.hami.protocol.annotation.ProtocolKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Hand-made cluster states for the checker tests: one NVIDIA node of two 40 GB GPUs, and pods on it. */
final class ClusterFixtures {
    static final String NODE = "gpu-0";
    static final String GPU0 = DeviceIds.uuid(Vendor.NVIDIA, NODE, 0);
    static final String GPU1 = DeviceIds.uuid(Vendor.NVIDIA, NODE, 1);
    static final String ALLOCATED = "hami.io/vgpu-devices-allocated";

    private ClusterFixtures() {}

    static Scenario scenario() throws Exception {
        return ScenarioLoader.parse("""
                name: fixture
                nodes:
                  - name: gpu
                    devices: [{vendor: nvidia, model: NVIDIA A100, count: 2, memory: 40960, split: 2}]
                """, "fixture.yaml");
    }

    /** A pod on {@link #NODE} in {@code phase} whose NVIDIA allocation is {@code allocated}; init containers first. */
    static Pod pod(String name, String phase, String allocated, int initContainers, int containers) {
        var init = new ArrayList<io.fabric8.kubernetes.api.model.Container>();
        for (int i = 0; i < initContainers; i++) {
            init.add(new ContainerBuilder().withName("init-" + i).build());
        }
        var app = new ArrayList<io.fabric8.kubernetes.api.model.Container>();
        for (int i = 0; i < containers; i++) {
            app.add(new ContainerBuilder().withName("c-" + i).build());
        }
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName(name)
                .withUid("uid-" + name)
                .withAnnotations(Map.of(
                        ALLOCATED,
                        allocated,
                        ProtocolKeys.BIND_PHASE,
                        ProtocolKeys.PHASE_SUCCESS,
                        ProtocolKeys.VGPU_NODE,
                        NODE))
                .endMetadata()
                .withNewSpec()
                .withNodeName(NODE)
                .withInitContainers(init)
                .withContainers(app)
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
    }

    /** The same pod with its init containers completed. */
    static Pod initDone(Pod pod) {
        var statuses = pod.getSpec().getInitContainers().stream()
                .map(c -> new ContainerStatusBuilder()
                        .withName(c.getName())
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(0)
                        .endTerminated()
                        .endState()
                        .build())
                .toList();
        return new PodBuilder(pod)
                .editStatus()
                .withInitContainerStatuses(statuses)
                .endStatus()
                .build();
    }

    static Node node(Map<String, String> annotations) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .withAnnotations(annotations)
                .endMetadata()
                .build();
    }

    static List<Pod> list(Pod... pods) {
        return List.of(pods);
    }
}
