package io.hami.e2e.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.CertificateAuthority;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.KubeSchedulerConfig;
import io.hami.controlplane.KubeSchedulerProcess;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.deploy.tools.Helm;
import io.hami.deploy.tools.Program;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.DeployedScheduler;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.e2e.support.ProtocolKeysPolicy;
import io.hami.protocol.testing.Patience;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chart {@code deploy/helm/hami-java} installed by the real helm on the real kube-apiserver, and the scheduler it
 * deploys answering the real kube-scheduler: {@code hami scheduler} runs (as a process, {@code io.hami.cli.Main})
 * with exactly the container arguments and environment of the installed Deployment, as its ServiceAccount, and
 * kube-scheduler with the installed ConfigMap's {@code KubeSchedulerConfiguration}, as the same ServiceAccount (the
 * chart's RBAC is what lets both work). What a kubelet and the cluster network would provide is done by the test,
 * and only that: the mounted volumes are folders holding the Secret's and ConfigMaps' keys (paths under a mount are
 * rewritten to the folder), the listen addresses are loopback ports, {@code POD_NAME} is this host's name (what
 * kube-scheduler's Lease identity starts with, as in a pod), the Secret {@code hami-scheduler-tls} is made by the test
 * in place of the certgen Job (which no controller runs here), and the installed webhook's {@code clientConfig} gets
 * a loopback URL and the CA, as in every e2e class (the Service cannot be resolved here).
 *
 * <p>The release goes to namespace {@code e2e-helm}, not {@code hami-system}: the control plane is shared, other
 * classes leave deploy/'s objects in {@code hami-system} and namespaces are never deleted here (no controller
 * finalises them). Cluster-wide objects of the chart's names that another class left are deleted before the install,
 * and the release is uninstalled afterwards.
 */
@EnableKubeControlPlane
class HelmInstallTest {
    private static final Path CHART = Helm.chart(DeployFiles.ROOT);
    private static final String RELEASE = "hami-java";
    private static final String RELEASE_NS = "e2e-helm";
    private static final String NS = "e2e-helm-apps";
    private static final String NODE = "e2e-helm-gpu";
    private static final String GPU = "GPU-helm-0";

    static KubeControlPlane plane;
    static KubernetesClient admin;

    @TempDir
    static Path dir;

    private static Path helmHome;
    private static Path kubeconfig;
    private static Program.Result installed;
    private static List<ObjectNode> templated;
    private static Process scheduler;
    private static Path schedulerLog;
    private static KubeSchedulerProcess kubeScheduler;

