package io.hami.scheduler.extender;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static io.hami.scheduler.SchedulerFixture.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerFixture;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** filter, prioritize and bind over real HTTP against the embedded API server, for every vendor. */
class ExtenderHttpTest {
    static SchedulerFixture f;
    static final JsonMapper JSON = JsonMapper.builder().build();

    @BeforeAll
    static void cluster() throws Exception {
        f = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS);
        f.nvidiaNode("gpu-1", gpu("GPU-a", 0, 8000), gpu("GPU-b", 1, 8000));
        f.nvidiaNode("gpu-2", gpu("GPU-c", 0, 16000));
        f.hcuNode("hcu-1", new DeviceInfo("HCU-x", 0, 10, 16000, 100, "HCU-Z100", 0, "hami-core", true));
        f.mluNode("mlu-1", 2, 64);
        f.awaitNodes("gpu-1", "gpu-2", "hcu-1", "mlu-1");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    static JsonNode filter(String podJson, String nodes) throws Exception {
        var r = f.post("/filter", "{\"Pod\":" + podJson + ",\"NodeNames\":" + nodes + "}");
        assertThat(r.statusCode()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    @Test
    void filterReturnsEveryFittingNodeAndAReasonForEachOtherAndWritesNothing() throws Exception {
        var pod = f.pod("f1", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000"));
        var result = filter(f.podJson(pod), names("gpu-1", "gpu-2", "hcu-1", "mlu-1", "ghost"));
        assertThat(result.get("NodeNames").toString()).isEqualTo("[\"gpu-2\"]");
        assertThat(result.get("FailedNodes").get("gpu-1").asString()).isEqualTo("2/2 CardInsufficientMemory");
        assertThat(result.get("FailedNodes").get("hcu-1").asString()).isEqualTo("NodeInsufficientDevice");
        assertThat(result.get("FailedNodes").get("ghost").asString()).isEqualTo("node unregistered");
        assertThat(result.get("Error").asString()).isEmpty();
        assertThat(result.properties().stream().map(java.util.Map.Entry::getKey).toList())
                .containsExactly("Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error");
        assertThat(f.get("f1").getMetadata().getAnnotations()).isNullOrEmpty();
    }

    @Test
    void keysAreReadCaseInsensitivelyAndPodsWithoutDevicesPassThrough() throws Exception {
        var plain = f.pod("plain", container("c", "cpu", "1"));
        var r = f.post("/filter", "{\"pod\":" + f.podJson(plain) + ",\"nodenames\":[\"gpu-1\",\"anything\"]}");
        assertThat(JSON.readTree(r.body()).get("NodeNames").toString()).isEqualTo("[\"gpu-1\",\"anything\"]");
    }

    @Test
    void withoutNodeCacheTheFittingNodeObjectsComeBack() throws Exception {
        var pod = f.pod("objects", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000"));
        var list = f.client.nodes().list();
        list.setItems(list.getItems().stream()
                .filter(n -> java.util.Set.of("gpu-1", "gpu-2", "hcu-1")
                        .contains(n.getMetadata().getName()))
                .toList());
        var nodes = f.client.getKubernetesSerialization().asJson(list);
        var r = JSON.readTree(f.post("/filter", "{\"Pod\":" + f.podJson(pod) + ",\"Nodes\":" + nodes + "}")
                .body());
        assertThat(r.get("NodeNames").isNull()).isTrue();
        assertThat(r.get("Nodes")
                        .get("items")
                        .valueStream()
                        .map(n -> n.get("metadata").get("name").asString())
                        .toList())
                .containsExactly("gpu-2");
        assertThat(r.get("FailedNodes").get("gpu-1").asString()).isEqualTo("2/2 CardInsufficientMemory");
    }

    /** A node object as cluster-autoscaler sends a template: never created, so the index does not know it. */
    static Node template(String name, DeviceInfo... gpus) {
        var meta = new NodeBuilder().withNewMetadata().withName(name);
        if (gpus.length > 0) {
            meta.addToAnnotations("hami.io/node-nvidia-register", JsonRegisterCodec.encode(List.of(gpus)));
        }
        return meta.endMetadata()
                .withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity(String.valueOf(gpus.length * 10)))
                .endStatus()
                .build();
    }

    @Test
    void nodeObjectsTheIndexDoesNotKnowAreFittedAgainstTheirOwnDevicesAndKnownOnesAgainstTheIndex() throws Exception {
        var pod = f.pod("ca", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000"));
        // gpu-1 as sent claims 16000 MiB cards; the index knows it has two 8000 MiB ones, and that is what counts
        var known = f.client.nodes().withName("gpu-1").get();
        known.getMetadata()
                .getAnnotations()
                .put(
                        "hami.io/node-nvidia-register",
                        JsonRegisterCodec.encode(List.of(gpu("GPU-a", 0, 16000), gpu("GPU-b", 1, 16000))));
        var list = new NodeList(
                "v1",
                List.of(
                        known,
                        template("ca-big", gpu("GPU-t1", 0, 16000)),
                        template("ca-small", gpu("GPU-t2", 0, 8000)),
                        template("ca-bare")),
                "NodeList",
                null);
        var r = JSON.readTree(f.post(
                        "/filter",
                        "{\"Pod\":" + f.podJson(pod) + ",\"Nodes\":"
                                + f.client.getKubernetesSerialization().asJson(list) + "}")
                .body());
        assertThat(r.get("Error").asString()).isEmpty();
        assertThat(r.get("Nodes")
                        .get("items")
                        .valueStream()
                        .map(n -> n.get("metadata").get("name").asString())
                        .toList())
                .containsExactly("ca-big");
        assertThat(r.get("FailedNodes").get("gpu-1").asString()).isEqualTo("2/2 CardInsufficientMemory");
        assertThat(r.get("FailedNodes").get("ca-small").asString()).isEqualTo("1/1 CardInsufficientMemory");
        assertThat(r.get("FailedNodes").get("ca-bare").asString()).isEqualTo("node unregistered");
        // simulation has no side effects: nothing written, nothing indexed
        assertThat(f.get("ca").getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(f.app.index().nodeNames()).doesNotContain("ca-big", "ca-small", "ca-bare");
    }

    @Test
    void aKnownNodeWithoutDevicesIsUnregistered() throws Exception {
        f.client
                .nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("bare-1")
                        .endMetadata()
                        .build())
                .create();
        f.awaitNodes("bare-1");
        var pod = f.pod("bare", container("c", "nvidia.com/gpu", "1"));
        var result = filter(f.podJson(pod), names("bare-1", "hcu-1"));
        assertThat(result.get("FailedNodes").get("bare-1").asString()).isEqualTo("node unregistered");
        assertThat(result.get("FailedNodes").get("hcu-1").asString()).isEqualTo("NodeInsufficientDevice");
        // and as a node object: known to the index, so never read as a template
        var list =
                new NodeList("v1", List.of(f.client.nodes().withName("bare-1").get()), "NodeList", null);
        var r = JSON.readTree(f.post(
                        "/filter",
                        "{\"Pod\":" + f.podJson(pod) + ",\"Nodes\":"
                                + f.client.getKubernetesSerialization().asJson(list) + "}")
                .body());
        assertThat(r.get("FailedNodes").get("bare-1").asString()).isEqualTo("node unregistered");
    }

    @Test
    void prioritizeFavoursTheFullerNodeUnderBinpack() throws Exception {
        var pod = f.pod("p1", container("c", "nvidia.com/gpu", "1"));
        f.pod("busy", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000"));
        assertThat(JSON.readTree(f.post(
                                        "/bind",
                                        "{\"PodName\":\"busy\",\"PodNamespace\":\"default\",\"Node\":\"gpu-2\"}")
                                .body())
                        .get("Error")
                        .asString())
                .isEmpty();
        assertThat(f.annotations("busy")).containsEntry("hami.io/bind-phase", "allocating");
        // while busy's allocation holds gpu-2's lock, a bind there would wait: gpu-2 costs a notch
        long held = await().atMost(Patience.seconds(10))
                .until(
                        () -> f.app.watch().locked("gpu-2")
                                ? prioritize(pod, "gpu-2").get(0).get("Score").asLong()
                                : -1,
                        score -> score >= 0);
        // the plugin allocated busy and freed the lock: the fuller node is favoured by a notch more
        f.client.nodes().withName("gpu-2").edit(n -> {
            n.getMetadata().getAnnotations().remove(ProtocolKeys.NODE_LOCK);
            return n;
        });
        await().atMost(Patience.seconds(10)).untilAsserted(() -> {
            var r = prioritize(pod, "gpu-1", "gpu-2");
            assertThat(r.get(0).get("Host").asString()).isEqualTo("gpu-1");
            assertThat(r.get(1).get("Host").asString()).isEqualTo("gpu-2");
            assertThat(r.get(1).get("Score").asLong())
                    .isGreaterThan(r.get(0).get("Score").asLong())
                    .isEqualTo(held + 1);
        });
        // the cluster is shared by this class's tests: give gpu-2's memory back
        f.client
                .pods()
                .inNamespace("default")
                .withName("busy")
                .withGracePeriod(0)
                .delete();
        await().atMost(Patience.seconds(10))
                .until(() -> f.app.index()
                                .snapshot("gpu-2")
                                .orElseThrow()
                                .view()
                                .devices()
                                .get("NVIDIA")
                                .getFirst()
                                .usedmem()
                        == 0);
    }

    @Test
    void ofNodesAboutAsFullAFreeLockWinsAndAClearlyBetterNodeStillWins() {
        assertThat(Extender.lockPreference(0, true)).isZero();
        assertThat(Extender.lockPreference(0, false)).isOne(); // two empty nodes: the free one wins
        assertThat(Extender.lockPreference(6, true)).isEqualTo(5); // fuller by one notch, locked: a tie with...
        assertThat(Extender.lockPreference(5, false)).isEqualTo(5); // ...the free one
        assertThat(Extender.lockPreference(8, true)).isGreaterThan(Extender.lockPreference(5, false)); // packing kept
        assertThat(Extender.lockPreference(10, false)).isEqualTo(10);
    }

    private JsonNode prioritize(Pod pod, String... nodes) throws Exception {
        return JSON.readTree(
                f.post("/prioritize", "{\"Pod\":" + f.podJson(pod) + ",\"NodeNames\":" + names(nodes) + "}")
                        .body());
    }

    @Test
    void bindWritesTheDecisionTakesTheLockAndBindsEachVendor() throws Exception {
        f.pod("h1", container("c", "hygon.com/hcunum", "1", "hygon.com/hcumem", "2000", "hygon.com/hcucores", "20"));
        var r = f.post("/bind", "{\"PodName\":\"h1\",\"PodNamespace\":\"default\",\"PodUID\":\"\",\"Node\":\"hcu-1\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(r.body()).get("Error").asString()).isEmpty();
        var a = f.annotations("h1");
        assertThat(a)
                .containsEntry("hami.io/hcu-devices-to-allocate", "HCU-x,HCU,2000,20:;")
                .containsEntry("hami.io/hcu-devices-allocated", "HCU-x,HCU,2000,20:;")
                .containsEntry("hami.io/vgpu-node", "hcu-1")
                .containsEntry("hami.io/bind-phase", "allocating")
                .containsKeys("hami.io/bind-time", "hami.io/vgpu-time");
        assertThat(f.get("h1").getSpec().getNodeName()).isEqualTo("hcu-1");
        assertThat(f.get("h1").getMetadata().getLabels()).containsEntry("hami.io/vgpu-node", "hcu-1");
        assertThat(f.client
                        .nodes()
                        .withName("hcu-1")
                        .get()
                        .getMetadata()
                        .getAnnotations()
                        .get("hami.io/mutex.lock"))
                .endsWith(",default,h1");

        f.pod("m1", container("c", "cambricon.com/vmlu", "1", "cambricon.com/mlu.smlu.vmemory", "4"));
        assertThat(JSON.readTree(f.post("/bind", "{\"PodName\":\"m1\",\"PodNamespace\":\"default\",\"Node\":\"mlu-1\"}")
                                .body())
                        .get("Error")
                        .asString())
                .isEmpty();
        assertThat(f.annotations("m1").get("hami.io/cambricon-mlu-devices-allocated"))
                .matches("mlu-1-cambricon-mlu-[01],MLU,1024,100:;");
    }

    static String bind(String pod, String node) throws Exception {
        return JSON.readTree(f.post(
                                "/bind",
                                "{\"PodName\":\"" + pod + "\",\"PodNamespace\":\"default\",\"Node\":\"" + node + "\"}")
                        .body())
                .get("Error")
                .asString();
    }

    @Test
    void mooreThreadsPodsAreBoundOnCapacityDiscoveredDevices() throws Exception {
        f.mthreadsNode("mt-1", 2);
        f.awaitNodes("mt-1");
        var pod = f.pod(
                "mt",
                container(
                        "c", "mthreads.com/vgpu", "1", "mthreads.com/sgpu-memory", "8", "mthreads.com/sgpu-core", "4"));
        assertThat(filter(f.podJson(pod), names("mt-1", "gpu-1"))
                        .get("NodeNames")
                        .toString())
                .isEqualTo("[\"mt-1\"]");
        assertThat(bind("mt", "mt-1")).isEmpty();
        assertThat(f.annotations("mt").get("hami.io/mthreads-vgpu-devices-allocated"))
                .matches("mt-1-mthreads-[01],Mthreads,4096,4:;");
    }

    @Test
    void aTwoVendorMultiContainerPodGetsOneIndexAlignedStringPerVendor() throws Exception {
        f.mixedNode(
                "mixed-1",
                gpu("GPU-m", 0, 8000),
                new DeviceInfo("HCU-m", 0, 10, 16000, 100, "HCU-Z100", 0, "hami-core", true));
        f.awaitNodes("mixed-1");
        var pod = f.pod(
                "two",
                container("sidecar", "cpu", "1"),
                container("train", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000", "nvidia.com/gpucores", "30"),
                container("infer", "hygon.com/hcunum", "1", "hygon.com/hcumem", "1000", "hygon.com/hcucores", "10"));
        var result = filter(f.podJson(pod), names("mixed-1", "gpu-1", "hcu-1"));
        assertThat(result.get("NodeNames").toString()).isEqualTo("[\"mixed-1\"]");
        assertThat(result.get("FailedNodes").get("gpu-1").asString()).isEqualTo("NodeInsufficientDevice");
        assertThat(bind("two", "mixed-1")).isEmpty();
        assertThat(f.annotations("two"))
                .containsEntry("hami.io/vgpu-devices-allocated", ";GPU-m,NVIDIA,3000,30:;;")
                .containsEntry("hami.io/vgpu-devices-to-allocate", ";GPU-m,NVIDIA,3000,30:;;")
                .containsEntry("hami.io/hcu-devices-allocated", ";;HCU-m,HCU,1000,10:;");
    }

    @Test
    void typeSelectorsNarrowTheNodesAndSpreadNodePolicyReversesPriority() throws Exception {
        f.client
                .nodes()
                .resource(new io.fabric8.kubernetes.api.model.NodeBuilder()
                        .withNewMetadata()
                        .withName("t4-1")
                        .addToAnnotations(
                                "hami.io/node-nvidia-register",
                                io.hami.protocol.codec.JsonRegisterCodec.encode(java.util.List.of(new DeviceInfo(
                                        "GPU-t4", 0, 10, 16000, 100, "NVIDIA-Tesla T4", 0, "hami-core", true))))
                        .endMetadata()
                        .withNewStatus()
                        .addToAllocatable("nvidia.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("10"))
                        .endStatus()
                        .build())
                .create();
        f.awaitNodes("t4-1");
        var t4only = f.client
                .pods()
                .inNamespace("default")
                .resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                        .withNewMetadata()
                        .withName("t4")
                        .addToAnnotations("nvidia.com/use-gputype", "t4")
                        .addToAnnotations("hami.io/node-scheduler-policy", "spread")
                        .endMetadata()
                        .withNewSpec()
                        .withContainers(container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"))
                        .endSpec()
                        .build())
                .create();
        var result = filter(f.podJson(t4only), names("t4-1", "gpu-1"));
        assertThat(result.get("NodeNames").toString()).isEqualTo("[\"t4-1\"]");
        assertThat(result.get("FailedNodes").get("gpu-1").asString()).isEqualTo("2/2 CardTypeMismatch");
        // Under spread the emptier node ranks higher; gpu-2 carries a pod from another test or none, gpu-1 and t4-1
        // none.
        var ranked = JSON.readTree(
                f.post("/prioritize", "{\"Pod\":" + f.podJson(t4only) + ",\"NodeNames\":" + names("t4-1") + "}")
                        .body());
        assertThat(ranked.get(0).get("Score").asLong()).isEqualTo(10);
    }

    @Test
    void aSecondPodOnALockedNodeIsToldToRetryAndIsNotTouched() throws Exception {
        f.nvidiaNode("gpu-lock", gpu("GPU-l", 0, 8000));
        f.awaitNodes("gpu-lock");
        f.pod("l1", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"));
        f.pod("l2", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"));
        assertThat(JSON.readTree(f.post(
                                        "/bind",
                                        "{\"PodName\":\"l1\",\"PodNamespace\":\"default\",\"Node\":\"gpu-lock\"}")
                                .body())
                        .get("Error")
                        .asString())
                .isEmpty();
        var second =
                JSON.readTree(f.post("/bind", "{\"PodName\":\"l2\",\"PodNamespace\":\"default\",\"Node\":\"gpu-lock\"}")
                        .body());
        assertThat(second.get("Error").asString())
                .contains("locked by default/l1")
                .contains("retry");
        assertThat(f.annotations("l2")).isNullOrEmpty();
        assertThat(f.get("l2").getSpec().getNodeName()).isNull();
    }

    @Test
    void bindOfAPodThatNoLongerFitsFailsAndReleasesTheLock() throws Exception {
        f.nvidiaNode("gpu-small", gpu("GPU-s", 0, 1000));
        f.awaitNodes("gpu-small");
        f.pod("big", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "4000"));
        var r = JSON.readTree(
                f.post("/bind", "{\"PodName\":\"big\",\"PodNamespace\":\"default\",\"Node\":\"gpu-small\"}")
                        .body());
        assertThat(r.get("Error").asString())
                .isEqualTo("pod no longer fits on node gpu-small: 1/1 CardInsufficientMemory");
        assertThat(f.client.nodes().withName("gpu-small").get().getMetadata().getAnnotations())
                .doesNotContainKey("hami.io/mutex.lock");
        assertThat(f.get("big").getSpec().getNodeName()).isNull();
    }

    @Test
    void badBodiesGetAClearErrorAndNoSideEffect() throws Exception {
        var empty = f.post("/filter", "");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(empty.body()).get("Error").asString()).contains("please send a request body");
        var malformed = f.post("/bind", "{\"PodName\":");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(malformed.body()).get("Error").asString()).startsWith("malformed ExtenderBindingArgs");
        var huge = f.post("/filter", "{\"Pod\":{\"metadata\":{\"name\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}}}");
        assertThat(huge.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(huge.body()).get("Error").asString()).contains("exceeds 4194304 bytes");
        var missingPod =
                JSON.readTree(f.post("/filter", "{\"NodeNames\":[\"gpu-1\"]}").body());
        assertThat(missingPod.get("Error").asString()).isEqualTo("extender args missing pod");
        var missingArgs = JSON.readTree(f.post("/bind", "{\"PodName\":\"x\"}").body());
        assertThat(missingArgs.get("Error").asString()).contains("need PodName, PodNamespace and Node");
        var notFound =
                JSON.readTree(f.post("/bind", "{\"PodName\":\"nope\",\"PodNamespace\":\"default\",\"Node\":\"gpu-1\"}")
                        .body());
        assertThat(notFound.get("Error").asString()).isEqualTo("pod default/nope not found");
        assertThat(f.getPath("/healthz").statusCode()).isEqualTo(200);
        assertThat(f.getPath("/readyz").statusCode()).isEqualTo(200);
    }

    /** Issue 16: a count no vendor can represent used to pass filter everywhere and bind without a grant. */
    @Test
    void anUnrepresentableQuantityFitsNoNodeAndIsNeverBound() throws Exception {
        var pod = f.pod("huge", container("c", "nvidia.com/gpu", "4Gi"));
        var result = filter(f.podJson(pod), names("gpu-1", "gpu-2", "hcu-1", "mlu-1"));
        assertThat(result.get("NodeNames").toString()).isEqualTo("[]");
        for (String node : java.util.List.of("gpu-1", "gpu-2", "hcu-1", "mlu-1")) {
            assertThat(result.get("FailedNodes").get(node).asString())
                    .as(node)
                    .isEqualTo(
                            "unrepresentable request: container c:"
                                    + " nvidia.com/gpu \"4Gi\" (4294967296) is out of range; NVIDIA takes a whole number from 0 to 2147483647 (devices)");
        }
        var bind =
                JSON.readTree(f.post("/bind", "{\"PodName\":\"huge\",\"PodNamespace\":\"default\",\"Node\":\"gpu-1\"}")
                        .body());
        assertThat(bind.get("Error").asString()).contains("unrepresentable request");
        assertThat(f.get("huge").getSpec().getNodeName()).isNull();
        assertThat(f.annotations("huge")).doesNotContainKeys("hami.io/vgpu-node", "hami.io/vgpu-devices-allocated");
    }
}
