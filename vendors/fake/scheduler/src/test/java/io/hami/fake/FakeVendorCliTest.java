package io.hami.fake;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.cli.Main;
import io.hami.lab.apiserver.EmbeddedApiServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code hami} command with this module's test classes on its class path: {@code annotation} knows the fake's
 * pod keys and {@code inspect} reports its capacity devices and a pod's share of them, with no edit to the CLI. The
 * CLI's own vendors are excluded from this module's class path, so the fake is the only vendor it knows.
 */
class FakeVendorCliTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Container 0 holds 4 GiB and 30% of XPU 1; container 1 holds nothing. */
    private static final String ALLOCATED = "x1-fake-xpu-1,FAKE,4096,30:;;";

    private static EmbeddedApiServer server;
    private static Path kubeconfig;

    record Result(int code, String out, String err) {}

    static Result hami(String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @BeforeAll
    static void cluster(@TempDir Path dir) {
        server = EmbeddedApiServer.start();
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
        try (KubernetesClient client = server.newClient()) {
            FakeNodes.createWithTwoXpus(client, "x1");
            client.pods()
                    .inNamespace("default")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withNamespace("default")
                            .withName("job")
                            .withAnnotations(Map.of(FakeKeys.ALLOCATED, ALLOCATED, FakeKeys.TO_ALLOCATE, ";;"))
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName("x1")
                            .addNewContainer()
                            .withName("main")
                            .withImage("busybox")
                            .endContainer()
                            .addNewContainer()
                            .withName("side")
                            .withImage("busybox")
                            .endContainer()
                            .endSpec()
                            .withNewStatus()
                            .withPhase("Running")
                            .endStatus()
                            .build())
                    .create();
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void annotationDecodesAndEncodesTheFakePodKeys() {
        var decoded = hami("annotation", "decode", "--key", FakeKeys.ALLOCATED, "--value", ALLOCATED);
        assertThat(decoded.code()).as(decoded.err()).isZero();
        JsonNode containers = JSON.readTree(decoded.out());
        assertThat(containers).hasSize(2);
        JsonNode device = containers.get(0).get(0);
        assertThat(device.path("uuid").asString()).isEqualTo("x1-fake-xpu-1");
        assertThat(device.path("type").asString()).isEqualTo(FakeKeys.VENDOR);
        assertThat(device.path("usedmem").asInt()).isEqualTo(4096);
        assertThat(device.path("usedcores").asInt()).isEqualTo(30);
        assertThat(containers.get(1)).isEmpty();

        var encoded = hami(
                "annotation",
                "encode",
                "--key",
                FakeKeys.TO_ALLOCATE,
                "--json",
                decoded.out().trim());
        assertThat(encoded.code()).as(encoded.err()).isZero();
        assertThat(encoded.out().trim()).isEqualTo(ALLOCATED);
    }

    @Test
    void anUnknownKeyListsTheFakeKeysAsTheOnlyVendorKeys() {
        var r = hami("annotation", "decode", "--key", "hami.io/no-such-key", "--value", "x");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .contains(FakeKeys.TO_ALLOCATE, FakeKeys.ALLOCATED, "hami.io/mutex.lock")
                .doesNotContain("hami.io/vgpu-devices-allocated");
    }

    @Test
    void inspectNodesReportsTheFakeCapacityDevicesAndThePodsShare() {
        var r = hami("inspect", "nodes", "--kubeconfig", kubeconfig.toString(), "-o", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode node = JSON.readTree(r.out()).path("nodes").get(0);
        assertThat(node.path("name").asString()).isEqualTo("x1");
        assertThat(node.path("failClosed")).isEmpty();
        JsonNode fake = node.path("vendors").get(0);
        assertThat(fake.path("vendor").asString()).isEqualTo(FakeKeys.VENDOR);
        assertThat(fake.path("devices").valueStream().map(d -> d.path("id").asString()))
                .containsExactly("x1-fake-xpu-0", "x1-fake-xpu-1");
        JsonNode second = fake.path("devices").get(1);
        assertThat(second.path("memoryMiB").asInt()).isEqualTo(16384);
        assertThat(second.path("usedMemoryMiB").asInt()).isEqualTo(4096);
        assertThat(second.path("cores").asInt()).isEqualTo(100);
        assertThat(second.path("usedCores").asInt()).isEqualTo(30);
        assertThat(second.path("used").asInt()).isEqualTo(1);
        assertThat(fake.path("devices").get(0).path("used").asInt()).isZero();
    }

    @Test
    void inspectPodsShowsEachContainersFakeDevices() {
        var r = hami("inspect", "pods", "--kubeconfig", kubeconfig.toString());
        assertThat(r.code()).as(r.err()).isZero();
        // The to-allocate key holds nothing more for main: the device plugin has served it.
        assertThat(r.out().lines())
                .anySatisfy(line -> assertThat(line.split("\\s+"))
                        .containsExactly(
                                "default",
                                "job",
                                "x1",
                                "Running",
                                "-",
                                "main",
                                "FAKE",
                                "x1-fake-xpu-1",
                                "4096",
                                "30",
                                "done"));
    }
}