    @BeforeAll
    static void installTheChart() throws IOException {
        assumeTrue(Helm.binary(DeployFiles.ROOT).isPresent(), Helm::unavailableReason);
        helmHome = dir.resolve("helm-home");
        // The admin's kubeconfig, readable by its owner only (helm warns about any other mode).
        kubeconfig = Files.writeString(
                dir.resolve("admin.kubeconfig"),
                Files.readString(plane.adminKubeconfig()),
                java.nio.file.StandardOpenOption.CREATE_NEW);
        Files.setPosixFilePermissions(kubeconfig, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        templated = DeployFiles.parseAll(helm("template", RELEASE, CHART.toString(), "--namespace", RELEASE_NS)
                .ok()
                .stdout());
        // Objects outside the release namespace that other classes applied from deploy/ under the same names.
        for (ObjectNode o : templated) {
            if (!DeployFiles.namespace(o).equals(RELEASE_NS)) {
                HasMetadata object = admin.getKubernetesSerialization().unmarshal(o.toString());
                admin.resource(object).delete();
            }
        }
        installed = helm(
                "install", RELEASE, CHART.toString(), "--namespace", RELEASE_NS, "--create-namespace", "--wait=false");
        plane.ensureNamespace(NS);
    }

    @AfterAll
    static void uninstall() throws Exception {
        if (scheduler != null) {
            scheduler.destroy();
            scheduler.waitFor();
        }
        if (kubeScheduler != null) {
            kubeScheduler.close();
        }
        if (installed == null) {
            return;
        }
        ClusterOps.deletePods(admin, NS);
        ProtocolKeysPolicy.deletePluginPod(admin, RELEASE_NS, NODE);
        ClusterOps.deleteNodes(admin, List.of(NODE));
        helm("uninstall", RELEASE, "--namespace", RELEASE_NS, "--wait").ok();
        admin.secrets().inNamespace(RELEASE_NS).withName("hami-scheduler-tls").delete();
        // Other classes write protocol keys on pods as the admin, which the chart's policy refuses.
        ProtocolKeysPolicy.remove(admin, NS);
    }

    private static Program.Result helm(String... args) {
        return Helm.run(helmHome, kubeconfig, args);
    }

    @Test
    void helmInstallsEveryObjectOfTheChartOnTheRealServer() {
        installed.ok();
        assertThat(installed.stdout()).contains("STATUS: deployed", "is installed in namespace " + RELEASE_NS);
        assertThat(installed.stderr()).as("helm's warnings").isBlank();
        List<ObjectNode> manifest = DeployFiles.parseAll(
                helm("get", "manifest", RELEASE, "--namespace", RELEASE_NS).ok().stdout());
        assertThat(byName(manifest).keySet()).isEqualTo(byName(templated).keySet());
        for (ObjectNode o : manifest) {
            HasMetadata stored = admin.resource(
                            (HasMetadata) admin.getKubernetesSerialization().unmarshal(o.toString()))
                    .get();
            assertThat(stored).as(DeployFiles.describe(o) + " stored").isNotNull();
            assertThat(stored.getMetadata().getLabels())
                    .as(DeployFiles.describe(o))
                    .containsEntry("app.kubernetes.io/managed-by", "Helm")
                    .containsEntry("app.kubernetes.io/part-of", "hami-java");
            assertThat(stored.getMetadata().getAnnotations())
                    .as(DeployFiles.describe(o))
                    .containsEntry("meta.helm.sh/release-name", RELEASE)
                    .containsEntry("meta.helm.sh/release-namespace", RELEASE_NS);
        }
        assertThat(helm("status", RELEASE, "--namespace", RELEASE_NS).ok().stdout())
                .contains("STATUS: deployed");
    }

    private static Map<String, ObjectNode> byName(List<ObjectNode> objects) {
        var out = new TreeMap<String, ObjectNode>();
        objects.forEach(o -> out.put(DeployFiles.describe(o), o));
        return out;
    }

    @Test
    void theInstalledSchedulerAnswersTheRealKubeSchedulerAndBindsAGpuPod() throws Exception {
        installed.ok();
        Deployment deployment = admin.apps()
                .deployments()
                .inNamespace(RELEASE_NS)
                .withName("hami-scheduler")
                .get();
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Config identity = plane.serviceAccountConfig(RELEASE_NS, pod.getServiceAccountName());

        // certgen's Secret (keys ca, cert, key): a certificate for the Service's names, as kube-webhook-certgen makes.
        CertificateAuthority.Issued tls = plane.ca()
                .serving(
                        "hami-scheduler",
                        List.of("hami-scheduler", "hami-scheduler." + RELEASE_NS + ".svc", "127.0.0.1", "localhost"));
        admin.secrets()
                .inNamespace(RELEASE_NS)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(secretName(pod, "tls"))
                        .withNamespace(RELEASE_NS)
                        .endMetadata()
                        .addToStringData("ca", plane.ca().certificatePem())
                        .addToStringData("cert", tls.certificatePem())
                        .addToStringData("key", tls.privateKeyPem())
                        .build())
                .create();
        Map<String, Path> volumes = materialise(pod);

        Container container = container(pod, "scheduler");
        int httpPort = freePort();
        int metricsPort = freePort();
        var args = new ArrayList<String>();
        for (String arg : container.getArgs()) {
            if (arg.startsWith("--http-bind=")) {
                args.add("--http-bind=127.0.0.1:" + httpPort);
            } else if (arg.startsWith("--metrics-bind-address=")) {
                args.add("--metrics-bind-address=127.0.0.1:" + metricsPort);
            } else {
                args.add(remap(arg, container, volumes));
            }
        }
        assertThat(args).as("the installed flags the test rewrote").hasSameSizeAs(container.getArgs());
        Path schedulerKubeconfig = plane.writeKubeconfig(dir.resolve("scheduler.kubeconfig"), identity);
        args.add("--kubeconfig=" + schedulerKubeconfig);
        scheduler = startScheduler(args, environment(container));
        awaitServing("http://127.0.0.1:" + metricsPort + "/metrics");

        // kube-scheduler with the installed configuration: its kubeconfig, our port, the CA file where it is mounted.
        Container ks = container(pod, "kube-scheduler");
        String configuration = admin.configMaps()
                .inNamespace(RELEASE_NS)
                .withName(configMapName(pod, ks, "/etc/kubernetes/hami"))
                .get()
                .getData()
                .get("config.yaml");
        JsonNode extender =
                DeployFiles.YAML.readTree(configuration).path("extenders").get(0);
        assertThat(extender.path("urlPrefix").asString()).isEqualTo("https://127.0.0.1:8443");
        Path caFile = Path.of(remap(extender.path("tlsConfig").path("caFile").asString(), ks, volumes));
        assertThat(caFile).hasContent(plane.ca().certificatePem());
        kubeScheduler = plane.startKubeScheduler(KubeSchedulerConfig.extender("https://127.0.0.1:" + httpPort, caFile)
                .withDocument(configuration)
                .withIdentity(identity)
                .withLeaderElection(true));

        // The installed webhook, called on loopback with our CA (certgen's patch fills in caBundle in a cluster).
        admin.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .withName("hami-scheduler")
                .edit(w -> pointAt(w, "https://127.0.0.1:" + httpPort));

        Node node = Cluster.nvidia(NODE, Cluster.gpu(GPU, 0, 16000, "NVIDIA-A10"));
        // The chart's node policy lets only the node's plugin write its register: the node is created without it,
        // and the register is written as the release's plugin ServiceAccount with a token bound to a pod on the node.
        String register = node.getMetadata().getAnnotations().get(NvidiaKeys.REGISTER);
        NodeLifecycle.createReady(
                admin,
                new NodeBuilder(node)
                        .editMetadata()
                        .removeFromAnnotations(NvidiaKeys.REGISTER)
                        .endMetadata()
                        .editOrNewSpec()
                        .addToTaints(Cluster.e2eTaint("helm"))
                        .endSpec()
                        .build());
        try (KubernetesClient plugin =
                KubeControlPlane.client(ProtocolKeysPolicy.pluginOnNode(plane, admin, RELEASE_NS, NODE))) {
            plugin.nodes()
                    .withName(NODE)
                    .edit(n -> new NodeBuilder(n)
                            .editMetadata()
                            .addToAnnotations(NvidiaKeys.REGISTER, register)
                            .endMetadata()
                            .build());
        }
        admin.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(Cluster.onNode(
                                Cluster.pod(
                                                NS,
                                                "cuda",
                                                Cluster.container(
                                                        "cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000"))
                                        .build(),
                                NODE))
                        .editSpec()
                        .addToTolerations(Cluster.e2eToleration())
                        .endSpec()
                        .build())
                .create();

