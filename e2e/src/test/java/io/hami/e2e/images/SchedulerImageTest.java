package io.hami.e2e.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.KubeSchedulerConfig;
import io.hami.controlplane.KubeSchedulerProcess;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.deploy.image.ImageRun;
import io.hami.deploy.image.OciImage;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.DeployedScheduler;
import io.hami.e2e.support.ExtenderClient;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.extender.FilterResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The scheduler image deploy's build writes ({@code deploy/target/images/scheduler.tar}), unpacked and run from its
 * own read-only root filesystem ({@code ImageRun}: chroot in a mount namespace) as its user 65532, with the
 * Deployment's arguments and environment and its volumes at their mount paths (the TLS Secret, the device config,
 * an empty {@code /tmp}), against the real kube-apiserver with the ServiceAccount's token and roles; only the listen
 * addresses (loopback, free ports) and how the token arrives (a kubeconfig, not the in-cluster mount) differ. With the real kube-scheduler holding the Lease
 * the Deployment follows, it answers {@code /readyz} and a {@code /filter} call over TLS.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 4, unit = TimeUnit.MINUTES)
class SchedulerImageTest {
    private static final String NODE = "img-node-1";

    static KubeControlPlane plane;

    @TempDir
    Path dir;

    @Test
    void theSchedulerImageRunsAsNonRootAndAnswersTheExtenderOnTheRealControlPlane() throws Exception {
        Path archive = OciImage.archive(DeployFiles.ROOT, "scheduler");
        assumeTrue(Files.exists(archive), "built by deploy's build (process-test-classes); -Dimages.skip skips it");
        OciImage image = OciImage.unpack(archive, dir.resolve("image"));
        assertThat(image.user()).isEqualTo("65532:65532");

        JsonNode deployment =
                DeployFiles.find(DeployFiles.load("scheduler/deployment.yaml"), "Deployment", "hami-scheduler");
        JsonNode container = DeployedScheduler.container();
        String namespace = DeployFiles.namespace(deployment);
        KubernetesClient admin = plane.newClient();
        // The Deployment's ServiceAccount and roles, as RbacEnforcedTest applies them: the scheduler runs with its
        // token.
        for (String file : List.of("namespace.yaml", "scheduler/rbac.yaml")) {
            DeployFiles.apply(admin, file, "hami-e2e-rbac");
        }
        plane.ensureNamespace(namespace);
        String serviceAccount = deployment
                .path("spec")
                .path("template")
                .path("spec")
                .path("serviceAccountName")
                .asString();

        // The Deployment's volumes at their mount paths, readable by the image's user.
        Path tls = Files.createDirectories(dir.resolve("tls"));
        var issued = plane.ca().serving("hami-scheduler", List.of("hami-scheduler", "127.0.0.1", "localhost"));
        Files.writeString(tls.resolve("cert"), issued.certificatePem());
        Files.writeString(tls.resolve("key"), issued.privateKeyPem());
        Path config = Files.createDirectories(dir.resolve("config"));
        Files.writeString(config.resolve("device-config.yaml"), DeployFiles.deviceConfigYaml());
        Path kube = Files.createDirectories(dir.resolve("kube"));
        plane.writeKubeconfig(kube.resolve("kubeconfig"), plane.serviceAccountConfig(namespace, serviceAccount));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        for (Path d : List.of(tls, config, kube)) {
            readableByAll(d);
        }
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        // What the kubelet writes into every pod: /etc/hosts with the pod's host name (the scheduler resolves it).
        Path hosts = Files.writeString(
                dir.resolve("hosts"), "127.0.0.1\tlocalhost\n127.0.0.1\t" + DeployedScheduler.POD_NAME + "\n");
        Files.setPosixFilePermissions(hosts, PosixFilePermissions.fromString("rw-r--r--"));
        var binds = new LinkedHashMap<Path, String>();
        binds.put(hosts, "/etc/hosts");
        binds.put(tls, "/etc/hami/tls");
        binds.put(config, "/etc/hami/config");
        binds.put(kube, "/var/run/hami");
        binds.put(tmp, "/tmp");

        int http = freePort();
        int metrics = freePort();
        var command = new ArrayList<>(image.entrypoint());
        for (JsonNode a : container.path("args")) {
            String arg = a.asString();
            if (arg.startsWith("--http-bind=")) {
                command.add("--http-bind=127.0.0.1:" + http);
            } else if (arg.startsWith("--metrics-bind-address=")) {
                command.add("--metrics-bind-address=127.0.0.1:" + metrics);
            } else {
                command.add(arg);
            }
        }
        command.add("--kubeconfig=/var/run/hami/kubeconfig");
        var env = new LinkedHashMap<String, String>();
        for (JsonNode e : container.path("env")) {
            if (e.has("value")) {
                env.put(e.path("name").asString(), e.path("value").asString());
            }
        }
        env.put("POD_NAMESPACE", namespace); // the downward API's
        env.put("POD_NAME", DeployedScheduler.POD_NAME);

        Path log = dir.resolve("scheduler.log");
        Process scheduler = new ProcessBuilder(ImageRun.command(image, image.user(), true, binds, env, command))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        String url = "https://127.0.0.1:" + http;
        Path caFile = Files.writeString(dir.resolve("ca.crt"), plane.ca().certificatePem());
        try (KubeSchedulerProcess kubeScheduler = plane.startKubeScheduler(KubeSchedulerConfig.extender(url, caFile)
                        .withIdentity(plane.adminConfig())
                        .withLeaderElection(true));
                HttpClient https = HttpClient.newBuilder()
                        .sslContext(trusting(plane.ca().certificatePem()))
                        .build()) {
            assertThat(kubeScheduler).isNotNull();
            await().atMost(Patience.seconds(150))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        if (!scheduler.isAlive()) {
                            Files.copy(
                                    log,
                                    Path.of("/tmp/h6-sched.log"),
                                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                            throw new AssertionError("the scheduler exited: " + Files.readString(log));
                        }
                        return status(https, url + "/readyz") == 200;
                    });
            // The JVM itself (the exec chain keeps the process) runs as the image's user.
            assertThat(Files.readString(Path.of("/proc", Long.toString(scheduler.pid()), "status")))
                    .containsPattern("(?m)^Uid:\\s+65532\\s")
                    .containsPattern("(?m)^Gid:\\s+65532\\s");

            NodeLifecycle.createReady(admin, Cluster.nvidia(NODE, Cluster.gpu("GPU-img-0", 0, 16000, "NVIDIA-A10")));
            Pod pod = Cluster.pod(namespace, "img-pod", Cluster.container("c", "nvidia.com/gpu", "1"))
                    .build();
            var extender = new ExtenderClient(url, plane.ca().certificatePem());
            await().atMost(Patience.seconds(30))
                    .pollInterval(Duration.ofMillis(300))
                    .untilAsserted(() -> {
                        FilterResult result = extender.filter(pod, List.of(NODE));
                        assertThat(result.nodeNames())
                                .as(String.valueOf(result))
                                .containsExactly(NODE);
                    });
        } finally {
            scheduler.destroy();
            if (!scheduler.waitFor(30, TimeUnit.SECONDS)) {
                scheduler.destroyForcibly().waitFor();
            }
            admin.nodes().withName(NODE).delete();
            admin.close();
        }
        assertThat(Files.readString(log)).doesNotContain("Exception in thread \"main\"");
    }

    private static void readableByAll(Path d) throws IOException {
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (var files = Files.list(d)) {
            for (Path f : files.toList()) {
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
            }
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static int status(HttpClient client, String url) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static SSLContext trusting(String caPem) throws Exception {
        var ca = CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.UTF_8)));
        var store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        store.setCertificateEntry("ca", ca);
        var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        var context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
