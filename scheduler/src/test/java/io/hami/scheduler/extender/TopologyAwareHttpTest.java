package io.hami.scheduler.extender;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static io.hami.scheduler.SchedulerFixture.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.backend.nvidia.topology.DevicePairScore;
import io.hami.backend.nvidia.topology.DevicePairScoreCodec;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerFixture;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code topology-aware} GPU policy over the extender's HTTP API against the embedded API server: filter and bind
 * read {@code hami.io/node-nvidia-score}; a node whose scores do not decode is refused.
 */
class TopologyAwareHttpTest {
    static SchedulerFixture f;
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String SCORE = "hami.io/node-nvidia-score";

    /** A DGX-like board: GPU-0..3 and GPU-4..7 are NVLink islands (6 links, 600), PCIe across them (10). */
    static String dgxScores() {
        var out = new ArrayList<DevicePairScore>();
        for (int i = 0; i < 8; i++) {
            var row = new HashMap<String, Integer>();
            for (int j = 0; j < 8; j++) {
                if (i != j) {
                    row.put("GPU-" + j, i / 4 == j / 4 ? 600 : 10);
                }
            }
            out.add(new DevicePairScore("GPU-" + i, row));
        }
        return DevicePairScoreCodec.encode(out);
    }

    /** Eight GPUs of which GPU-4..6 are down: the spread walk (last first) takes GPU-7 and then GPU-3. */
    static void dgxNode(String name, String scores) {
        var gpus = new ArrayList<DeviceInfo>();
        for (int i = 0; i < 8; i++) {
            DeviceInfo d = gpu("GPU-" + i, i, 40000);
            boolean down = i >= 4 && i < 7;
            gpus.add(new DeviceInfo(
                    d.id(), d.index(), d.count(), d.devmem(), d.devcore(), d.type(), d.numa(), d.mode(), !down));
        }
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToAnnotations("hami.io/node-nvidia-register", JsonRegisterCodec.encode(gpus))
                .addToAnnotations(SCORE, scores)
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity("80"))
                .endStatus()
                .build();
        f.client.nodes().resource(node).create();
    }

    @BeforeAll
    static void cluster() throws Exception {
        f = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS);
        dgxNode("dgx-1", dgxScores());
        dgxNode("dgx-2", dgxScores());
        dgxNode("dgx-bad", "[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":\"600\"}}]");
        f.awaitNodes("dgx-1", "dgx-2", "dgx-bad");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    static Pod pod(String name, String gpuPolicy) {
        var meta = new PodBuilder().withNewMetadata().withNamespace("default").withName(name);
        if (gpuPolicy != null) {
            meta.addToAnnotations("hami.io/gpu-scheduler-policy", gpuPolicy);
        }
        var pod = meta.endMetadata()
                .withNewSpec()
                .withSchedulerName("hami-scheduler")
                .withContainers(container("c", "nvidia.com/gpu", "2", "nvidia.com/gpumem", "1000"))
                .endSpec()
                .build();
        return f.client.pods().inNamespace("default").resource(pod).create();
    }

    static JsonNode filter(Pod pod, String nodes) throws Exception {
        var r = f.post("/filter", "{\"Pod\":" + f.podJson(pod) + ",\"NodeNames\":" + nodes + "}");
        assertThat(r.statusCode()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** Binds {@code pod} to {@code node} and returns the device UUIDs written for its container. */
    static List<String> bind(String pod, String node) throws Exception {
        var r = JSON.readTree(
                f.post("/bind", "{\"PodName\":\"" + pod + "\",\"PodNamespace\":\"default\",\"Node\":\"" + node + "\"}")
                        .body());
        assertThat(r.get("Error").asString()).isEmpty();
        String allocated = await().atMost(Patience.seconds(30))
                .until(() -> f.annotations(pod).get("hami.io/vgpu-devices-allocated"), v -> v != null);
        return PodDevicesCodec.decode(allocated).containers().getFirst().stream()
                .map(ContainerDevice::uuid)
                .toList();
    }

    @Test
    void aTwoGpuTopologyAwarePodGetsAnNvlinkedPairWhereSpreadCrossesIslands() throws Exception {
        var topo = pod("topo", "topology-aware");
        var result = filter(topo, names("dgx-1", "dgx-bad"));
        assertThat(result.get("NodeNames").toString()).isEqualTo("[\"dgx-1\"]");
        assertThat(bind("topo", "dgx-1")).containsExactly("GPU-3", "GPU-2");

        var spread = pod("spread", null);
        assertThat(filter(spread, names("dgx-2")).get("NodeNames").toString()).isEqualTo("[\"dgx-2\"]");
        assertThat(bind("spread", "dgx-2")).containsExactly("GPU-7", "GPU-3");
    }

    @Test
    void aNodeWhoseScoresDoNotDecodeIsRefusedWithTheKeyInTheReason() throws Exception {
        for (String policy : new String[] {"topology-aware", "spread"}) {
            var pod = pod("bad-" + policy, policy);
            var result = filter(pod, names("dgx-bad"));
            assertThat(result.get("NodeNames").toString()).isEqualTo("[]");
            assertThat(result.get("FailedNodes").get("dgx-bad").asString())
                    .isEqualTo("node fails closed: NVIDIA inventory unreadable: hami.io/node-nvidia-score on node"
                            + " dgx-bad: invalid score for peer \"GPU-1\" in entry 0: \"600\" (want a whole number"
                            + " from 0 to 2147483647)");
        }
    }
}
