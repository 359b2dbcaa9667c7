package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.deploy.tools.Helm;
import io.hami.deploy.tools.Program;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.config.DeviceConfigLoader;
import io.hami.protocol.spi.DeviceBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code deploy/helm/hami-java} through the real helm ({@code scripts/helm.sh}): it lints strictly; with the default
 * values it renders the objects {@code kubectl kustomize deploy/kubernetes} builds (this test is what keeps the two
 * alike); upstream HAMi's values change what they change upstream; mistyped values fail with their message. Skipped
 * only where helm cannot be built (no Go toolchain).
 */
class HelmChartTest {
    private static final Path KUBECTL = Path.of("/usr/bin/kubectl");
    private static final String NAMESPACE_KEY = "Namespace hami-system";
    static final Path CHART = Helm.chart(Manifests.MODULE.getParent());

    @BeforeAll
    static void helmIsBuilt() {
        assumeTrue(Helm.binary(Manifests.MODULE.getParent()).isPresent(), Helm::unavailableReason);
    }

    /** {@code helm ARGS...}, helm's own cache and configuration under target/ (out of the user's home). */
    static Program.Result helm(String... args) {
        return Helm.run(Manifests.MODULE.resolve("target/helm-home"), null, args);
    }

    /** {@code helm template hami-java CHART --namespace hami-system ARGS...}: the release the docs install. */
    static Program.Result template(String... args) {
        var command = new ArrayList<>(List.of("template", "hami-java", CHART.toString(), "--namespace", "hami-system"));
        command.addAll(List.of(args));
        return helm(command.toArray(String[]::new));
    }

    private static Program.Result kustomize(Path dir) {
        return Program.run(
                List.of(KUBECTL.toString(), "kustomize", dir.toString()), Map.of(), null, Duration.ofSeconds(60));
    }

    /** Objects by {@code Kind namespace/name}. */
    static Map<String, ObjectNode> byName(List<ObjectNode> objects) {
        var out = new TreeMap<String, ObjectNode>();
        for (ObjectNode o : objects) {
            assertThat(out.put(Manifests.describe(o), o))
                    .as("twice: " + Manifests.describe(o))
                    .isNull();
        }
        return out;
    }

    static Map<String, ObjectNode> render(String... args) {
        return byName(Manifests.parseAll(template(args).ok().stdout()));
    }

    /** The objects of deploy/kubernetes as kustomize builds them (the files it lists, where kubectl is missing). */
    private static Map<String, ObjectNode> kustomize() {
        if (!Files.isExecutable(KUBECTL)) {
            return byName(Manifests.load().all());
        }
        return byName(
                Manifests.parseAll(kustomize(Manifests.KUSTOMIZATION_DIR).ok().stdout()));
    }

    /** Every difference between two objects as {@code path: expected -> actual}, for a readable failure. */
    static List<String> differences(JsonNode expected, JsonNode actual) {
        var out = new ArrayList<String>();
        diff(expected, actual, "", out);
        return out;
    }

