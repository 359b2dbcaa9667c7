package io.hami.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.cli.Main;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.LegacyRegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code hami inspect} against the embedded API server holding nodes and pods with the annotations the scheduler,
 * the device plugins and upstream HAMi write. The clock is fixed, so ages in the output are exact.
 */
class InspectCommandTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant NOW = Instant.parse("2026-08-01T06:00:00Z");

    private static EmbeddedApiServer server;
    private static Path kubeconfig;

    record Result(int code, String out, String err) {}

    @BeforeAll
    static void cluster(@TempDir Path dir) {
        server = EmbeddedApiServer.start();
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
        try (KubernetesClient client = server.newClient()) {
            // Two A100s, one reported unhealthy; asked for a handshake 12 s ago; locked by a pod for 30 s.
            node(
                    client,
                    "gpu-1",
                    Map.of(
                            "hami.io/node-nvidia-register",
                                    JsonRegisterCodec.encode(List.of(
                                            new DeviceInfo(
                                                    "GPU-a", 0, 10, 40960, 100, "NVIDIA-A100", 0, "hami-core", true),
                                            new DeviceInfo(
                                                    "GPU-b", 1, 10, 40960, 100, "NVIDIA-A100", 1, "hami-core", false))),
                            "hami.io/node-handshake", "Requesting_2026-08-01 05:59:48",
                            "hami.io/mutex.lock", "2026-08-01T05:59:30Z,team-a,train"),
                    Map.of("nvidia.com/gpu", "20"),
                    Map.of());
            // An HCU node whose plugin stopped answering 90 s ago and advertises nothing: its register claims more than
            // Allocatable allows (design D9), so the scheduler fails the vendor closed there.
            node(
                    client,
                    "hcu-1",
                    Map.of(
                            "hami.io/node-hcu-register",
                            LegacyRegisterCodec.encode(List.of(
                                    new DeviceInfo("HCU-0", 0, 4, 65536, 100, "HCU-Z100", 0, "hami-core", true))),
                            "hami.io/node-handshake-hcu",
                            "Requesting_2026-08-01 05:58:30"),
                    Map.of("hygon.com/hcunum", "0"),
                    Map.of());
            // Cambricon from node capacity: two cards of 64 units of 256 MiB; a legacy lock (time only).
            node(
                    client,
                    "mlu-1",
                    Map.of("hami.io/mutex.lock", "2026-08-01T05:55:00Z"),
                    Map.of(),
                    Map.of("cambricon.com/mlu.smlu.vcore", "200", "cambricon.com/mlu.smlu.vmemory", "128"));
            node(client, "cpu-1", Map.of(), Map.of(), Map.of());
            node(
                    client,
                    "bad-1",
                    Map.of("hami.io/node-nvidia-register", "[{\"id\":"),
                    Map.of("nvidia.com/gpu", "10"),
                    Map.of());

            // Allocating: the init container has no device, main was served, side waits for the device plugin.
            pod(
                    client,
                    "team-a",
                    "train",
                    "gpu-1",
                    "Pending",
                    Map.of(
                            "hami.io/vgpu-node",
                            "gpu-1",
                            "hami.io/bind-phase",
                            "allocating",
                            "hami.io/vgpu-devices-allocated",
                            ";GPU-a,NVIDIA,8000,30:;GPU-a,NVIDIA,2000,0:GPU-b,NVIDIA,2000,0:;",
                            "hami.io/vgpu-devices-to-allocate",
                            ";;GPU-a,NVIDIA,2000,0:GPU-b,NVIDIA,2000,0:;"),
                    List.of("setup"),
                    List.of("main", "side"));
            // Finished pods hold nothing on the node, but still show what they had.
            pod(
                    client,
                    "team-a",
                    "done",
                    "gpu-1",
                    "Succeeded",
                    Map.of(
                            "hami.io/bind-phase",
                            "success",
                            "hami.io/vgpu-devices-allocated",
                            "GPU-b,NVIDIA,9000,50:;",
                            "hami.io/vgpu-devices-to-allocate",
                            ";"),
                    List.of(),
                    List.of("main"));
            // Written by upstream's Cambricon path: an allocated key without a to-allocate key.
            pod(
                    client,
                    "team-b",
                    "mlu",
                    "mlu-1",
                    "Running",
                    Map.of("hami.io/cambricon-mlu-devices-allocated", "mlu-1-cambricon-mlu-1,MLU,4096,50:;"),
                    List.of(),
                    List.of("main"));
            // Asks for a GPU and is not placed yet.
            Pod waiting = new PodBuilder()
                    .withNewMetadata()
                    .withNamespace("team-b")
                    .withName("waiting")
                    .endMetadata()
                    .withNewSpec()
                    .withContainers(new ContainerBuilder()
                            .withName("main")
                            .withImage("busybox")
                            .withNewResources()
                            .withLimits(Map.of("nvidia.com/gpu", new Quantity("1")))
                            .endResources()
                            .build())
                    .endSpec()
                    .withNewStatus()
                    .withPhase("Pending")
                    .endStatus()
                    .build();
            client.pods().inNamespace("team-b").resource(waiting).create();
            // Neither asks nor holds: not shown.
            pod(client, "team-b", "plain", "cpu-1", "Running", Map.of(), List.of(), List.of("main"));
            // An allocation that does not decode: shown as a problem, and its node fails closed.
            pod(
                    client,
                    "team-b",
                    "broken",
                    "gpu-1",
                    "Running",
                    Map.of("hami.io/hcu-devices-allocated", "HCU-0,HCU,x,1:;"),
                    List.of(),
                    List.of("main"));
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static void node(
            KubernetesClient client,
            String name,
            Map<String, String> annotations,
            Map<String, String> allocatable,
            Map<String, String> capacity) {
        var b = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewStatus();
        allocatable.forEach((k, v) -> b.addToAllocatable(k, new Quantity(v)));
        capacity.forEach((k, v) -> b.addToCapacity(k, new Quantity(v)));
        Node node = b.endStatus().build();
        client.nodes().resource(node).create();
    }

    private static void pod(
            KubernetesClient client,
            String namespace,
            String name,
            String node,
            String phase,
            Map<String, String> annotations,
            List<String> init,
            List<String> app) {
        var spec = new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node);
        init.forEach(
                c -> spec.addNewInitContainer().withName(c).withImage("busybox").endInitContainer());
        app.forEach(c -> spec.addNewContainer().withName(c).withImage("busybox").endContainer());
        Pod pod = spec.endSpec().withNewStatus().withPhase(phase).endStatus().build();
        client.pods().inNamespace(namespace).resource(pod).create();
    }

    private static Result inspect(String... args) {
        var cl = new CommandLine(new InspectCommand(Clock.fixed(NOW, ZoneOffset.UTC)));
        return run(cl, args);
    }

    private static Result run(CommandLine cl, String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void nodesTableShowsEachDeviceWithItsAllocationHealthHandshakeAndLock() {
        var r = inspect("nodes", "--kubeconfig", kubeconfig.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                NODE    VENDOR   INDEX   DEVICE                  TYPE          HEALTH      SHARED   MEMORY(MiB)   CORES    HANDSHAKE           LOCK
                bad-1   -        -       -                       -             -           -        -             -        -                   -
                cpu-1   -        -       -                       -             -           -        -             -        -                   -
                gpu-1   NVIDIA   0       GPU-a                   NVIDIA-A100   healthy     2/10     10000/40960   30/100   requested 12s ago   team-a/train (30s)
                gpu-1   NVIDIA   1       GPU-b                   NVIDIA-A100   unhealthy   1/10     2000/40960    0/100    requested 12s ago   team-a/train (30s)
                hcu-1   -        -       -                       -             -           -        -             -        -                   -
                mlu-1   MLU      0       mlu-1-cambricon-mlu-0   MLU           healthy     0/100    0/16384       0/100    -                   legacy (300s)
                mlu-1   MLU      1       mlu-1-cambricon-mlu-1   MLU           healthy     1/100    4096/16384    50/100   -                   legacy (300s)

                node bad-1 fails closed: NVIDIA inventory unreadable: hami.io/node-nvidia-register on node bad-1: \
                invalid JSON in register annotation: Unexpected end-of-input within/between Object entries
                node gpu-1 fails closed: pod team-b/broken has an undecodable hami.io/hcu-devices-allocated: \
                invalid memory field in container 0 device 0: "x", want a whole number from 0 to 2147483647
                node hcu-1 fails closed: HCU inventory unreadable: hami.io/node-hcu-register on node hcu-1 claims 1 healthy \
                device with 4 slots, more than the node's Allocatable hygon.com/hcunum=0 allows: the kubelet reports one \
                hygon.com/hcunum per slot its device plugin advertises
                """);
    }

    @Test
    void nodesJsonCarriesEveryFieldWithExactValues() {
        var r = inspect("nodes", "--kubeconfig", kubeconfig.toString(), "-o", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode nodes = JSON.readTree(r.out()).path("nodes");
        assertThat(nodes.valueStream().map(n -> n.path("name").asString()))
                .containsExactly("bad-1", "cpu-1", "gpu-1", "hcu-1", "mlu-1");

        JsonNode gpu = nodes.get(2);
        assertThat(gpu.path("lock")).isEqualTo(JSON.readTree("""
                {"value":"2026-08-01T05:59:30Z,team-a,train","holder":"team-a/train","time":"2026-08-01T05:59:30Z","ageSeconds":30}"""));
        assertThat(gpu.path("vendors")).hasSize(1);
        JsonNode nvidia = gpu.path("vendors").get(0);
        assertThat(nvidia.path("vendor").asString()).isEqualTo("NVIDIA");
        assertThat(nvidia.path("handshake")).isEqualTo(JSON.readTree("""
                {"state":"requested","value":"Requesting_2026-08-01 05:59:48","askedAt":"2026-08-01T05:59:48Z","ageSeconds":12}"""));
        assertThat(nvidia.path("withdrawn").asBoolean()).isFalse();
        assertThat(nvidia.path("devices")).isEqualTo(JSON.readTree("""
                [{"index":0,"id":"GPU-a","type":"NVIDIA-A100","health":true,"numa":0,"mode":"hami-core","count":10,"used":2,
                  "memoryMiB":40960,"usedMemoryMiB":10000,"cores":100,"usedCores":30},
                 {"index":1,"id":"GPU-b","type":"NVIDIA-A100","health":false,"numa":1,"mode":"hami-core","count":10,"used":1,
                  "memoryMiB":40960,"usedMemoryMiB":2000,"cores":100,"usedCores":0}]"""));
        assertThat(gpu.path("failClosed").get(0).asString())
                .startsWith("pod team-b/broken has an undecodable hami.io/hcu-devices-allocated");

        assertThat(nodes.get(3).path("vendors")).isEmpty();
        assertThat(nodes.get(3).path("failClosed").get(0).asString())
                .startsWith(
                        "HCU inventory unreadable: hami.io/node-hcu-register on node hcu-1 claims 1 healthy device");
        assertThat(nodes.get(3).path("lock").isNull()).isTrue();

        JsonNode mlu = nodes.get(4);
        assertThat(mlu.path("lock")).isEqualTo(JSON.readTree("""
                {"value":"2026-08-01T05:55:00Z","holder":null,"time":"2026-08-01T05:55:00Z","ageSeconds":300}"""));
        assertThat(mlu.path("vendors").get(0).path("handshake").isNull()).isTrue();
        assertThat(nodes.get(0).path("vendors")).isEmpty();
        assertThat(nodes.get(0).path("failClosed").get(0).asString()).startsWith("NVIDIA inventory unreadable");
        assertThat(nodes.get(1).path("failClosed")).isEmpty();
    }

    @Test
    void podsTableShowsEachContainersDevicesAndWhetherThePluginServedThem() {
        var r = inspect("pods", "--kubeconfig", kubeconfig.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                NAMESPACE   POD       NODE    PHASE       BIND-PHASE   CONTAINER   VENDOR   DEVICE                  MEMORY(MiB)   CORES   ALLOCATE
                team-a      done      gpu-1   Succeeded   success      main        NVIDIA   GPU-b                   9000          50      done
                team-a      train     gpu-1   Pending     allocating   main        NVIDIA   GPU-a                   8000          30      done
                team-a      train     gpu-1   Pending     allocating   side        NVIDIA   GPU-a                   2000          0       waiting
                team-a      train     gpu-1   Pending     allocating   side        NVIDIA   GPU-b                   2000          0       waiting
                team-b      broken    gpu-1   Running     -            -           -        -                       -             -       -
                team-b      mlu       mlu-1   Running     -            main        MLU      mlu-1-cambricon-mlu-1   4096          50      -
                team-b      waiting   -       Pending     -            -           -        -                       -             -       -

                pod team-b/broken: unreadable allocation: HCU: invalid memory field in container 0 device 0: "x", want a whole number from 0 to 2147483647
                """);
    }

    @Test
    void podsJsonListsEveryContainerInAnnotationOrderWithItsDevices() {
        var r = inspect("pods", "--kubeconfig", kubeconfig.toString(), "--output=json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode pods = JSON.readTree(r.out()).path("pods");
        assertThat(pods.valueStream()
                        .map(p -> p.path("namespace").asString() + "/"
                                + p.path("name").asString()))
                .containsExactly("team-a/done", "team-a/train", "team-b/broken", "team-b/mlu", "team-b/waiting");
        assertThat(pods.get(1)).isEqualTo(JSON.readTree("""
                {"namespace":"team-a","name":"train","node":"gpu-1","phase":"Pending","bindPhase":"allocating",
                 "containers":[
                   {"name":"setup","devices":[]},
                   {"name":"main","devices":[{"vendor":"NVIDIA","uuid":"GPU-a","memoryMiB":8000,"cores":30,"allocate":"done"}]},
                   {"name":"side","devices":[{"vendor":"NVIDIA","uuid":"GPU-a","memoryMiB":2000,"cores":0,"allocate":"waiting"},
                                             {"vendor":"NVIDIA","uuid":"GPU-b","memoryMiB":2000,"cores":0,"allocate":"waiting"}]}],
                 "problems":[]}"""));
        assertThat(pods.get(3)
                        .path("containers")
                        .get(0)
                        .path("devices")
                        .get(0)
                        .path("allocate")
                        .isNull())
                .isTrue();
        assertThat(pods.get(4)).isEqualTo(JSON.readTree("""
                {"namespace":"team-b","name":"waiting","node":null,"phase":"Pending","bindPhase":null,
                 "containers":[{"name":"main","devices":[]}],"problems":[]}"""));
        assertThat(pods.get(2).path("problems").get(0).asString())
                .isEqualTo(
                        "HCU: invalid memory field in container 0 device 0: \"x\", want a whole number from 0 to 2147483647");
    }

    @Test
    void aMissingKubeconfigIsAClearErrorAndExitCodeOne(@TempDir Path dir) {
        var r = inspect("nodes", "--kubeconfig", dir.resolve("absent").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().trim())
                .isEqualTo("hami inspect: kubeconfig " + dir.resolve("absent") + " does not exist or is not readable");
    }

    @Test
    void anUnknownOutputFormatIsAUsageError() {
        var r = inspect("pods", "--kubeconfig", kubeconfig.toString(), "-o", "yaml");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Invalid value for option '--output'", "table, json");
    }

    @Test
    void theHamiCommandRunsInspect() {
        var r = run(Main.commandLine(), "inspect", "pods", "--kubeconfig", kubeconfig.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("NAMESPACE   POD").contains("team-a      train     gpu-1");
    }

    @Test
    void inspectWithoutAViewAsksForOne() {
        var r = run(Main.commandLine(), "inspect");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required subcommand", "nodes", "pods");
    }

    @Test
    void anApiErrorIsReportedWithTheServersMessage() {
        server.faults().failNext("GET", "/api/v1/nodes", 403, 1);
        var r = inspect("nodes", "--kubeconfig", kubeconfig.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().trim())
                .isEqualTo("hami inspect: cannot list nodes and pods at " + server.url()
                        + "/: injected fault: GET /api/v1/nodes");
    }
}
