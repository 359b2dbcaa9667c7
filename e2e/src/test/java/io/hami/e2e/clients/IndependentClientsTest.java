package io.hami.e2e.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.Command;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.leader.LeaderMode;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * kubectl and the Python client ({@code python3-kubernetes}) as independent readers and writers of what hami-java
 * writes on a real kube-apiserver. The real kube-scheduler schedules a pod through our extender onto a node whose
 * register annotation Java encoded; then both read, byte for byte, the pod's protocol annotations our scheduler
 * wrote, the node's register annotation and the node lock our scheduler holds for the pod, and Python's JSON merge
 * patch of the register annotation reaches our scheduler's informer. Skipped without kubectl or python3-kubernetes
 * ({@code scripts/install-test-deps.sh} installs both).
 */
@EnableKubeControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IndependentClientsTest {
    private static final String NS = "e2e-clients";
    private static final String NODE = "e2e-clients-gpu";
    private static final String POD = "reader";
    private static final List<DeviceInfo> GPUS = List.of(Cluster.gpu("GPU-e2e-clients-0", 0, 16384, "NVIDIA-A100"));
    /** What Java wrote on the node: our codec's encoding. */
    private static final String REGISTER = JsonRegisterCodec.encode(GPUS);

    static KubeControlPlane plane;
    static KubernetesClient admin;

    @TempDir
    static Path dir;

    private static HamiScheduler scheduler;
    private static Path script;
    private static Path cache;

    @BeforeAll
    static void schedulePodThroughOurExtender() throws Exception {
        assumeTrue(Command.kubectlInstalled(), "kubectl is not installed at " + Command.KUBECTL);
        assumeTrue(Command.pythonClientInstalled(), "python3-kubernetes is not installed");
        try (InputStream in = IndependentClientsTest.class.getResourceAsStream("python_client.py")) {
            script = Files.write(dir.resolve("python_client.py"), in.readAllBytes());
        }
        cache = dir.resolve("kubectl-cache");
        plane.ensureNamespace(NS);
        NodeLifecycle.createReady(
                admin,
                new NodeBuilder(Cluster.nvidia(NODE, GPUS.toArray(DeviceInfo[]::new)))
                        .editOrNewSpec()
                        .addToTaints(Cluster.e2eTaint("clients"))
                        .endSpec()
                        // Room for the second GPU Python's patch adds: a register above Allocatable is refused.
                        .editStatus()
                        .addToAllocatable("nvidia.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("20"))
                        .addToCapacity("nvidia.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("20"))
                        .endStatus()
                        .build());
        scheduler = HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("scheduler"));
        scheduler.startKubeScheduler(plane, null);
        await().atMost(Patience.seconds(30))
                .until(() -> scheduler.app().index().nodeNames().contains(NODE));
        admin.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(Cluster.onNode(
                                Cluster.pod(
                                                NS,
                                                POD,
                                                Cluster.container(
                                                        "main", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000"))
                                        .build(),
                                NODE))
                        .editSpec()
                        .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                        .addToTolerations(Cluster.e2eToleration())
                        .endSpec()
                        .build())
                .create();
        await().atMost(Patience.seconds(60))
                .until(() -> NODE.equals(admin.pods()
                        .inNamespace(NS)
                        .withName(POD)
                        .get()
                        .getSpec()
                        .getNodeName()));
    }

    @AfterAll
    static void cleanUp() {
        if (scheduler != null) {
            scheduler.close();
        }
        if (admin != null) {
            admin.pods().inNamespace(NS).withName(POD).withGracePeriod(0).delete();
            admin.nodes().withName(NODE).delete();
        }
    }

    /** What fabric8, the Java client our code uses, reads: every {@code hami.io/} annotation as UTF-8 bytes. */
    private static Map<String, String> javaPod() {
        return protocol(
                admin.pods().inNamespace(NS).withName(POD).get().getMetadata().getAnnotations());
    }

    private static Map<String, String> javaNode() {
        return protocol(admin.nodes().withName(NODE).get().getMetadata().getAnnotations());
    }

    private static Map<String, String> protocol(Map<String, String> annotations) {
        var out = new TreeMap<String, String>();
        annotations.forEach((k, v) -> {
            if (k.startsWith("hami.io/")) {
                out.put(k, b64(v));
            }
        });
        return out;
    }

    private static Map<String, String> protocol(JsonNode base64Annotations) {
        var out = new TreeMap<String, String>();
        base64Annotations.properties().forEach(e -> {
            if (e.getKey().startsWith("hami.io/")) {
                out.put(e.getKey(), e.getValue().asString());
            }
        });
        return out;
    }

    private static String b64(String value) {
        return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String b64) {
        return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
    }

    /** The annotations what our code wrote must hold: decision, phase, lock of this pod, Java's register encoding. */
    private static void assertProtocolState(Map<String, String> pod, Map<String, String> node) throws Exception {
        assertThat(pod)
                .containsKeys(
                        ProtocolKeys.VGPU_NODE,
                        ProtocolKeys.BIND_PHASE,
                        ProtocolKeys.BIND_TIME,
                        NvidiaKeys.ALLOCATED,
                        NvidiaKeys.TO_ALLOCATE);
        assertThat(decode(pod.get(ProtocolKeys.VGPU_NODE))).isEqualTo(NODE);
        assertThat(decode(pod.get(NvidiaKeys.ALLOCATED))).startsWith("GPU-e2e-clients-0,NVIDIA,3000,");
        assertThat(decode(node.get(NvidiaKeys.REGISTER))).isEqualTo(REGISTER);
        // No plugin runs: the pod stays allocating and the lock stays with it.
        assertThat(decode(pod.get(ProtocolKeys.BIND_PHASE))).isEqualTo(ProtocolKeys.PHASE_ALLOCATING);
        assertThat(NodeLockCodec.decode(decode(node.get(ProtocolKeys.NODE_LOCK)))
                        .isHeldBy(NS, POD))
                .isTrue();
    }

    @Test
    @Order(1)
    void pythonReadsByteForByteWhatJavaWrote() throws Exception {
        JsonNode read = DeployFiles.YAML.readTree(
                Command.python(script, plane.adminKubeconfig().toString(), "read", NS, POD, NODE)
                        .ok()
                        .stdout());
        assertThat(read.path("nodeName").asString()).isEqualTo(NODE);
        Map<String, String> pod = protocol(read.path("pod"));
        Map<String, String> node = protocol(read.path("node"));
        assertThat(pod).isEqualTo(javaPod());
        assertThat(node).isEqualTo(javaNode());
        assertProtocolState(pod, node);
    }

    @Test
    @Order(1)
    void kubectlReadsByteForByteWhatJavaWrote() throws Exception {
        JsonNode pod = DeployFiles.YAML.readTree(
                Command.kubectl(plane.adminKubeconfig(), cache, "get", "pod", POD, "-n", NS, "-o", "json")
                        .ok()
                        .stdout());
        JsonNode node = DeployFiles.YAML.readTree(
                Command.kubectl(plane.adminKubeconfig(), cache, "get", "node", NODE, "-o", "json")
                        .ok()
                        .stdout());
        assertThat(pod.path("spec").path("nodeName").asString()).isEqualTo(NODE);
        Map<String, String> podAnnotations = utf8(pod.path("metadata").path("annotations"));
        Map<String, String> nodeAnnotations = utf8(node.path("metadata").path("annotations"));
        assertThat(podAnnotations).isEqualTo(javaPod());
        assertThat(nodeAnnotations).isEqualTo(javaNode());
        assertProtocolState(podAnnotations, nodeAnnotations);
        // The lock as kubectl's own jsonpath prints it, raw.
        String lock = Command.kubectl(
                        plane.adminKubeconfig(),
                        cache,
                        "get",
                        "node",
                        NODE,
                        "-o",
                        "jsonpath={.metadata.annotations.hami\\.io/mutex\\.lock}")
                .ok()
                .stdout();
        assertThat(b64(lock)).isEqualTo(javaNode().get(ProtocolKeys.NODE_LOCK));
    }

    private static Map<String, String> utf8(JsonNode annotations) {
        var plain = new LinkedHashMap<String, String>();
        annotations.properties().forEach(e -> plain.put(e.getKey(), e.getValue().asString()));
        return protocol(plain);
    }

    @Test
    @Order(2)
    void pythonsMergePatchOfTheRegisterAnnotationReachesOurSchedulersInformer() throws Exception {
        var twoGpus = List.of(GPUS.getFirst(), Cluster.gpu("GPU-e2e-clients-1", 1, 32768, "NVIDIA-A100"));
        String value = JsonRegisterCodec.encode(twoGpus);
        var result = Command.python(
                        script,
                        plane.adminKubeconfig().toString(),
                        "merge-patch",
                        NODE,
                        NvidiaKeys.REGISTER,
                        b64(value))
                .ok();
        assertThat(decode(DeployFiles.YAML
                        .readTree(result.stdout())
                        .path("node")
                        .path(NvidiaKeys.REGISTER)
                        .asString()))
                .isEqualTo(value);
        assertThat(javaNode().get(NvidiaKeys.REGISTER))
                .as("what Java reads back")
                .isEqualTo(b64(value));
        assertThat(javaNode()).as("a merge patch leaves the other annotations").containsKey(ProtocolKeys.NODE_LOCK);
        await().atMost(Patience.seconds(30))
                .untilAsserted(() -> assertThat(scheduler
                                .app()
                                .index()
                                .snapshot(NODE)
                                .orElseThrow()
                                .view()
                                .devicesOf("NVIDIA"))
                        .extracting(d -> d.device().id())
                        .containsExactlyInAnyOrder("GPU-e2e-clients-0", "GPU-e2e-clients-1"));
    }
}
