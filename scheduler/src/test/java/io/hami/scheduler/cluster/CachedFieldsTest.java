package io.hami.scheduler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.hami.kube.lock.HolderPod;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.ExtenderJson;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pods and nodes cut to what the scheduler reads ({@link CachedFields}) tell the scheduler exactly what the whole objects
 * tell it, and the rest is really gone.
 */
class CachedFieldsTest {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    static String resource(String name) {
        try (InputStream in = CachedFieldsTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** As the informer hands it over: metadata decoded, the rest raw maps. */
    static GenericKubernetesResource raw(String json) {
        return JSON.unmarshal(json, GenericKubernetesResource.class);
    }

    /** The typical pod, and variants of it that take every path of the usage index and the request. */
    static List<String> pods() {
        String typical = resource("typical-pod.json");
        var out = new ArrayList<String>();
        out.add(typical);
        // Init containers: finished with 0 (their grants are released), one failed, one still running.
        String init = typical.replace("\"containers\": [", """
                "initContainers": [{"name": "fetch", "image": "busybox", "command": ["sh", "-c", "true"],
                  "env": [{"name": "A", "value": "b"}],
                  "resources": {"limits": {"nvidia.com/gpu": "1", "nvidia.com/gpumem": "4000"}}}],
                "containers": [""")
                .replace("GPU-0042-3,NVIDIA,20000,30:;", "GPU-0042-1,NVIDIA,4000,0:;GPU-0042-3,NVIDIA,20000,30:;");
        String initStatus =
                "\"initContainerStatuses\": [{\"name\": \"fetch\", \"ready\": false, \"restartCount\": 0, \"image\": \"busybox\", "
                        + "\"imageID\": \"x\", \"state\": {\"terminated\": {\"exitCode\": %s, \"reason\": \"Completed\", \"startedAt\": "
                        + "\"2026-11-30T08:12:50Z\", \"finishedAt\": \"2026-11-30T08:12:55Z\"}}}],\n    \"containerStatuses\": [";
        out.add(init);
        out.add(init.replace("\"containerStatuses\": [", initStatus.formatted("0")));
        out.add(init.replace("\"containerStatuses\": [", initStatus.formatted("1")));
        // A bind in flight: no node yet, the decision says where.
        out.add(typical.replace("\"nodeName\": \"gpu-node-0042\",", "")
                .replace("\"hami.io/bind-phase\": \"success\"", "\"hami.io/bind-phase\": \"allocating\""));
        out.add(typical.replace("\"phase\": \"Running\"", "\"phase\": \"Succeeded\""));
        out.add(typical.replace(
                "\"creationTimestamp\"", "\"deletionTimestamp\": \"2026-11-30T09:00:00Z\", \"creationTimestamp\""));
        // Several vendors in two containers, and an allocation that does not decode (the node fails closed).
        out.add(typical.replace("\"nvidia.com/gpucores\": \"30\"}", """
                "nvidia.com/gpucores": "30"}}}, {"name": "side", "image": "x", "env": [{"name": "Y", "value": "z"}],
                "resources": {"limits": {"hygon.com/hcunum": "1", "hygon.com/hcumem": "2000", "mthreads.com/vgpu": "1",
                "mthreads.com/sgpu-memory": "4", "cambricon.com/vmlu": "1", "cambricon.com/mlu.smlu.vmemory": "8"}"""));
        out.add(typical.replace("GPU-0042-3,NVIDIA,20000,30:;", "GPU-0042-3,NVIDIA,twenty,30:;"));
        // A pod with no device and no annotations at all.
        out.add("""
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "plain", "namespace": "default"},
                 "spec": {"containers": [{"name": "c", "image": "busybox"}]}}""");
        return out;
    }

    @Test
    void aTrimmedPodGivesTheSameUsageRequestAndLockViewAsTheWholeOne() {
        var whole = new UsageIndex();
        var trimmed = new UsageIndex();
        String node = resource("typical-node.json");
        new NodeInventory(whole, BACKENDS).refresh(JSON.convertValue(raw(node), Node.class));
        new NodeInventory(trimmed, BACKENDS)
                .refresh(TolerantInformer.decode(JSON, raw(node), Node.class, CachedFields::node));
        int counted = 0;
        int i = 0;
        for (String json : pods()) {
            Pod full = JSON.convertValue(raw(json), Pod.class);
            Pod slim = TolerantInformer.decode(JSON, raw(json), Pod.class, CachedFields::pod);
            String key = ClusterWatch.key(full);
            assertThat(ClusterWatch.key(slim)).isEqualTo(key);
            PodUsage usage = PodUsage.of(full, BACKENDS);
            assertThat(PodUsage.of(slim, BACKENDS)).as(key).isEqualTo(usage);
            counted += usage instanceof PodUsage.Counted ? 1 : 0;
            assertThat(PodUsage.countedNode(slim)).isEqualTo(PodUsage.countedNode(full));
            assertThat(PodRequest.of(slim, BACKENDS)).as(key).isEqualTo(PodRequest.of(full, BACKENDS));
            assertThat(HolderPod.of(slim)).isEqualTo(HolderPod.of(full));
            assertThat(slim.getMetadata().getUid()).isEqualTo(full.getMetadata().getUid());
            assertThat(slim.getMetadata().getResourceVersion())
                    .isEqualTo(full.getMetadata().getResourceVersion());
            assertThat(slim.getMetadata().getLabels())
                    .isEqualTo(full.getMetadata().getLabels());
            assertThat(slim.getMetadata().getAnnotations())
                    .isEqualTo(full.getMetadata().getAnnotations());
            assertThat(slim.getMetadata().getDeletionTimestamp())
                    .isEqualTo(full.getMetadata().getDeletionTimestamp());
            assertThat(slim.getSpec().getSchedulerName())
                    .isEqualTo(full.getSpec().getSchedulerName());
            whole.putPod(key + "-" + i, usage, "1");
            trimmed.putPod(key + "-" + i++, PodUsage.of(slim, BACKENDS), "1");
        }
        // The same index: devices, usage and fail-closed reasons on the node, usage of the namespace.
        var seen = trimmed.snapshot("gpu-node-0042").orElseThrow();
        assertThat(seen.view())
                .isEqualTo(whole.snapshot("gpu-node-0042").orElseThrow().view());
        assertThat(seen.failClosed())
                .isEqualTo(whole.snapshot("gpu-node-0042").orElseThrow().failClosed())
                .hasSize(1);
        assertThat(seen.view().devicesOf("NVIDIA"))
                .hasSize(8)
                .anySatisfy(d -> assertThat(d.usedmem()).isPositive());
        assertThat(trimmed.namespaceUsage("ml-team", null))
                .isEqualTo(whole.namespaceUsage("ml-team", null))
                .isNotEmpty();
        // The variants take the counted, not-counted and undecodable paths, and the init-container release.
        assertThat(counted).isGreaterThanOrEqualTo(5);
        assertThat(PodUsage.of(JSON.convertValue(raw(pods().get(2)), Pod.class), BACKENDS))
                .isNotEqualTo(PodUsage.of(JSON.convertValue(raw(pods().get(3)), Pod.class), BACKENDS));
        assertThat(PodRequest.of(JSON.convertValue(raw(pods().get(7)), Pod.class), BACKENDS)
                        .vendors())
                .hasSize(4);
    }

    @Test
    void whatTheSchedulerDoesNotReadIsDroppedFromPods() {
        Pod slim = TolerantInformer.decode(JSON, raw(pods().get(2)), Pod.class, CachedFields::pod);
        var meta = slim.getMetadata();
        assertThat(meta.getManagedFields()).isNullOrEmpty();
        assertThat(meta.getOwnerReferences()).isNullOrEmpty();
        assertThat(meta.getGenerateName()).isNull();
        assertThat(meta.getCreationTimestamp()).isNull();
        var spec = slim.getSpec();
        assertThat(spec.getVolumes()).isNullOrEmpty();
        assertThat(spec.getTolerations()).isNullOrEmpty();
        assertThat(spec.getRestartPolicy()).isNull();
        for (var c : List.of(
                spec.getContainers().getFirst(), spec.getInitContainers().getFirst())) {
            assertThat(c.getName()).isNotEmpty();
            assertThat(c.getResources().getLimits()).isNotEmpty();
            assertThat(c.getImage()).isNull();
            assertThat(c.getEnv()).isNullOrEmpty();
            assertThat(c.getCommand()).isNullOrEmpty();
            assertThat(c.getVolumeMounts()).isNullOrEmpty();
            assertThat(c.getLivenessProbe()).isNull();
        }
        var status = slim.getStatus();
        assertThat(status.getPhase()).isEqualTo("Running");
        assertThat(status.getConditions()).isNullOrEmpty();
        assertThat(status.getContainerStatuses()).isNullOrEmpty();
        assertThat(status.getPodIP()).isNull();
        assertThat(status.getInitContainerStatuses())
                .singleElement()
                .satisfies(s ->
                        assertThat(s.getState().getTerminated().getExitCode()).isZero())
                .satisfies(s -> assertThat(s.getImage()).isNull());
        // At least four times smaller as JSON, which is about what it costs on the heap.
        Pod full = JSON.convertValue(raw(pods().get(2)), Pod.class);
        assertThat(JSON.asJson(slim).length() * 4).isLessThan(JSON.asJson(full).length());
        assertThat(JSON.asJson(slim)).doesNotContain("managedFields", "kube-api-access", "NCCL_DEBUG", "PodScheduled");
    }

    @Test
    void aTrimmedNodeGivesTheSameDevicesAndHealthAndDropsTheRest() {
        for (String json : List.of(resource("typical-node.json"), """
                {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "mlu"}, "status": {"capacity":
                 {"cambricon.com/mlu.smlu.vcore": "200", "cambricon.com/mlu.smlu.vmemory": "256"}}}""", """
                {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "bare"}}""")) {
            Node full = JSON.convertValue(raw(json), Node.class);
            Node slim = TolerantInformer.decode(JSON, raw(json), Node.class, CachedFields::node);
            var now = Instant.parse("2026-11-30T08:10:30Z");
            for (DeviceBackend b : BACKENDS.all()) {
                assertThat(b.discover(slim)).as(b.vendor()).isEqualTo(b.discover(full));
                assertThat(b.checkHealth(slim, now, io.hami.protocol.health.HealthMemory.NONE))
                        .as(b.vendor())
                        .isEqualTo(b.checkHealth(full, now, io.hami.protocol.health.HealthMemory.NONE));
            }
            assertThat(slim.getMetadata().getAnnotations())
                    .isEqualTo(full.getMetadata().getAnnotations());
            assertThat(slim.getMetadata().getLabels())
                    .isEqualTo(full.getMetadata().getLabels());
            assertThat(slim.getMetadata().getResourceVersion())
                    .isEqualTo(full.getMetadata().getResourceVersion());
        }
        Node slim = TolerantInformer.decode(JSON, raw(resource("typical-node.json")), Node.class, CachedFields::node);
        assertThat(BACKENDS.all().stream()
                        .filter(b -> b.discover(slim) instanceof io.hami.protocol.spi.Discovery.Found))
                .hasSize(1);
        assertThat(slim.getStatus().getAllocatable()).containsKey("nvidia.com/gpu");
        assertThat(slim.getStatus().getCapacity()).containsKey("nvidia.com/gpu");
        assertThat(slim.getStatus().getImages()).isNullOrEmpty();
        assertThat(slim.getStatus().getConditions()).isNullOrEmpty();
        assertThat(slim.getStatus().getNodeInfo()).isNull();
        assertThat(slim.getSpec()).isNull();
        assertThat(slim.getMetadata().getManagedFields()).isNullOrEmpty();
    }

    @Test
    void aKeptFieldOurModelCannotReadStillFailsWithTheSameMessage() {
        String typical = resource("typical-pod.json");
        for (String bad : List.of(
                typical.replace("\"containers\": [", "\"containers\": \"x\", \"unused\": ["),
                typical.replace("\"limits\": {\"cpu\": \"4\"", "\"limits\": {\"cpu\": [4]"),
                typical.replace("\"containers\": [", "\"initContainers\": {\"a\": 1}, \"containers\": ["),
                typical.replace("\"phase\": \"Running\"", "\"phase\": {\"a\": 1}"))) {
            String expected = message(() -> JSON.convertValue(raw(bad), Pod.class));
            assertThatThrownBy(() -> TolerantInformer.decode(JSON, raw(bad), Pod.class, CachedFields::pod))
                    .satisfies(e -> assertThat(ExtenderJson.describe((RuntimeException) e))
                            .isEqualTo(expected));
        }
        String node = resource("typical-node.json")
                .replaceFirst("\"allocatable\": \\{", "\"allocatable\": \"x\", \"unused\": {");
        String expected = message(() -> JSON.convertValue(raw(node), Node.class));
        assertThat(expected).contains("status.allocatable");
        assertThatThrownBy(() -> TolerantInformer.decode(JSON, raw(node), Node.class, CachedFields::node))
                .satisfies(e ->
                        assertThat(ExtenderJson.describe((RuntimeException) e)).isEqualTo(expected));
        // What is not kept is not read: a broken field the scheduler never looks at no longer fails the pod.
        String unread = typical.replace("\"restartPolicy\": \"Always\"", "\"restartPolicy\": {\"a\": 1}");
        assertThat(message(() -> JSON.convertValue(raw(unread), Pod.class))).contains("restartPolicy");
        assertThat(TolerantInformer.decode(JSON, raw(unread), Pod.class, CachedFields::pod)
                        .getSpec()
                        .getNodeName())
                .isEqualTo("gpu-node-0042");
    }

    private static String message(Runnable decode) {
        try {
            decode.run();
        } catch (RuntimeException e) {
            return ExtenderJson.describe(e);
        }
        throw new AssertionError("expected the whole object not to decode");
    }

    @Test
    void otherKindsAreKeptWhole() {
        var quota = raw("""
                {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "a",
                 "managedFields": [{"manager": "kubectl"}]}, "spec": {"hard": {"limits.nvidia.com/gpumem": "1000"}},
                 "status": {"used": {"limits.nvidia.com/gpumem": "0"}}}""");
        var decoded = TolerantInformer.decode(JSON, quota, io.fabric8.kubernetes.api.model.ResourceQuota.class, null);
        assertThat(decoded.getMetadata().getManagedFields()).hasSize(1);
        assertThat(decoded.getStatus().getUsed()).containsKey("limits.nvidia.com/gpumem");
        assertThat(Map.copyOf(decoded.getSpec().getHard())).containsKey("limits.nvidia.com/gpumem");
    }
}
