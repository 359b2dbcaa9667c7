package io.hami.scheduler.preempt;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code POST /preempt} over real HTTP, victims read from the informers of the embedded API server. */
class PreemptHttpTest {
    static final JsonMapper JSON = JsonMapper.builder().build();
    static SchedulerFixture f;
    static Pod v1;
    static Pod v2;
    static Pod v3;
    static Pod high;

    @BeforeAll
    static void cluster() throws Exception {
        f = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS);
        f.nvidiaNode("pre-1", gpu("GPU-p0", 0, 16000), gpu("GPU-p1", 1, 16000));
        f.nvidiaNode("pre-2", gpu("GPU-q0", 0, 8000));
        f.awaitNodes("pre-1", "pre-2");
        // pre-1: card 0 holds v1 (6000), card 1 holds v2 (10000); pre-2: v3 (4000) beside a pod that stays (4000)
        v1 = running("v1", "pre-1", "GPU-p0", 6000);
        v2 = running("v2", "pre-1", "GPU-p1", 10000);
        v3 = running("v3", "pre-2", "GPU-q0", 4000);
        running("stays", "pre-2", "GPU-q0", 4000);
        await().atMost(Patience.seconds(30))
                .until(() -> f.app.index()
                                        .current("pre-2")
                                        .view()
                                        .devicesOf("NVIDIA")
                                        .getFirst()
                                        .usedmem()
                                == 8000
                        && f.app.index()
                                        .current("pre-1")
                                        .view()
                                        .devicesOf("NVIDIA")
                                        .get(1)
                                        .usedmem()
                                == 10000);
        high = f.pod("high", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000"));
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    /** A pod bound to {@code node} holding {@code memMiB} of {@code uuid}, as after its Allocate. */
    static Pod running(String name, String node, String uuid, int memMiB) {
        String allocated = PodDevicesCodec.encode(
                new PodDevices(List.of(List.of(new ContainerDevice(uuid, "NVIDIA", memMiB, 0)))));
        var pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName(name)
                .addToAnnotations("hami.io/vgpu-node", node)
                .addToAnnotations("hami.io/vgpu-devices-allocated", allocated)
                .addToAnnotations("hami.io/bind-phase", "success")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withSchedulerName("hami-scheduler")
                .withContainers(container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", String.valueOf(memMiB)))
                .endSpec()
                .build();
        return f.client.pods().inNamespace("default").resource(pod).create();
    }

    static String uid(Pod p) {
        return p.getMetadata().getUid();
    }

    static String meta(String... uids) {
        var out = new StringBuilder("{\"Pods\":[");
        for (int i = 0; i < uids.length; i++) {
            out.append(i == 0 ? "" : ",").append("{\"UID\":\"").append(uids[i]).append("\"}");
        }
        return out.append("],\"NumPDBViolations\":1}").toString();
    }

    static List<String> uids(JsonNode victims) {
        return victims.get("Pods")
                .valueStream()
                .map(p -> p.get("UID").asString())
                .toList();
    }

    @Test
    void metaVictimsAreTrimmedAndNodesThatCannotHelpAreLeftOut() throws Exception {
        String body = "{\"Pod\":" + f.podJson(high) + ",\"NodeNameToMetaVictims\":{"
                + "\"pre-1\":" + meta(uid(v1), "not-a-pod-we-know", uid(v2)) + ","
                + "\"pre-2\":" + meta(uid(v3)) + "}}";
        var r = f.post("/preempt", body);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode answer = JSON.readTree(r.body());
        // card 1 emptied is enough, so v1 keeps running; the UID we do not know is kept (kube-scheduler chose it)
        assertThat(answer.get("NodeNameToMetaVictims").propertyNames()).containsExactly("pre-1");
        JsonNode pre1 = answer.get("NodeNameToMetaVictims").get("pre-1");
        assertThat(uids(pre1)).containsExactly("not-a-pod-we-know", uid(v2));
        assertThat(pre1.get("NumPDBViolations").asLong()).isEqualTo(1);
        assertThat(answer.has("Error")).isFalse();
        assertThat(f.get("v1").getMetadata().getDeletionTimestamp())
                .as("the verb evicts nothing itself")
                .isNull();
    }

    @Test
    void wholeVictimPodsAreAnsweredWithMetaVictims() throws Exception {
        var serialization = f.client.getKubernetesSerialization();
        String body = "{\"Pod\":" + f.podJson(high) + ",\"NodeNameToVictims\":{\"pre-1\":{\"Pods\":["
                + serialization.asJson(v1) + "," + serialization.asJson(v2) + "],\"NumPDBViolations\":0}}}";
        var r = f.post("/preempt", body);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode answer = JSON.readTree(r.body()).get("NodeNameToMetaVictims");
        assertThat(answer.propertyNames()).containsExactly("pre-1");
        assertThat(uids(answer.get("pre-1"))).containsExactly(uid(v2));
    }

    @Test
    void aPodWithoutDevicesGetsItsVictimsBackUnchanged() throws Exception {
        var plain = f.pod("plain", container("c", "cpu", "1"));
        String body = "{\"Pod\":" + f.podJson(plain) + ",\"NodeNameToMetaVictims\":{\"pre-2\":" + meta(uid(v3)) + "}}";
        JsonNode answer = JSON.readTree(f.post("/preempt", body).body()).get("NodeNameToMetaVictims");
        assertThat(uids(answer.get("pre-2"))).containsExactly(uid(v3));
    }

    @Test
    void badBodiesAreRefusedWith400AndAReason() throws Exception {
        var malformed = f.post("/preempt", "{\"Pod\":");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(malformed.body()).get("Error").asString())
                .startsWith("malformed ExtenderPreemptionArgs");
        var wrongType = f.post("/preempt", "{\"Pod\":{},\"NodeNameToMetaVictims\":{\"pre-1\":{\"Pods\":\"x\"}}}");
        assertThat(wrongType.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(wrongType.body()).get("Error").asString())
                .isEqualTo("malformed ExtenderPreemptionArgs: field NodeNameToMetaVictims[\"pre-1\"].Pods: expected a"
                        + " list, got a string");
        var noPod = f.post("/preempt", "{\"NodeNameToMetaVictims\":{}}");
        assertThat(noPod.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(noPod.body()).get("Error").asString())
                .isEqualTo("extender preemption args missing Pod");
        var noUid = f.post(
                "/preempt", "{\"Pod\":" + f.podJson(high) + ",\"NodeNameToMetaVictims\":{\"pre-1\":{\"Pods\":[{}]}}}");
        assertThat(noUid.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(noUid.body()).get("Error").asString())
                .isEqualTo("NodeNameToMetaVictims[\"pre-1\"].Pods: a victim without a UID");
        var get = f.getPath("/preempt");
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(Map.of("Allow", get.headers().firstValue("Allow").orElse("")))
                .containsEntry("Allow", "POST");
    }
}
