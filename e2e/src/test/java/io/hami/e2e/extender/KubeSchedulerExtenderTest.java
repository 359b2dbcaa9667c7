package io.hami.e2e.extender;

import static io.hami.e2e.support.Cluster.container;
import static io.hami.e2e.support.Cluster.gpu;
import static io.hami.e2e.support.Cluster.onNode;
import static io.hami.e2e.support.Cluster.pod;
import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.DeployedWebhook;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.kubelet.ContainerRuntime;
import io.hami.lab.kubelet.PodStatusWriter;
import io.hami.lab.kubelet.SyntheticKubelet;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.codec.UnixTimeCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kube-scheduler, with deploy/'s configuration, calling our extender for filter, prioritize and bind, pods
 * created through the real API server and mutated by our webhook on the way in. No kubelet: after bind each pod
 * stays {@code allocating} holding its node's lock, so every pod here has a node of its own.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 3, unit = TimeUnit.MINUTES)
class KubeSchedulerExtenderTest {
    static final String NS = "e2e-extender";
    static final Duration BOUND_WITHIN = Patience.seconds(45);

    static final String NVIDIA = "ext-nvidia";
    static final String NVIDIA_MULTI = "ext-nvidia-multi";
    static final String HYGON = "ext-hygon";
    static final String MLU = "ext-mlu";
    static final String MTHREADS = "ext-mthreads";
    static final String MIX = "ext-mix";
    /** A valid node name (DNS subdomain, up to 253 characters) longer than a label value may be (63). */
    static final String LONG = "ext-long-" + "n".repeat(60) + ".rack-7.cluster.example";

    static final String LONG_HOSTNAME = "ext-long";
    static final String SHARED = "ext-shared";
    static final List<String> NODES = List.of(NVIDIA, NVIDIA_MULTI, HYGON, MLU, MTHREADS, MIX, LONG, SHARED);

    /** Device IDs per node and vendor keyword, as each node advertises them. */
    static final Map<String, Map<String, Set<String>>> INVENTORY = new HashMap<>();

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static HamiScheduler scheduler;

