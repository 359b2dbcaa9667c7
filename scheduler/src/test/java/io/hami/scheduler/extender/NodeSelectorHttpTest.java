package io.hami.scheduler.extender;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static io.hami.scheduler.SchedulerFixture.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeList;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.cluster.NodeSelector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** {@code --node-label-selector}: a node without the labels is neither indexed, handshaken nor offered by /filter. */
class NodeSelectorHttpTest {
    static final String UNSELECTED = "node unregistered: this scheduler considers only nodes with the labels"
            + " hami.io/pool=gpu,zone=a (--node-label-selector)";
    static SchedulerFixture f;
    static final JsonMapper JSON = JsonMapper.builder().build();

    @BeforeAll
    static void cluster() throws Exception {
        var base = SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5));
        var scheduling = base.scheduling();
        f = new SchedulerFixture(new SchedulerApp.Settings(
                base.http(),
                new SchedulerApp.Settings.Scheduling(
                        scheduling.schedulerName(),
                        scheduling.policy(),
                        scheduling.lockTimeout(),
                        DeviceConfig.DEFAULTS,
                        NodeSelector.parse("hami.io/pool=gpu,zone=a")),
                base.replica(),
                base.metrics()));
        f.nvidiaNode("in", gpu("GPU-in", 0, 16000));
        f.nvidiaNode("out", gpu("GPU-out", 0, 16000));
        f.nvidiaNode("half", gpu("GPU-half", 0, 16000));
        label("in", Map.of("hami.io/pool", "gpu", "zone", "a"));
        label("half", Map.of("hami.io/pool", "gpu", "zone", "b"));
        f.awaitNodes("in");
    }

    static void label(String node, Map<String, String> labels) {
        f.client.nodes().withName(node).edit(n -> {
            n.getMetadata().setLabels(labels);
            return n;
        });
    }

    @Test
    void aTemplateNodeIsFittedOnlyWhenItCarriesTheSelectedLabels() throws Exception {
        var pod = f.pod("ca", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000"));
        var selected = ExtenderHttpTest.template("ca-in", gpu("GPU-t1", 0, 16000));
        selected.getMetadata().setLabels(Map.of("hami.io/pool", "gpu", "zone", "a"));
        var other = ExtenderHttpTest.template("ca-out", gpu("GPU-t2", 0, 16000));
        var list = new NodeList("v1", List.of(selected, other), "NodeList", null);
        var r = JSON.readTree(f.post(
                        "/filter",
                        "{\"Pod\":" + f.podJson(pod) + ",\"Nodes\":"
                                + f.client.getKubernetesSerialization().asJson(list) + "}")
                .body());
        assertThat(r.get("Nodes")
                        .get("items")
                        .get(0)
                        .get("metadata")
                        .get("name")
                        .asString())
                .isEqualTo("ca-in");
        assertThat(r.get("Nodes").get("items").size()).isOne();
        assertThat(r.get("FailedNodes").get("ca-out").asString()).isEqualTo(UNSELECTED);
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @Test
    void onlySelectedNodesAreOfferedTheOthersFailWithTheSelectorAsReason() throws Exception {
        var pod = f.pod("p1", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"));
        var r = f.post("/filter", "{\"Pod\":" + f.podJson(pod) + ",\"NodeNames\":" + names("in", "out", "half") + "}");
        var result = JSON.readTree(r.body());
        assertThat(result.get("NodeNames").toString()).isEqualTo("[\"in\"]");
        assertThat(result.get("FailedNodes").get("out").asString()).isEqualTo(UNSELECTED);
        assertThat(result.get("FailedNodes").get("half").asString()).isEqualTo(UNSELECTED);
        assertThat(f.app.index().nodeNames()).doesNotContain("out", "half").contains("in");
        assertThat(f.app.watch().nodes())
                .extracting(n -> n.getMetadata().getName())
                .doesNotContain("out", "half");
    }

    @Test
    void onlySelectedNodesAreHandshaken() {
        f.app.handshake().round();
        await().atMost(Patience.seconds(30)).until(() -> handshake("in") != null);
        assertThat(handshake("out")).isNull();
        assertThat(handshake("half")).isNull();
    }

    @Test
    void aNodeLabelledIntoTheSelectionIsTakenUpAndLabelledOutIsDropped() {
        f.nvidiaNode("late", gpu("GPU-late", 0, 16000));
        label("late", Map.of("hami.io/pool", "gpu", "zone", "a"));
        f.awaitNodes("late");
        label("late", Map.of("hami.io/pool", "gpu"));
        await().atMost(Patience.seconds(30))
                .until(() -> !f.app.index().nodeNames().contains("late"));
    }

    private static String handshake(String node) {
        var a = f.client.nodes().withName(node).get().getMetadata().getAnnotations();
        return a == null ? null : a.get("hami.io/node-handshake");
    }
}