    private static void diff(JsonNode a, JsonNode b, String path, List<String> out) {
        if (a.isObject() && b.isObject()) {
            var keys = new TreeSet<String>();
            a.propertyNames().forEach(keys::add);
            b.propertyNames().forEach(keys::add);
            for (String k : keys) {
                diff(a.path(k), b.path(k), path + "." + k, out);
            }
        } else if (a.isArray() && b.isArray()) {
            for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
                diff(a.path(i), b.path(i), path + "[" + i + "]", out);
            }
        } else if (!a.equals(b)) {
            out.add(path + ": " + (a.isMissingNode() ? "(none)" : a.toString()) + " -> "
                    + (b.isMissingNode() ? "(none)" : b.toString()));
        }
    }

    /** The labels only Helm writes: the kustomize tree has every other label of the chart's objects. */
    static final List<String> HELM_ONLY_LABELS = List.of("app.kubernetes.io/managed-by", "helm.sh/chart");

    /**
     * The chart's objects without {@link #HELM_ONLY_LABELS}, after checking that each has them (and that the kustomize
     * tree's objects have neither): the one difference the comparison allows.
     */
    private static Map<String, ObjectNode> withoutHelmOnlyLabels(
            Map<String, ObjectNode> kustomized, Map<String, ObjectNode> chart) {
        kustomized.forEach(
                (key, o) -> assertThat(o.path("metadata").path("labels").propertyNames())
                        .as("kustomize's " + key)
                        .doesNotContainAnyElementsOf(HELM_ONLY_LABELS));
        var out = new TreeMap<String, ObjectNode>();
        chart.forEach((key, o) -> {
            ObjectNode copy = o.deepCopy();
            ObjectNode labels = (ObjectNode) copy.path("metadata").path("labels");
            assertThat(labels.path("app.kubernetes.io/managed-by").asString())
                    .as(key)
                    .isEqualTo("Helm");
            assertThat(labels.path("helm.sh/chart").asString()).as(key).isEqualTo("hami-java-0.1.0");
            HELM_ONLY_LABELS.forEach(labels::remove);
            out.put(key, copy);
        });
        return out;
    }

    private static void assertSameObjects(Map<String, ObjectNode> expected, Map<String, ObjectNode> chart) {
        Map<String, ObjectNode> actual = withoutHelmOnlyLabels(expected, chart);
        assertThat(actual.keySet()).as("objects (kustomize vs chart)").isEqualTo(expected.keySet());
        var report = new ArrayList<String>();
        expected.forEach((key, object) -> differences(object, actual.get(key)).forEach(d -> report.add(key + " " + d)));
        assertThat(report)
                .as("fields that differ, as path: kustomize -> chart:\n" + String.join("\n", report))
                .isEmpty();
    }

    @Test
    void lintsStrictly() {
        Program.Result lint = helm("lint", "--strict", CHART.toString(), "--namespace", "hami-system")
                .ok();
        assertThat(lint.stdout()).contains("1 chart(s) linted, 0 chart(s) failed");
        assertThat(lint.stdout()).doesNotContain("[WARNING]", "[ERROR]");
    }

    @Test
    void defaultsRenderTheObjectsOfTheKustomizeTreeBesidesTheNamespaceHelmCreates() {
        Map<String, ObjectNode> kustomized = kustomize();
        assertThat(kustomized).containsKey(NAMESPACE_KEY);
        var withoutNamespace = new TreeMap<>(kustomized);
        withoutNamespace.remove(NAMESPACE_KEY);
        assertSameObjects(withoutNamespace, render());
        // the namespace as deploy/kubernetes writes it, for `helm template | kubectl apply` and --take-ownership
        assertSameObjects(kustomized, render("--set", "namespace.create=true"));
    }

    @Test
    void monitoringEnabledAddsTheObjectsOfTheMonitoringKustomization() {
        assumeTrue(Files.isExecutable(KUBECTL), "kubectl is not installed at " + KUBECTL);
        Map<String, ObjectNode> monitoring =
                byName(Manifests.parseAll(kustomize(Manifests.KUSTOMIZATION_DIR.resolve("monitoring"))
                        .ok()
                        .stdout()));
        var expected = new TreeMap<>(kustomize());
        expected.remove(NAMESPACE_KEY);
        expected.putAll(monitoring);
        // the dashboard ConfigMap holds the chart's copy of the dashboard file: equal to deploy/'s, or this fails
        assertSameObjects(expected, render("--set", "monitoring.enabled=true"));
    }

    @Test
    void theChartsDashboardIsTheFileOfTheMonitoringKustomization() {
        // a chart cannot read files outside its folder: files/hami-dashboard.json is a copy, kept equal here
        assertThat(Manifests.read(CHART.resolve("files/hami-dashboard.json")))
                .isEqualTo(Manifests.read(Manifests.KUSTOMIZATION_DIR.resolve("monitoring/hami-dashboard.json")));
    }

    @Test
    void aDiffNamesTheFieldThatDiffers() {
        JsonNode a = Manifests.YAML.readTree("{spec: {replicas: 2, args: [a, b]}}");
        JsonNode b = Manifests.YAML.readTree("{spec: {replicas: 3, args: [a]}}");
        assertThat(differences(a, b)).containsExactly(".spec.args[1]: \"b\" -> (none)", ".spec.replicas: 2 -> 3");
    }

    @Test
    void everyObjectIsAKnownKindWithoutUnknownFieldsWithEveryOptionalValueSet() throws Exception {
        Path values = Files.writeString(Files.createTempFile("values", ".yaml"), """
                global: {imageRegistry: registry.example.com, imagePullSecrets: [pull-a, {name: pull-b}], imageTag: "9.9"}
                namespace: {create: true}
                scheduler:
                  nodeSelector: {role: control}
                  tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]
                  podAnnotations: {a: b}
                  nodeLockRetryTimeout: 5s
                  kubeQPS: 20
                  kubeBurst: 40
                  kubeTimeout: 15
                  kubeScheduler: {image: {pullPolicy: Always}, extraNewArgs: [--v=4]}
                  extender: {image: {pullPolicy: IfNotPresent}, extraArgs: [--container-metrics]}
                  admissionWebhook: {whitelistNamespaces: [team-x]}
                  patch: {priorityClassName: system-cluster-critical, podAnnotations: {c: d}, nodeSelector: {role: control}, tolerations: [{operator: Exists}], image: {pullPolicy: Always}}
                  service: {type: NodePort, labels: {x: y}, annotations: {e: f}}
                devicePlugin:
                  image: {pullPolicy: Always}
                  runtimeClassName: nvidia
                  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
                  podAnnotations: {g: h}
                  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}
                  extraArgs: [--metrics-bind-address=:9396]
                """);
        Map<String, ObjectNode> rendered = render("-f", values.toString());
        try (KubernetesClient client = new KubernetesClientBuilder().build()) {
            for (ObjectNode doc : rendered.values()) {
                HasMetadata typed = client.getKubernetesSerialization().unmarshal(doc.toString());
                assertThat(typed).as(Manifests.describe(doc)).isNotInstanceOf(GenericKubernetesResource.class);
                assertThat(UnknownFields.in(typed))
                        .as("fields Kubernetes does not define in " + Manifests.describe(doc))
                        .isEmpty();
            }
        }
        for (ObjectNode doc : rendered.values()) {
            JsonNode pod = doc.path("spec").path("template").path("spec");
            if (pod.isMissingNode()) {
                continue;
            }
            assertThat(pod.path("imagePullSecrets").toString())
                    .as(Manifests.describe(doc))
                    .isEqualTo("[{\"name\":\"pull-a\"},{\"name\":\"pull-b\"}]");
            for (JsonNode c : containers(pod)) {
                assertThat(c.path("image").asString())
                        .as(Manifests.describe(doc))
                        .startsWith("registry.example.com/");
                assertThat(c.path("imagePullPolicy").isString())
                        .as(Manifests.describe(doc))
                        .isTrue();
            }
        }
        JsonNode nvidia = rendered.get("DaemonSet hami-system/hami-device-plugin-nvidia");
        assertThat(nvidia.path("spec")
                        .path("template")
                        .path("spec")
                        .path("runtimeClassName")
                        .asString())
                .isEqualTo("nvidia");
        assertThat(args(rendered, "scheduler"))
                .contains(
                        "--node-lock-retry-timeout=5s",
                        "--kube-qps=20",
                        "--kube-burst=40",
                        "--kube-timeout=15s",
                        "--container-metrics");
        assertThat(webhookExcludedNamespaces(rendered))
                .containsExactly("kube-system", "kube-public", "kube-node-lease", "hami-system", "team-x");
    }

    static List<JsonNode> containers(JsonNode podSpec) {
        var out = new ArrayList<JsonNode>();
        podSpec.path("initContainers").forEach(out::add);
        podSpec.path("containers").forEach(out::add);
        return out;
    }

    static List<String> args(Map<String, ObjectNode> rendered, String container) {
        JsonNode c = Manifests.container(rendered.get("Deployment hami-system/hami-scheduler"), container);
        var out = new ArrayList<String>();
        c.path("args").forEach(a -> out.add(a.asString()));
        c.path("command").forEach(a -> out.add(a.asString()));
        return out;
    }

    static List<String> webhookExcludedNamespaces(Map<String, ObjectNode> rendered) {
        JsonNode expressions = rendered.get("MutatingWebhookConfiguration hami-scheduler")
                .path("webhooks")
                .get(0)
                .path("namespaceSelector")
                .path("matchExpressions");
        for (JsonNode e : expressions) {
            if (e.path("key").asString().equals("kubernetes.io/metadata.name")) {
                var out = new ArrayList<String>();
                e.path("values").forEach(v -> out.add(v.asString()));
                return out;
            }
        }
        throw new AssertionError("no kubernetes.io/metadata.name expression");
    }

    static JsonNode kubeSchedulerConfig(Map<String, ObjectNode> rendered) {
        return Manifests.YAML.readTree(rendered.get("ConfigMap hami-system/hami-kube-scheduler-config")
                .path("data")
                .path("config.yaml")
                .asString());
    }

    static Set<String> managedResources(Map<String, ObjectNode> rendered) {
        var out = new LinkedHashSet<String>();
        for (JsonNode r : kubeSchedulerConfig(rendered).path("extenders").get(0).path("managedResources")) {
            assertThat(r.path("ignoredByScheduler").asBoolean())
                    .as(r.toString())
                    .isTrue();
            out.add(r.path("name").asString());
        }
        return out;
    }

    static DeviceConfig deviceConfig(Map<String, ObjectNode> rendered) throws Exception {
        var loaded = DeviceConfigLoader.parse(
                rendered.get("ConfigMap hami-system/hami-device-config")
                        .path("data")
                        .path("device-config.yaml")
                        .asString(),
                "hami-device-config",
                DeviceBackends.configSections());
        assertThat(loaded.warnings()).isEmpty();
        return loaded.config();
    }

    /** The resource names the vendor backends read from this device config, as SchedulerManifestsTest collects. */
    static Set<String> backendResources(DeviceConfig config) {
        var out = new TreeSet<String>();
        DeviceBackends.load(config).all().forEach(b -> out.addAll(b.resources().all()));
        out.add(config.section(NvidiaConfig.SECTION).resources().resourcePriorityName());
        return out;
    }

    static Set<String> daemonSets(Map<String, ObjectNode> rendered) {
        return rendered.values().stream()
                .filter(o -> o.path("kind").asString().equals("DaemonSet"))
                .map(Manifests::name)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void aDisabledVendorHasNoDaemonSetAndNoManagedResources() {
        Map<String, ObjectNode> defaults = render();
        assertThat(daemonSets(defaults))
                .containsExactly(
                        "hami-device-plugin-cambricon",
                        "hami-device-plugin-hygon",
                        "hami-device-plugin-mthreads",
                        "hami-device-plugin-nvidia");
        Map<String, ObjectNode> noNvidia = render("--set", "devices.nvidia.enabled=false");
        assertThat(daemonSets(noNvidia))
                .containsExactly(
                        "hami-device-plugin-cambricon", "hami-device-plugin-hygon", "hami-device-plugin-mthreads");
        assertThat(managedResources(noNvidia))
                .isNotEmpty()
                .noneMatch(r -> r.startsWith("nvidia.com/"))
                .containsAll(managedResources(defaults).stream()
                        .filter(r -> !r.startsWith("nvidia.com/"))
                        .toList());
        // upstream's devicePlugin.enabled=false: the scheduler alone
        assertThat(daemonSets(render("--set", "devicePlugin.enabled=false"))).isEmpty();
    }

    @Test
    void upstreamResourceNamesReachTheDeviceConfigAndKubeSchedulersManagedResources() throws Exception {
        Map<String, ObjectNode> rendered = render(
                "--set",
                "resourceName=example.com/vgpu,resourceMem=example.com/vgpu-memory,resourceCores=example.com/vgpu-cores,"
                        + "mluResourceName=example.com/vmlu,hcuResourceMem=example.com/hcu-memory,"
                        + "mthreadsResourceName=example.com/mtgpu,devicePlugin.deviceSplitCount=4,"
                        + "devicePlugin.deviceMemoryScaling=1.5,scheduler.overwriteEnv=true,"
                        + "devices.nvidia.gpuCorePolicy=force");
        DeviceConfig config = deviceConfig(rendered);
        var nvidia = config.section(NvidiaConfig.SECTION);
        assertThat(nvidia.resources().resourceCountName()).isEqualTo("example.com/vgpu");
        assertThat(nvidia.resources().resourceMemoryName()).isEqualTo("example.com/vgpu-memory");
        assertThat(nvidia.resources().resourceCoreName()).isEqualTo("example.com/vgpu-cores");
        String text = rendered.get("ConfigMap hami-system/hami-device-config")
                .path("data")
                .path("device-config.yaml")
                .asString();
        assertThat(text)
                .contains(
                        "deviceSplitCount: 4\n",
                        "deviceMemoryScaling: 1.5\n",
                        "overwriteEnv: true\n",
                        "gpuCorePolicy: force\n",
                        "resourceCountName: example.com/vmlu\n",
                        "resourceMemoryName: example.com/hcu-memory\n",
                        "resourceCountName: example.com/mtgpu\n");
        Set<String> managed = managedResources(rendered);
        assertThat(managed)
                .contains(
                        "example.com/vgpu",
                        "example.com/vgpu-memory",
                        "example.com/vgpu-cores",
                        "example.com/vmlu",
                        "example.com/hcu-memory",
                        "example.com/mtgpu")
                .doesNotContain("nvidia.com/gpu", "cambricon.com/vmlu", "hygon.com/hcumem", "mthreads.com/vgpu");
        // exactly what the code's backends read from that config, as SchedulerManifestsTest requires of deploy/
        assertThat(new TreeSet<>(managed)).isEqualTo(backendResources(config));
    }

    @Test
    void upstreamDeviceConfigContentIsTheDeviceConfigAndItsNamesAreManaged() throws Exception {
        Map<String, ObjectNode> rendered = render(
                "--set-string",
                "device-config.content=nvidia:\n  resourceCountName: example.com/gpu\n  deviceSplitCount: 3\n");
        DeviceConfig config = deviceConfig(rendered);
        assertThat(config.section(NvidiaConfig.SECTION).resources().resourceCountName())
                .isEqualTo("example.com/gpu");
        assertThat(new TreeSet<>(managedResources(rendered))).isEqualTo(backendResources(config));
        assertThat(managedResources(rendered)).contains("example.com/gpu", "cambricon.com/vmlu");

        Program.Result invalid = template("--set-string", "device-config.content=nvidia: [unclosed");
        assertThat(invalid.exitCode()).isNotZero();
        assertThat(invalid.stderr()).contains("device-config.content is not valid YAML");
    }

    @Test
    void imageTagsAndRegistriesReachThePods() {
        Map<String, ObjectNode> rendered = render(
                "--set",
                "global.imageTag=1.2.3,scheduler.extender.image.tag=2.0.0,scheduler.kubeScheduler.imageTag=v1.31.4,"
                        + "devicePlugin.image.registry=registry.example.com,scheduler.patch.image.tag=v1.6.0");
        assertThat(images(rendered))
                .containsEntry("Deployment hami-scheduler/scheduler", "hami-java/scheduler:2.0.0")
                .containsEntry("Deployment hami-scheduler/kube-scheduler", "registry.k8s.io/kube-scheduler:v1.31.4")
                .containsEntry(
                        "DaemonSet hami-device-plugin-nvidia/device-plugin",
                        "registry.example.com/hami-java/device-plugin-nvidia:1.2.3")
                .containsEntry(
                        "DaemonSet hami-device-plugin-nvidia/monitor",
                        "registry.example.com/hami-java/device-plugin-nvidia:1.2.3")
                .containsEntry(
                        "DaemonSet hami-device-plugin-nvidia/install-hami-core",
                        "registry.example.com/hami-java/device-plugin-nvidia:1.2.3")
                .containsEntry(
                        "DaemonSet hami-device-plugin-hygon/device-plugin",
                        "registry.example.com/hami-java/device-plugin-hygon:1.2.3")
                .containsEntry("Job hami-certgen/patch", "registry.k8s.io/ingress-nginx/kube-webhook-certgen:v1.6.0");
        // image.tag before imageTag, as upstream
        assertThat(images(render("--set", "scheduler.kubeScheduler.image.tag=v1.30.9")))
                .containsEntry("Deployment hami-scheduler/kube-scheduler", "registry.k8s.io/kube-scheduler:v1.30.9");
        // no tag: the cluster's version, its distribution suffix cut, as upstream's chart does
        assertThat(images(render("--set", "scheduler.kubeScheduler.imageTag=", "--kube-version", "v1.33.2+k3s1")))
                .containsEntry("Deployment hami-scheduler/kube-scheduler", "registry.k8s.io/kube-scheduler:v1.33.2");
        // global.imageRegistry goes in front of every image
        assertThat(images(render("--set", "global.imageRegistry=mirror.example.com"))
                        .values())
                .allMatch(i -> i.startsWith("mirror.example.com/"));
    }

    /** {@code Kind name/container} to image, init containers included. */
    static Map<String, String> images(Map<String, ObjectNode> rendered) {
        var out = new TreeMap<String, String>();
        for (ObjectNode o : rendered.values()) {
            JsonNode pod = o.path("spec").path("template").path("spec");
            for (JsonNode c : containers(pod)) {
                out.put(
                        o.path("kind").asString() + " " + Manifests.name(o) + "/"
                                + c.path("name").asString(),
                        c.path("image").asString());
            }
        }
        return out;
    }

    @Test
    void nodeSelectorsPoliciesAndSchedulerNameReachTheirObjects() {
        Map<String, ObjectNode> rendered = render(
                "--set",
                "devicePlugin.nvidiaNodeSelector.nvidia\\.com/gpu\\.present=true,devicePlugin.nvidiaNodeSelector.gpu=null,"
                        + "devicePlugin.mlunodeSelector.mlu=on,scheduler.defaultSchedulerPolicy.nodeSchedulerPolicy=spread,"
                        + "scheduler.defaultSchedulerPolicy.gpuSchedulerPolicy=binpack,schedulerName=gpu-scheduler,"
                        + "scheduler.nodeLockExpire=2m,scheduler.replicas=3,scheduler.metricsBindAddress=:9500");
        assertThat(rendered.get("DaemonSet hami-system/hami-device-plugin-nvidia")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .path("nodeSelector")
                        .toString())
                .isEqualTo("{\"nvidia.com/gpu.present\":\"true\"}");
        assertThat(rendered.get("DaemonSet hami-system/hami-device-plugin-cambricon")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .path("nodeSelector")
                        .toString())
                .isEqualTo("{\"hami.io/cambricon\":\"on\",\"mlu\":\"on\"}");
        assertThat(args(rendered, "scheduler"))
                .contains(
                        "--node-scheduler-policy=spread",
                        "--gpu-scheduler-policy=binpack",
                        "--scheduler-name=gpu-scheduler",
                        "--node-lock-timeout=2m",
                        "--metrics-bind-address=:9500");
        JsonNode deployment = rendered.get("Deployment hami-system/hami-scheduler");
        assertThat(deployment.path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(Manifests.container(deployment, "scheduler").path("ports").toString())
                .contains("{\"name\":\"metrics\",\"containerPort\":9500}");
        assertThat(kubeSchedulerConfig(rendered)
                        .path("profiles")
                        .get(0)
                        .path("schedulerName")
                        .asString())
                .isEqualTo("gpu-scheduler");
    }

    @Test
    void mistypedOrUnsupportedValuesFailWithTheirMessage() {
        Map<List<String>, String> cases = Map.of(
                List.of("--set", "devices.mlu.enabled=true"),
                "devices.mlu: unknown vendor; this chart names it devices.cambricon",
                List.of("--set", "devices.dcu.enabled=false"),
                "devices.dcu: unknown vendor; this chart names it devices.hygon",
                List.of("--set", "devices.ascend.enabled=true"),
                "devices.ascend.enabled=true: hami-java has no ascend support",
                List.of("--set", "devices.nvidea.enabled=true"),
                "devices.nvidea: unknown vendor (vendors: nvidia, cambricon, mthreads, hygon)",
                List.of("--set", "scheduler.defaultSchedulerPolicy.nodeSchedulerPolicy=fast"),
                "scheduler.defaultSchedulerPolicy.nodeSchedulerPolicy \"fast\": expected binpack or spread",
                List.of("--set", "scheduler.defaultSchedulerPolicy.gpuSchedulerPolicy=spread\\,fast"),
                "gpuSchedulerPolicy \"spread,fast\": expected binpack, spread, mutex, numa or a comma list",
                List.of("--set", "scheduler.kubeTimeout=0"),
                "scheduler.kubeTimeout must be a positive number of seconds",
                List.of("--set", "scheduler.kubeScheduler.enabled=false"),
                "scheduler.kubeScheduler.enabled=false (kube-scheduler always runs in the scheduler pod",
                List.of(
                        "--set",
                        "devices.nvidia.enabled=false,devices.cambricon.enabled=false,"
                                + "devices.mthreads.enabled=false,devices.hygon.enabled=false"),
                "devices: every vendor is disabled",
                List.of("--set", "scheduler.metricsBindAddress=localhost"),
                "scheduler.metricsBindAddress \"localhost\": expected HOST:PORT or :PORT");
        var report = new ArrayList<String>();
        cases.forEach((args, message) -> {
            Program.Result r = template(args.toArray(String[]::new));
            if (r.exitCode() == 0 || !r.stderr().contains(message)) {
                report.add(String.join(" ", args) + ": expected a failure naming \"" + message + "\", got exit "
                        + r.exitCode() + ": " + r.stderr().strip());
            }
        });
        assertThat(report).as(String.join("\n", report)).isEmpty();
        // an upstream vendor switched off is fine: upstream values files can be reused
        assertThat(template("--set", "devices.kunlun.enabled=false").exitCode()).isZero();
    }

    /** Keeps the comparison honest: it sees a difference in a nested field of one object. */
    @Test
    void theComparisonSeesAChangedField() {
        Map<String, ObjectNode> kustomized = kustomize();
        kustomized.remove(NAMESPACE_KEY);
        Map<String, ObjectNode> changed =
                withoutHelmOnlyLabels(kustomized, render("--set", "scheduler.service.httpPort=8443"));
        var report = new ArrayList<String>();
        kustomized.forEach(
                (key, object) -> differences(object, changed.get(key)).forEach(d -> report.add(key + " " + d)));
        assertThat(report)
                .containsExactlyInAnyOrder(
                        "MutatingWebhookConfiguration hami-scheduler .webhooks[0].clientConfig.service.port: 443 -> 8443",
                        "Service hami-system/hami-scheduler .spec.ports[0].port: 443 -> 8443");
    }
}