    @BeforeAll
    static void cluster(@TempDir Path dir) throws Exception {
        plane.ensureNamespace(NS);
        create(
                Cluster.nvidia(
                        NVIDIA, gpu("GPU-ext-0", 0, 8000, "NVIDIA-A10"), gpu("GPU-ext-1", 1, 16000, "NVIDIA-A10")),
                "NVIDIA",
                Set.of("GPU-ext-0", "GPU-ext-1"));
        create(
                Cluster.nvidia(
                        NVIDIA_MULTI,
                        gpu("GPU-multi-0", 0, 8000, "NVIDIA-A10"),
                        gpu("GPU-multi-1", 1, 8000, "NVIDIA-A10")),
                "NVIDIA",
                Set.of("GPU-multi-0", "GPU-multi-1"));
        create(
                Cluster.hygon(HYGON, new DeviceInfo("HCU-ext-0", 0, 10, 16000, 100, "HCU-Z100", 0, "hami-core", true)),
                "HCU",
                Set.of("HCU-ext-0"));
        create(
                Cluster.cambricon(Cluster.node(MLU), 2, 64).build(),
                "MLU",
                Set.of(MLU + "-cambricon-mlu-0", MLU + "-cambricon-mlu-1"));
        create(
                Cluster.mthreads(Cluster.node(MTHREADS), 2, 96).build(),
                "Mthreads",
                Set.of(MTHREADS + "-mthreads-0", MTHREADS + "-mthreads-1"));
        // Two vendors on one node: NVIDIA by register annotation, Cambricon by Capacity.
        Node mix = Cluster.nvidia(MIX, gpu("GPU-mix-0", 0, 16000, "NVIDIA-A10"));
        mix = Cluster.cambricon(new io.fabric8.kubernetes.api.model.NodeBuilder(mix), 2, 64)
                .build();
        create(mix, "NVIDIA", Set.of("GPU-mix-0"));
        INVENTORY.get(MIX).put("MLU", Set.of(MIX + "-cambricon-mlu-0", MIX + "-cambricon-mlu-1"));
        // The kubelet labels a node with its host name, which is short even where the node name is an FQDN.
        Node longName = Cluster.nvidia(LONG, gpu("GPU-long-0", 0, 16000, "NVIDIA-A10"));
        longName.getMetadata().getLabels().put("kubernetes.io/hostname", LONG_HOSTNAME);
        create(longName, "NVIDIA", Set.of("GPU-long-0"));

        create(Cluster.nvidia(SHARED, gpu("GPU-shared-0", 0, 16000, "NVIDIA-A10")), "NVIDIA", Set.of("GPU-shared-0"));

        scheduler =
                HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("hami-scheduler"));
        ClusterOps.awaitIndexed(scheduler, NODES);
        DeployedWebhook.register(admin, scheduler.url(), plane.ca().certificatePem());
        scheduler.startKubeScheduler(plane, null);
    }

    private static void create(Node node, String vendor, Set<String> devices) {
        NodeLifecycle.createReady(admin, node);
        INVENTORY
                .computeIfAbsent(node.getMetadata().getName(), k -> new HashMap<>())
                .put(vendor, devices);
    }

    @AfterAll
    static void stop() {
        try {
            if (scheduler != null) {
                scheduler.close();
            }
        } finally {
            admin.admissionRegistration()
                    .v1()
                    .mutatingWebhookConfigurations()
                    .withName("hami-scheduler")
                    .delete();
            ClusterOps.deletePods(admin, NS);
            ClusterOps.deleteNodes(admin, NODES);
        }
    }

    @Test
    void everyVendorsPodIsBoundByKubeSchedulerThroughOurExtender() throws Exception {
        var pods = new LinkedHashMap<String, Pod>();
        pods.put(
                NVIDIA,
                pod(
                                NS,
                                "nvidia",
                                container(
                                        "cuda",
                                        "nvidia.com/gpu",
                                        "1",
                                        "nvidia.com/gpumem",
                                        "3000",
                                        "nvidia.com/gpucores",
                                        "30"))
                        .build());
        pods.put(
                HYGON,
                pod(
                                NS,
                                "hygon",
                                container(
                                        "dtk",
                                        "hygon.com/hcunum",
                                        "1",
                                        "hygon.com/hcumem",
                                        "2000",
                                        "hygon.com/hcucores",
                                        "20"))
                        .build());
        pods.put(
                MLU,
                pod(
                                NS,
                                "cambricon",
                                container(
                                        "mlu",
                                        "cambricon.com/vmlu",
                                        "1",
                                        "cambricon.com/mlu.smlu.vmemory",
                                        "8",
                                        "cambricon.com/mlu.smlu.vcore",
                                        "25"))
                        .build());
        pods.put(
                MTHREADS,
                pod(
                                NS,
                                "mthreads",
                                container(
                                        "musa",
                                        "mthreads.com/vgpu",
                                        "1",
                                        "mthreads.com/sgpu-memory",
                                        "8",
                                        "mthreads.com/sgpu-core",
                                        "4"))
                        .build());
        pods.forEach((node, p) ->
                admin.pods().inNamespace(NS).resource(onNode(p, node)).create());

        Pod nvidia = awaitBound("nvidia", NVIDIA);
        assertDecision(
                nvidia,
                NVIDIA,
                "hami.io/vgpu-devices-to-allocate",
                "hami.io/vgpu-devices-allocated",
                List.of(List.of(new Expected("NVIDIA", 3000, 30))));
        Pod hygon = awaitBound("hygon", HYGON);
        assertDecision(
                hygon,
                HYGON,
                "hami.io/hcu-devices-to-allocate",
                "hami.io/hcu-devices-allocated",
                List.of(List.of(new Expected("HCU", 2000, 20))));
        Pod mlu = awaitBound("cambricon", MLU);
        assertDecision(
                mlu,
                MLU,
                "hami.io/cambricon-mlu-devices-to-allocate",
                "hami.io/cambricon-mlu-devices-allocated",
                List.of(List.of(new Expected("MLU", 8 * 256, 25))));
        Pod mthreads = awaitBound("mthreads", MTHREADS);
        assertDecision(
                mthreads,
                MTHREADS,
                "hami.io/mthreads-vgpu-devices-to-allocate",
                "hami.io/mthreads-vgpu-devices-allocated",
                List.of(List.of(new Expected("Mthreads", 8 * 512, 4))));

        // Our events are accepted by the real API server, so kubectl describe pod says what HAMi did.
        for (String name : List.of("nvidia", "hygon", "cambricon", "mthreads")) {
            await("BindingSucceed event of " + name)
                    .atMost(Patience.seconds(30))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> admin.v1().events().inNamespace(NS).list().getItems().stream()
                            .anyMatch(e -> name.equals(e.getInvolvedObject().getName())
                                    && "BindingSucceed".equals(e.getReason())
                                    && e.getSource() != null
                                    && HamiScheduler.SCHEDULER_NAME.equals(
                                            e.getSource().getComponent())));
        }
    }

    @Test
    void aMultiContainerPodGetsOneIndexAlignedEntryPerContainer() throws Exception {
        var init = new ContainerBuilder()
                .withName("setup")
                .withImage("registry.k8s.io/pause:3.10")
                .build();
        Pod p = new PodBuilder(pod(
                                NS,
                                "multi",
                                container("a", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000"),
                                container("b", "cpu", "100m"),
                                container("c", "nvidia.com/gpu", "2", "nvidia.com/gpumem", "2000"))
                        .build())
                .editSpec()
                .withInitContainers(init)
                .endSpec()
                .build();
        admin.pods().inNamespace(NS).resource(onNode(p, NVIDIA_MULTI)).create();

        Pod bound = awaitBound("multi", NVIDIA_MULTI);
        // Init containers first, then app containers; an empty entry for each container without a device
        // (design D2, docs/design.md#d2).
        assertDecision(
                bound,
                NVIDIA_MULTI,
                "hami.io/vgpu-devices-to-allocate",
                "hami.io/vgpu-devices-allocated",
                List.of(
                        List.of(),
                        List.of(new Expected("NVIDIA", 3000, 0)),
                        List.of(),
                        List.of(new Expected("NVIDIA", 2000, 0), new Expected("NVIDIA", 2000, 0))));
        var twoGpus =
                decode(annotations(bound).get("hami.io/vgpu-devices-allocated")).get(3);
        assertThat(twoGpus.stream().map(ContainerDevice::uuid).distinct())
                .as("a 2-GPU container gets two different cards")
                .hasSize(2);
    }

    @Test
    void aTwoVendorPodGetsBothVendorsDecisionsOnOneNode() throws Exception {
        var both = new ContainerBuilder(container(
                        "both",
                        "nvidia.com/gpu",
                        "1",
                        "nvidia.com/gpumem",
                        "4000",
                        "cambricon.com/vmlu",
                        "1",
                        "cambricon.com/mlu.smlu.vmemory",
                        "8",
                        "cambricon.com/mlu.smlu.vcore",
                        "10"))
                .build();
        var mluOnly = container(
                "mlu",
                "cambricon.com/vmlu",
                "1",
                "cambricon.com/mlu.smlu.vmemory",
                "4",
                "cambricon.com/mlu.smlu.vcore",
                "10");
        admin.pods()
                .inNamespace(NS)
                .resource(onNode(pod(NS, "two-vendors", both, mluOnly).build(), MIX))
                .create();

        Pod bound = awaitBound("two-vendors", MIX);
        assertDecision(
                bound,
                MIX,
                "hami.io/vgpu-devices-to-allocate",
                "hami.io/vgpu-devices-allocated",
                List.of(List.of(new Expected("NVIDIA", 4000, 0)), List.of()));
        assertDecision(
                bound,
                MIX,
                "hami.io/cambricon-mlu-devices-to-allocate",
                "hami.io/cambricon-mlu-devices-allocated",
                List.of(List.of(new Expected("MLU", 8 * 256, 10)), List.of(new Expected("MLU", 4 * 256, 10))));
    }

    @Test
    void aNodeWhoseNameIsLongerThanALabelValueTakesPods() throws Exception {
        assertThat(LONG.length()).isGreaterThan(63);
        Pod p = new PodBuilder(
                        pod(NS, "long-node", container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"))
                                .build())
                .editSpec()
                .addToNodeSelector("kubernetes.io/hostname", LONG_HOSTNAME)
                .endSpec()
                .build();
        admin.pods().inNamespace(NS).resource(p).create();
        Pod bound = awaitBound("long-node", LONG);
        assertDecision(
                bound,
                LONG,
                "hami.io/vgpu-devices-to-allocate",
                "hami.io/vgpu-devices-allocated",
                List.of(List.of(new Expected("NVIDIA", 1000, 0))));
    }

    @Test
    void aBindRefusedForTheNodeLockIsRetriedByKubeSchedulerUntilThePluginsFinishTheHolder() throws Exception {
        admin.pods()
                .inNamespace(NS)
                .resource(onNode(
                        pod(NS, "first", container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "8000"))
                                .build(),
                        SHARED))
                .create();
        awaitBound("first", SHARED);
        // "first" holds the node lock until its allocation is done: our bind answers "second" with contention at once.
        admin.pods()
                .inNamespace(NS)
                .resource(onNode(
                        pod(NS, "second", container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "8000"))
                                .build(),
                        SHARED))
                .create();
        await("second refused for the node lock")
                .atMost(BOUND_WITHIN)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> admin.v1().events().inNamespace(NS).list().getItems().stream()
                        .anyMatch(e -> "second".equals(e.getInvolvedObject().getName())
                                && "BindingFailed".equals(e.getReason())
                                && e.getMessage().contains("node lock contention")));
        assertThat(admin.pods()
                        .inNamespace(NS)
                        .withName("second")
                        .get()
                        .getSpec()
                        .getNodeName())
                .isNull();

        // Now the node's device plugins finish "first" (entries consumed, success, lock released), as they would.
        try (KubernetesClient kubelet = plane.newClient();
                var plugins = new SyntheticKubelet(
                        kubelet,
                        Set.of(SHARED),
                        DeviceBackends.load(DeviceConfig.DEFAULTS),
                        new NodeLockClient(kubelet, Duration.ofMinutes(5), Clock.systemUTC()),
                        new ContainerRuntime(new PodStatusWriter(kubelet)))) {
            // kube-scheduler's backoff (1 s doubling to 10 s) brings "second" back: it binds on the same card.
            Pod second = awaitBound("second", SHARED);
            var devices = decode(annotations(second).get("hami.io/vgpu-devices-allocated"));
            assertThat(devices.getFirst()).extracting(ContainerDevice::uuid).containsExactly("GPU-shared-0");
            await("both allocated")
                    .atMost(Patience.seconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> List.of("first", "second").stream()
                            .allMatch(n -> "success"
                                    .equals(annotations(admin.pods()
                                                    .inNamespace(NS)
                                                    .withName(n)
                                                    .get())
                                            .get("hami.io/bind-phase"))));
            await("lock released")
                    .atMost(Patience.seconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !ClusterOps.annotations(
                                    admin.nodes().withName(SHARED).get())
                            .containsKey("hami.io/mutex.lock"));
        }
    }

    @Test
    void anUnschedulablePodCarriesOurReasonsInItsPodScheduledCondition() {
        // Larger than any card of any node: our filter says why for each node, and kube-scheduler reports it.
        admin.pods()
                .inNamespace(NS)
                .resource(pod(NS, "too-big", container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "100000"))
                        .build())
                .create();
        PodCondition scheduled = await("PodScheduled=False on too-big")
                .atMost(BOUND_WITHIN)
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> condition(
                                admin.pods().inNamespace(NS).withName("too-big").get(), "PodScheduled"),
                        c -> c != null && "False".equals(c.getStatus()));
        assertThat(scheduled.getReason()).isEqualTo("Unschedulable");
        assertThat(scheduled.getMessage())
                .as("kube-scheduler's message lists our filter's reasons")
                .contains("CardInsufficientMemory")
                .contains("NodeInsufficientDevice");
        await("FilteringFailed event of too-big")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> admin.v1().events().inNamespace(NS).list().getItems().stream()
                        .anyMatch(e -> "too-big".equals(e.getInvolvedObject().getName())
                                && "FilteringFailed".equals(e.getReason())
                                && e.getMessage().contains("CardInsufficientMemory")));
        Pod pod = admin.pods().inNamespace(NS).withName("too-big").get();
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo(HamiScheduler.SCHEDULER_NAME);
        assertThat(pod.getSpec().getNodeName()).isNull();
        assertThat(annotations(pod))
                .as("filter writes nothing")
                .doesNotContainKeys("hami.io/vgpu-node", "hami.io/bind-phase", "hami.io/vgpu-devices-allocated");
    }

    record Expected(String type, int mem, int cores) {}

    private static Pod awaitBound(String name, String node) {
        Pod pod = await(name + " bound to " + node)
                .atMost(BOUND_WITHIN)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> admin.pods().inNamespace(NS).withName(name).get(),
                        p -> p != null && p.getSpec().getNodeName() != null);
        assertThat(pod.getSpec().getNodeName()).isEqualTo(node);
        assertThat(pod.getSpec().getSchedulerName())
                .as("the webhook sent %s to our scheduler", name)
                .isEqualTo(HamiScheduler.SCHEDULER_NAME);
        return pod;
    }

    /** The decision of design D4 (docs/design.md#d4): node, times, phase, to-allocate = allocated with these devices, and the node lock held by the pod. */
    private static void assertDecision(
            Pod pod, String node, String toAllocateKey, String allocatedKey, List<List<Expected>> expected)
            throws Exception {
        var a = annotations(pod);
        String name = pod.getMetadata().getName();
        assertThat(a.get("hami.io/vgpu-node")).as("%s vgpu-node", name).isEqualTo(node);
        if (node.length() <= 63) {
            assertThat(pod.getMetadata().getLabels())
                    .as("%s vgpu-node label", name)
                    .containsEntry("hami.io/vgpu-node", node);
        } else {
            assertThat(pod.getMetadata().getLabels())
                    .as("%s: no label can hold a longer node name", name)
                    .doesNotContainKey("hami.io/vgpu-node");
        }
        assertThat(a.get("hami.io/bind-phase")).as("%s bind-phase", name).isEqualTo("allocating");
        Instant bindTime = UnixTimeCodec.decode(a.get("hami.io/bind-time"));
        assertThat(bindTime)
                .isBetween(Instant.now().minusSeconds(120), Instant.now().plusSeconds(5));
        assertThat(a.get("hami.io/vgpu-time")).isEqualTo(a.get("hami.io/bind-time"));
        assertThat(a.get(toAllocateKey))
                .as("%s %s equals %s until a plugin allocates", name, toAllocateKey, allocatedKey)
                .isEqualTo(a.get(allocatedKey));
        var containers = decode(a.get(allocatedKey));
        assertThat(containers)
                .as("%s %s: one entry per container", name, allocatedKey)
                .hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            var got = containers.get(i);
            var want = expected.get(i);
            assertThat(got.stream()
                            .map(d -> new Expected(d.type(), d.usedmem(), d.usedcores()))
                            .toList())
                    .as("%s %s container %d", name, allocatedKey, i)
                    .isEqualTo(want);
            for (ContainerDevice d : got) {
                assertThat(INVENTORY.get(node).get(d.type()))
                        .as("%s device %s is on %s", name, d.uuid(), node)
                        .contains(d.uuid());
            }
        }
        Set<String> otherKeys = new java.util.HashSet<>(Set.of(
                "hami.io/vgpu-devices-allocated",
                "hami.io/hcu-devices-allocated",
                "hami.io/cambricon-mlu-devices-allocated",
                "hami.io/mthreads-vgpu-devices-allocated"));
        otherKeys.removeAll(INVENTORY.get(node).keySet().stream()
                .map(KubeSchedulerExtenderTest::allocatedKeyOf)
                .toList());
        assertThat(a)
                .as("%s has no decision of a vendor its node lacks", name)
                .doesNotContainKeys(otherKeys.toArray(String[]::new));
        String lock = ClusterOps.annotations(admin.nodes().withName(node).get()).get("hami.io/mutex.lock");
        assertThat(lock).as("node %s lock", node).isNotNull();
        var held = NodeLockCodec.decode(lock);
        assertThat(held.isHeldBy(NS, name))
                .as("node %s lock %s is held by %s until its plugins allocate", node, lock, name)
                .isTrue();
    }

    private static String allocatedKeyOf(String vendor) {
        return switch (vendor) {
            case "NVIDIA" -> "hami.io/vgpu-devices-allocated";
            case "HCU" -> "hami.io/hcu-devices-allocated";
            case "MLU" -> "hami.io/cambricon-mlu-devices-allocated";
            case "Mthreads" -> "hami.io/mthreads-vgpu-devices-allocated";
            default -> throw new IllegalArgumentException(vendor);
        };
    }

    private static List<List<ContainerDevice>> decode(String value) {
        assertThat(value).isNotNull();
        try {
            return new ArrayList<>(PodDevicesCodec.decode(value).containers());
        } catch (io.hami.protocol.codec.AnnotationFormatException e) {
            throw new AssertionError("undecodable pod devices " + value + ": " + e.getMessage(), e);
        }
    }

    private static PodCondition condition(Pod pod, String type) {
        if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElse(null);
    }
}