        await("the pod bound by kube-scheduler through the installed extender (log: " + schedulerLog + ")")
                .atMost(Patience.seconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    assertThat(scheduler.isAlive())
                            .as("hami scheduler exited:\n" + Files.readString(schedulerLog))
                            .isTrue();
                    Pod p = admin.pods().inNamespace(NS).withName("cuda").get();
                    return NODE.equals(p.getSpec().getNodeName());
                });
        Pod bound = admin.pods().inNamespace(NS).withName("cuda").get();
        assertThat(bound.getSpec().getSchedulerName())
                .as("set by the installed webhook")
                .isEqualTo(flag(container, "--scheduler-name"));
        Map<String, String> a = ClusterOps.annotations(bound);
        assertThat(a).containsEntry("hami.io/vgpu-node", NODE).containsEntry("hami.io/bind-phase", "allocating");
        assertThat(a.get("hami.io/vgpu-devices-to-allocate")).contains(GPU);
        await("BindingSucceed and Scheduled events")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    var reasons = admin.v1().events().inNamespace(NS).list().getItems().stream()
                            .filter(e -> "cuda".equals(e.getInvolvedObject().getName()))
                            .map(e -> e.getReason())
                            .toList();
                    return reasons.contains("BindingSucceed") && reasons.contains("Scheduled");
                });
        assertThat(Files.readString(kubeScheduler.log())).doesNotContain("forbidden");
    }

    private static MutatingWebhookConfiguration pointAt(MutatingWebhookConfiguration config, String baseUrl) {
        for (var webhook : config.getWebhooks()) {
            String path = webhook.getClientConfig().getService().getPath();
            webhook.setClientConfig(new WebhookClientConfigBuilder()
                    .withUrl(baseUrl + path)
                    .withCaBundle(Base64.getEncoder()
                            .encodeToString(plane.ca().certificatePem().getBytes(StandardCharsets.UTF_8)))
                    .build());
        }
        return config;
    }

    private static Container container(PodSpec pod, String name) {
        return pod.getContainers().stream()
                .filter(c -> c.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no container " + name));
    }

    private static String flag(Container c, String flag) {
        return c.getArgs().stream()
                .filter(a -> a.startsWith(flag + "="))
                .map(a -> a.substring(flag.length() + 1))
                .findFirst()
                .orElseThrow();
    }

    private static String secretName(PodSpec pod, String volume) {
        return pod.getVolumes().stream()
                .filter(v -> v.getName().equals(volume))
                .findFirst()
                .orElseThrow()
                .getSecret()
                .getSecretName();
    }

    private static String configMapName(PodSpec pod, Container c, String mountPath) {
        String volume = c.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals(mountPath))
                .findFirst()
                .orElseThrow()
                .getName();
        return pod.getVolumes().stream()
                .filter(v -> v.getName().equals(volume))
                .findFirst()
                .orElseThrow()
                .getConfigMap()
                .getName();
    }

    /** Each volume of the pod as a folder holding what the kubelet would mount: the Secret's or ConfigMap's keys. */
    private static Map<String, Path> materialise(PodSpec pod) throws IOException {
        var out = new LinkedHashMap<String, Path>();
        for (Volume v : pod.getVolumes()) {
            Path folder = Files.createDirectories(dir.resolve("volumes").resolve(v.getName()));
            Map<String, String> files = Map.of();
            if (v.getSecret() != null) {
                var secret = admin.secrets()
                        .inNamespace(RELEASE_NS)
                        .withName(v.getSecret().getSecretName())
                        .get();
                var decoded = new TreeMap<String, String>();
                secret.getData()
                        .forEach((k, b64) ->
                                decoded.put(k, new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8)));
                files = decoded;
            } else if (v.getConfigMap() != null) {
                files = admin.configMaps()
                        .inNamespace(RELEASE_NS)
                        .withName(v.getConfigMap().getName())
                        .get()
                        .getData();
            } else if (v.getEmptyDir() == null) {
                throw new AssertionError("volume " + v.getName() + " is neither a Secret, a ConfigMap nor emptyDir");
            }
            for (var f : files.entrySet()) {
                Files.writeString(folder.resolve(f.getKey()), f.getValue());
            }
            out.put(v.getName(), folder);
        }
        return out;
    }

    /** A path under one of the container's mounts, as the same file in the volume's folder; anything else as is. */
    private static String remap(String arg, Container c, Map<String, Path> volumes) {
        for (VolumeMount m : c.getVolumeMounts()) {
            String prefix = m.getMountPath() + "/";
            int at = arg.indexOf(prefix);
            if (at >= 0) {
                return arg.substring(0, at) + volumes.get(m.getName()).resolve(arg.substring(at + prefix.length()));
            }
        }
        return arg;
    }

    /** The container's environment: values as written, the downward API's namespace and pod name resolved. */
    private static Map<String, String> environment(Container c) {
        var env = new LinkedHashMap<String, String>();
        for (EnvVar e : c.getEnv()) {
            if (e.getValueFrom() == null) {
                env.put(e.getName(), e.getValue());
                continue;
            }
            String field = e.getValueFrom().getFieldRef().getFieldPath();
            env.put(
                    e.getName(),
                    switch (field) {
                        case "metadata.namespace" -> RELEASE_NS;
                        // kube-scheduler's Lease identity starts with its host name, which in a pod is the pod's name
                        case "metadata.name" -> DeployedScheduler.POD_NAME;
                        default -> throw new AssertionError("no value here for " + e.getName() + " from " + field);
                    });
        }
        return env;
    }

    /** {@code hami scheduler ARGS} in a JVM of its own, with this test's class path (the distribution's classes). */
    private static Process startScheduler(List<String> args, Map<String, String> env) throws IOException {
        var command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "io.hami.cli.Main",
                "scheduler"));
        command.addAll(args);
        schedulerLog = dir.resolve("hami-scheduler.log");
        var pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(schedulerLog.toFile());
        pb.environment().remove("KUBECONFIG");
        pb.environment().putAll(env);
        return pb.start();
    }

    private static void awaitServing(String url) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        await("hami scheduler serving " + url)
                .atMost(Patience.seconds(90))
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    assertThat(scheduler.isAlive())
                            .as("hami scheduler exited:\n" + Files.readString(schedulerLog))
                            .isTrue();
                    return http.send(
                                            HttpRequest.newBuilder(URI.create(url))
                                                    .timeout(Duration.ofSeconds(2))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString())
                                    .statusCode()
                            == 200;
                });
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
