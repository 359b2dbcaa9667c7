package io.hami.deploy;

import static io.hami.deploy.HelmChartTest.args;
import static io.hami.deploy.HelmChartTest.backendResources;
import static io.hami.deploy.HelmChartTest.byName;
import static io.hami.deploy.HelmChartTest.daemonSets;
import static io.hami.deploy.HelmChartTest.deviceConfig;
import static io.hami.deploy.HelmChartTest.helm;
import static io.hami.deploy.HelmChartTest.images;
import static io.hami.deploy.HelmChartTest.managedResources;
import static io.hami.deploy.HelmChartTest.template;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upgrading from upstream HAMi's chart (docs/operators.md, "Migration"): upstream's values files render with ours
 * through the real helm, and what they set reaches our objects. Upstream's own {@code charts/hami/values.yaml} is read
 * from {@code HAMI_UPSTREAM_SRC} when that names upstream's source; the committed fixtures (written for these tests:
 * {@code upstream-hami/value-paths.txt}, the value paths of upstream v2.10's file, and
 * {@code upstream-hami/values-every-key.yaml}, every one of them set) stand in for it otherwise.
 */
class HelmChartUpstreamValuesTest {
    private static final Path FIXTURES = Manifests.MODULE.resolve("src/test/resources/upstream-hami");
    private static final Path EVERY_KEY = FIXTURES.resolve("values-every-key.yaml");
    private static final Path README = HelmChartTest.CHART.resolve("README.md");
    private static final List<String> LABELS = List.of(
            "app.kubernetes.io/name",
            "app.kubernetes.io/instance",
            "app.kubernetes.io/version",
            "app.kubernetes.io/managed-by",
            "app.kubernetes.io/component",
            "helm.sh/chart");
    private static final Set<String> CLUSTER_SCOPED = Set.of(
            "ClusterRole",
            "ClusterRoleBinding",
            "MutatingWebhookConfiguration",
            "ValidatingAdmissionPolicy",
            "ValidatingAdmissionPolicyBinding");

    @BeforeAll
    static void helmIsBuilt() {
        assumeTrue(Helm.binary(Manifests.MODULE.getParent()).isPresent(), Helm::unavailableReason);
    }

    /** Upstream's default values file where HAMI_UPSTREAM_SRC names upstream's source, else the fixture. */
    private static Path upstreamDefaults() {
        return upstreamSource()
                .map(src -> src.resolve("charts/hami/values.yaml"))
                .orElse(EVERY_KEY);
    }

    private static java.util.Optional<Path> upstreamSource() {
        String src = System.getenv("HAMI_UPSTREAM_SRC");
        if (src == null || src.isBlank()) {
            return java.util.Optional.empty();
        }
        Path values = Path.of(src).resolve("charts/hami/values.yaml");
        assertThat(values)
                .as("HAMI_UPSTREAM_SRC is set, so upstream's chart must be there")
                .isRegularFile();
        return java.util.Optional.of(Path.of(src));
    }

    /** Every file these tests render as upstream's: the fixture, and upstream's own where it is available. */
    private static List<Path> upstreamValuesFiles() {
        var out = new ArrayList<>(List.of(EVERY_KEY));
        upstreamSource().ifPresent(src -> out.add(src.resolve("charts/hami/values.yaml")));
        return out;
    }

    /** The leaf value paths of a values file ({@code a.b.c}; an empty map or list is a leaf, as is null). */
    static List<String> valuePaths(JsonNode values) {
        var out = new ArrayList<String>();
        leaves(values, "", out);
        return out;
    }

    private static void leaves(JsonNode node, String path, List<String> out) {
        if (node.isObject() && !node.isEmpty()) {
            for (String k : node.propertyNames()) {
                leaves(node.get(k), path.isEmpty() ? k : path + "." + k, out);
            }
        } else {
            out.add(path);
        }
    }

    private static List<String> committedPaths() {
        return Manifests.read(FIXTURES.resolve("value-paths.txt"))
                .lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .toList();
    }

    private static Map<String, ObjectNode> renderWith(Path values, String... more) {
        var args = new ArrayList<>(List.of("-f", values.toString()));
        args.addAll(List.of(more));
        Program.Result r = template(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(values + ": " + r.stderr()).isZero();
        return byName(Manifests.parseAll(r.stdout()));
    }

    /** The lines of the comment-only manifest templates/upstream-values.yaml. */
    private static List<String> warnings(Path values) {
        Program.Result r = template("-f", values.toString(), "--show-only", "templates/upstream-values.yaml");
        if (r.exitCode() != 0 && r.stderr().contains("could not find template")) {
            return List.of();
        }
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return r.stdout()
                .lines()
                .filter(l -> l.startsWith("# WARNING: "))
                .map(l -> l.substring("# WARNING: ".length()))
                .toList();
    }

    private static String text(JsonNode values, String path) {
        JsonNode n = values;
        for (String k : path.split("\\.")) {
            n = n.path(k);
        }
        assertThat(n.isValueNode()).as(path + " in the values file").isTrue();
        return n.asString();
    }

    private static String configText(Map<String, ObjectNode> rendered) {
        return rendered.get("ConfigMap hami-system/hami-device-config")
                .path("data")
                .path("device-config.yaml")
                .asString();
    }

    @Test
    void upstreamsDefaultValuesRenderAndCarryTheirSettingsIntoTheDeviceConfigAndArguments() throws Exception {
        Path file = upstreamDefaults();
        JsonNode values = Manifests.readTree(file);
        Map<String, ObjectNode> rendered = renderWith(file);

        DeviceConfig config = deviceConfig(rendered);
        var nvidia = config.section(NvidiaConfig.SECTION).resources();
        assertThat(nvidia.resourceCountName()).isEqualTo(text(values, "resourceName"));
        assertThat(nvidia.resourceMemoryName()).isEqualTo(text(values, "resourceMem"));
        assertThat(nvidia.resourceMemoryPercentageName()).isEqualTo(text(values, "resourceMemPercentage"));
        assertThat(nvidia.resourceCoreName()).isEqualTo(text(values, "resourceCores"));
        assertThat(nvidia.resourcePriorityName()).isEqualTo(text(values, "resourcePriority"));
        String configText = configText(rendered);
        assertThat(configText)
                .contains(
                        "resourceCountName: " + text(values, "mluResourceName") + "\n",
                        "resourceMemoryName: " + text(values, "mluResourceMem") + "\n",
                        // upstream's dcu names are the Hygon names (hcuResource* unset)
                        "resourceCountName: " + text(values, "dcuResourceName") + "\n",
                        "resourceMemoryName: " + text(values, "dcuResourceMem") + "\n",
                        "resourceCoreName: " + text(values, "dcuResourceCores") + "\n",
                        "deviceSplitCount: " + text(values, "devicePlugin.deviceSplitCount") + "\n",
                        "overwriteEnv: " + text(values, "scheduler.overwriteEnv") + "\n",
                        "gpuCorePolicy: " + text(values, "devices.nvidia.gpuCorePolicy") + "\n",
                        "enableNumaTopology: " + text(values, "devicePlugin.enableNumaTopology") + "\n");
        // kube-scheduler manages exactly what the backends read from that config
        assertThat(new TreeSet<>(managedResources(rendered))).isEqualTo(backendResources(config));

        List<String> scheduler = args(rendered, "scheduler");
        assertThat(scheduler)
                .contains(
                        "--scheduler-name=" + text(values, "schedulerName"),
                        "--node-scheduler-policy="
                                + text(values, "scheduler.defaultSchedulerPolicy.nodeSchedulerPolicy"),
                        "--gpu-scheduler-policy=" + text(values, "scheduler.defaultSchedulerPolicy.gpuSchedulerPolicy"),
                        "--node-lock-timeout=" + text(values, "scheduler.nodeLockExpire"),
                        "--metrics-bind-address=" + text(values, "scheduler.metricsBindAddress"))
                .noneMatch(a -> a.equals("--debug") || a.matches("--?v=[0-9]+"));
        assertThat(HelmChartTest.kubeSchedulerConfig(rendered)
                        .path("profiles")
                        .get(0)
                        .path("schedulerName")
                        .asString())
                .isEqualTo(text(values, "schedulerName"));
        // upstream's --config points at upstream's file; ours is the chart's
        assertThat(args(rendered, "kube-scheduler"))
                .containsOnlyOnce("--config=/etc/kubernetes/hami/config.yaml")
                .noneMatch(a -> a.startsWith("--config=/config"));
        JsonNode deployment = rendered.get("Deployment hami-system/hami-scheduler");
        assertThat(deployment.path("spec").path("replicas").asString()).isEqualTo(text(values, "scheduler.replicas"));

        // upstream's image blocks name upstream's image: ours run instead, with our tag
        Map<String, String> images = images(rendered);
        assertThat(images.values()).noneMatch(i -> i.contains("projecthami"));
        assertThat(images)
                .containsEntry("Deployment hami-scheduler/scheduler", "hami-java/scheduler:0.1.0")
                .containsEntry(
                        "DaemonSet hami-device-plugin-nvidia/device-plugin", "hami-java/device-plugin-nvidia:0.1.0");
        String kubeScheduler = images.get("Deployment hami-scheduler/kube-scheduler");
        assertThat(kubeScheduler)
                .startsWith(text(values, "scheduler.kubeScheduler.image.registry") + "/"
                        + text(values, "scheduler.kubeScheduler.image.repository") + ":");

        JsonNode service = rendered.get("Service hami-system/hami-scheduler");
        assertThat(service.path("spec").path("type").asString()).isEqualTo(text(values, "scheduler.service.type"));
        if (text(values, "scheduler.service.type").equals("NodePort")) {
            assertThat(service.path("spec")
                            .path("ports")
                            .get(0)
                            .path("nodePort")
                            .asString())
                    .isEqualTo(text(values, "scheduler.service.schedulerPort"));
        }
        // upstream-only vendors are ignored: no DaemonSet but ours
        assertThat(daemonSets(rendered))
                .allMatch(n -> n.matches("hami-device-plugin-(nvidia|cambricon|mthreads|hygon)"));

        // each upstream-only vendor that upstream's values turn on is named in a warning, with the other replacements
        var expected = new ArrayList<String>();
        values.path("devices").propertyNames().forEach(name -> {
            JsonNode block = values.path("devices").path(name);
            boolean always = name.equals("amd") || name.equals("awsneuron");
            if (!Set.of("nvidia", "cambricon", "mthreads", "hygon").contains(name)
                    && (always
                            ? !block.path("enabled").isBoolean()
                                    || block.path("enabled").asBoolean()
                            : block.path("enabled").asBoolean(false))) {
                expected.add("devices." + name + ": hami-java has no " + name + " support");
            }
        });
        assertThat(expected).isNotEmpty();
        expected.add("scheduler.extender.image names upstream's image projecthami/hami");
        expected.add("devicePlugin.image names upstream's image projecthami/hami");
        expected.add("global.imageTag " + text(values, "global.imageTag") + " is upstream HAMi's release");
        List<String> warnings = warnings(file);
        for (String e : expected) {
            assertThat(warnings).as("a warning starting " + e).anyMatch(w -> w.startsWith(e));
        }
        assertEveryObjectIsLabelled(rendered, "hami-java");
    }

    private static void assertEveryObjectIsLabelled(Map<String, ObjectNode> rendered, String release) {
        rendered.forEach((key, o) -> {
            JsonNode labels = o.path("metadata").path("labels");
            for (String l : LABELS) {
                assertThat(labels.path(l).asString()).as(key + " label " + l).isNotBlank();
            }
            assertThat(labels.path("app.kubernetes.io/instance").asString())
                    .as(key)
                    .isEqualTo(release);
        });
    }

    @Test
    void aValuesFileWithEveryUpstreamKeySetRendersValidObjectsWithWhatItSets() throws Exception {
        JsonNode values = Manifests.readTree(EVERY_KEY);
        // the fixture sets every path of upstream's file (a parent set to a map covers its listed leaves)
        List<String> set = valuePaths(values);
        assertThat(committedPaths())
                .as("value paths of upstream's file that values-every-key.yaml does not set")
                .allMatch(p -> set.stream().anyMatch(s -> s.equals(p) || s.startsWith(p + ".")));

        for (Path file : upstreamValuesFiles()) {
            Map<String, ObjectNode> rendered = renderWith(file);
            try (KubernetesClient client = new KubernetesClientBuilder().build()) {
                for (ObjectNode doc : rendered.values()) {
                    if (doc.path("apiVersion").asString().startsWith("monitoring.coreos.com/")) {
                        continue; // the Prometheus Operator's kinds: compared with deploy/kubernetes/monitoring
                    }
                    HasMetadata typed = client.getKubernetesSerialization().unmarshal(doc.toString());
                    assertThat(typed)
                            .as(file + " " + Manifests.describe(doc))
                            .isNotInstanceOf(GenericKubernetesResource.class);
                    assertThat(UnknownFields.in(typed))
                            .as(file + " " + Manifests.describe(doc))
                            .isEmpty();
                }
            }
        }

        Map<String, ObjectNode> rendered = renderWith(EVERY_KEY);
        // upstream's global.labels and global.annotations on every object
        rendered.forEach((key, o) -> {
            assertThat(o.path("metadata").path("labels").path("team").asString())
                    .as(key)
                    .isEqualTo("gpu");
            assertThat(o.path("metadata").path("annotations").path("owner").asString())
                    .as(key)
                    .isEqualTo("platform");
        });
        assertEveryObjectIsLabelled(rendered, "hami-java");
        // prometheus.enabled: the monitors
        assertThat(rendered)
                .containsKeys(
                        "ServiceMonitor hami-system/hami-scheduler", "PodMonitor hami-system/hami-device-plugins");
        // the webhook: policies, and upstream's namespaceSelector added to ours
        JsonNode hook = rendered.get("MutatingWebhookConfiguration hami-scheduler")
                .path("webhooks")
                .get(0);
        assertThat(hook.path("failurePolicy").asString()).isEqualTo("Fail");
        assertThat(hook.path("reinvocationPolicy").asString()).isEqualTo("IfNeeded");
        assertThat(hook.path("namespaceSelector").path("matchLabels").toString())
                .isEqualTo("{\"gpu-tenant\":\"true\"}");
        assertThat(hook.path("namespaceSelector").path("matchExpressions").toString())
                .contains("\"key\":\"hami.io/webhook\"", "\"key\":\"environment\"", "team-x");
        // pull secrets: global's and each image's
        JsonNode schedulerPod = rendered.get("Deployment hami-system/hami-scheduler")
                .path("spec")
                .path("template")
                .path("spec");
        assertThat(schedulerPod.path("imagePullSecrets").toString()).contains("regcred", "mirror-cred");
        JsonNode nvidiaPod = rendered.get("DaemonSet hami-system/hami-device-plugin-nvidia")
                .path("spec")
                .path("template")
                .path("spec");
        assertThat(nvidiaPod.path("imagePullSecrets").toString()).contains("regcred", "plugin-cred");
        assertThat(nvidiaPod.path("runtimeClassName").asString()).isEqualTo("nvidia");
        assertThat(rendered).containsKey("RuntimeClass nvidia");
        // certgen runs upstream's imageNew, as upstream does on every Kubernetes this chart supports
        assertThat(images(rendered))
                .containsEntry("Job hami-certgen/patch", "docker.io/liangjw/kube-webhook-certgen:v1.1.1");
        // per-node configuration and extra environment reach the plugin
        JsonNode plugin =
                Manifests.container(rendered.get("DaemonSet hami-system/hami-device-plugin-nvidia"), "device-plugin");
        assertThat(plugin.path("args").toString())
                .contains("--node-config-file=/etc/hami/node-config/config.json")
                .doesNotContain("-v=4");
        assertThat(plugin.path("env").toString()).contains("{\"name\":\"EXTRA\",\"value\":\"1\"}");
        assertThat(rendered.get("ConfigMap hami-system/hami-device-plugin-node-config")
                        .path("data")
                        .path("config.json")
                        .asString())
                .contains("gpu-node-1");
        assertThat(managedResources(rendered)).contains("example.com/vgpu", "example.com/vmlu", "hygon.com/dcunum");
        // the Service: NodePort with upstream's node ports
        assertThat(rendered.get("Service hami-system/hami-scheduler")
                        .path("spec")
                        .path("ports")
                        .toString())
                .contains("\"nodePort\":31998", "\"nodePort\":31993");
    }

    /** Every upstream value path is in one of the README's three tables (by its path or a parent's). */
    @Test
    void everyUpstreamValuePathIsUpstreamsAndTheReadmeClassifiesIt() {
        List<String> committed = committedPaths();
        upstreamSource()
                .ifPresent(src -> assertThat(committed)
                        .as(
                                "value-paths.txt against HAMI_UPSTREAM_SRC's charts/hami/values.yaml: regenerate it and classify"
                                        + " the new paths in the README")
                        .containsExactlyElementsOf(
                                valuePaths(Manifests.readTree(src.resolve("charts/hami/values.yaml")))));
        Set<String> documented = readmePaths();
        var missing = committed.stream().filter(p -> !documented(p, documented)).toList();
        assertThat(missing).as("upstream value paths the README does not name").isEmpty();
    }

    private static boolean documented(String path, Set<String> documented) {
        for (String p = path; ; p = p.substring(0, p.lastIndexOf('.'))) {
            if (documented.contains(p)) {
                return true;
            }
            if (!p.contains(".")) {
                return false;
            }
        }
    }

    /** The value paths the README writes in backquotes ({@code a.{b,c}} expanded, {@code =value} dropped). */
    private static Set<String> readmePaths() {
        var out = new TreeSet<String>();
        Matcher m = Pattern.compile("`([A-Za-z][A-Za-z0-9.{},-]*)(=[^`]*)?`").matcher(Manifests.read(README));
        while (m.find()) {
            out.addAll(expand(m.group(1)));
        }
        return out;
    }

    static List<String> expand(String s) {
        int open = s.indexOf('{');
        if (open < 0) {
            return List.of(s);
        }
        int close = s.indexOf('}', open);
        var out = new ArrayList<String>();
        for (String alt : s.substring(open + 1, close).split(",")) {
            out.addAll(expand(s.substring(0, open) + alt + s.substring(close + 1)));
        }
        return out;
    }

    @Test
    void braceExpansionOfReadmePaths() {
        assertThat(expand("a.{b,c}.{d,e}")).containsExactly("a.b.d", "a.b.e", "a.c.d", "a.c.e");
    }

    @Test
    void upstreamsDcuNamesAreTheHygonNamesUnlessOursAreSet() {
        assertThat(configText(HelmChartTest.render()))
                .contains("resourceCountName: hygon.com/hcunum\n", "resourceCoreName: hygon.com/hcucores\n");
        assertThat(configText(HelmChartTest.render("--set", "dcuResourceName=hygon.com/dcunum")))
                .contains("resourceCountName: hygon.com/dcunum\n", "resourceMemoryName: hygon.com/hcumem\n");
        // ours wins, and the warning says so
        Path both = write("dcuResourceName: hygon.com/dcunum\nhcuResourceName: example.com/hcu\n");
        assertThat(configText(renderWith(both))).contains("resourceCountName: example.com/hcu\n");
        assertThat(warnings(both))
                .contains("dcuResourceName hygon.com/dcunum is upstream's name for hcuResourceName, which is set too:"
                        + " example.com/hcu wins");
    }

    @Test
    void upstreamsPrometheusEnabledIsMonitoringEnabled() {
        assertThat(HelmChartTest.render("--set", "prometheus.enabled=true"))
                .containsKeys(
                        "ServiceMonitor hami-system/hami-scheduler",
                        "PodMonitor hami-system/hami-device-plugins",
                        "PodMonitor hami-system/hami-node-monitor");
        assertThat(HelmChartTest.render().keySet()).noneMatch(k -> k.startsWith("PodMonitor"));
    }

    @Test
    void twoReleasesHaveNoClusterScopedObjectInCommonAndEachRefersToItsOwn() {
        Map<String, ObjectNode> a = release("team-a", "ns-a");
        Map<String, ObjectNode> b = release("team-b", "ns-b");
        Set<String> clusterA = clusterScoped(a);
        Set<String> clusterB = clusterScoped(b);
        assertThat(clusterA).hasSize(clusterB.size()).isNotEmpty().doesNotContainAnyElementsOf(clusterB);
        assertThat(clusterA)
                .contains(
                        "ClusterRole team-a-hami-java-scheduler",
                        "MutatingWebhookConfiguration team-a-hami-java-scheduler",
                        "ValidatingAdmissionPolicy team-a-hami-java-protocol-keys",
                        "RoleBinding kube-system/team-a-hami-java-kube-scheduler-authentication-reader");
        for (Map<String, ObjectNode> r : List.of(a, b)) {
            assertReferencesResolve(r);
        }
        // fullnameOverride and nameOverride, as `helm create` names them
        assertThat(clusterScoped(byName(Manifests.parseAll(helm(
                                "template",
                                "x",
                                HelmChartTest.CHART.toString(),
                                "-n",
                                "n",
                                "--set",
                                "fullnameOverride=gpu")
                        .ok()
                        .stdout()))))
                .contains("ClusterRole gpu-scheduler", "ValidatingAdmissionPolicyBinding gpu-protocol-keys");
        Map<String, ObjectNode> named = byName(Manifests.parseAll(
                helm("template", "x", HelmChartTest.CHART.toString(), "-n", "n", "--set", "nameOverride=vgpu")
                        .ok()
                        .stdout()));
        assertThat(clusterScoped(named)).contains("ClusterRole x-vgpu-scheduler");
        assertThat(named.get("ConfigMap n/hami-device-config")
                        .path("metadata")
                        .path("labels")
                        .path("app.kubernetes.io/name")
                        .asString())
                .isEqualTo("vgpu");
        assertThat(HelmChartTest.render("--set", "namespaceOverride=gpu-system"))
                .containsKey("Deployment gpu-system/hami-scheduler");
    }

    private static Map<String, ObjectNode> release(String name, String namespace) {
        Map<String, ObjectNode> out = byName(
                Manifests.parseAll(helm("template", name, HelmChartTest.CHART.toString(), "--namespace", namespace)
                        .ok()
                        .stdout()));
        assertEveryObjectIsLabelled(out, name);
        return out;
    }

    private static Set<String> clusterScoped(Map<String, ObjectNode> rendered) {
        return rendered.entrySet().stream()
                .filter(e -> CLUSTER_SCOPED.contains(e.getValue().path("kind").asString())
                        || e.getKey().contains(" kube-system/"))
                .map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Bindings name roles of the same release, certgen patches its release's webhook, the policy binding its policy. */
    private static void assertReferencesResolve(Map<String, ObjectNode> rendered) {
        var names = new LinkedHashSet<String>();
        rendered.values().forEach(o -> names.add(o.path("kind").asString() + " " + Manifests.name(o)));
        for (ObjectNode o : rendered.values()) {
            String kind = o.path("kind").asString();
            if (kind.endsWith("Binding") && o.has("roleRef")) {
                String ref = o.path("roleRef").path("kind").asString() + " "
                        + o.path("roleRef").path("name").asString();
                if (!ref.startsWith("ClusterRole system:")
                        && !ref.equals("Role extension-apiserver-authentication-reader")) {
                    assertThat(names)
                            .as(Manifests.describe(o) + " refers to " + ref)
                            .contains(ref);
                }
            }
            if (kind.equals("ValidatingAdmissionPolicyBinding")) {
                assertThat(names)
                        .contains("ValidatingAdmissionPolicy "
                                + o.path("spec").path("policyName").asString());
            }
        }
        String webhook = rendered.values().stream()
                .filter(o -> o.path("kind").asString().equals("MutatingWebhookConfiguration"))
                .map(Manifests::name)
                .findFirst()
                .orElseThrow();
        JsonNode job = rendered.values().stream()
                .filter(o -> o.path("kind").asString().equals("Job"))
                .findFirst()
                .orElseThrow();
        assertThat(Manifests.container(job, "patch").path("args").toString()).contains("--webhook-name=" + webhook);
        JsonNode certgenRole = rendered.values().stream()
                .filter(o -> o.path("kind").asString().equals("ClusterRole")
                        && Manifests.name(o).endsWith("-certgen"))
                .findFirst()
                .orElseThrow();
        assertThat(certgenRole.path("rules").get(0).path("resourceNames").toString())
                .contains(webhook);
    }

    @Test
    void theSchemaRefusesWrongTypesOfOurValuesAndAcceptsUpstreamKeysWeDoNotRead() {
        Map<List<String>, String> cases = Map.of(
                List.of("--set", "scheduler.replicas=two"), "replicas",
                List.of("--set-string", "devices.nvidia.enabled=yes"), "enabled",
                List.of("--set-string", "devicePlugin.deviceSplitCount=ten"), "deviceSplitCount",
                List.of("--set", "scheduler.service.type=Internal"), "type",
                List.of("--set", "scheduler.extender.javaOptions[0]=-Xmx1g"), "javaOptions");
        var report = new ArrayList<String>();
        cases.forEach((args, key) -> {
            Program.Result r = template(args.toArray(String[]::new));
            if (r.exitCode() == 0
                    || !r.stderr().contains("schema")
                    || !r.stderr().contains(key)) {
                report.add(String.join(" ", args) + ": expected a schema failure naming " + key + ", got exit "
                        + r.exitCode() + ": " + r.stderr().strip());
            }
        });
        assertThat(report).as(String.join("\n", report)).isEmpty();
        assertThat(template("--set", "someUpstreamKey.nested=1,devices.kunlun.customresources[0]=x")
                        .exitCode())
                .isZero();
    }

    @Test
    void upstreamValuesAskingForWhatHamiJavaCannotDoFailNamingTheValue() {
        Map<String, String> cases = Map.of(
                "devices.iluvatar.enabled=true", "devices.iluvatar.enabled=true: hami-java has no iluvatar support",
                "devicePlugin.migStrategy=mixed", "devicePlugin.migStrategy (hami-java has no MIG support)",
                "devicePlugin.gdsEnabled=true", "devicePlugin.gdsEnabled is an upstream HAMi value",
                "scheduler.forceOverwriteDefaultScheduler=false", "scheduler.forceOverwriteDefaultScheduler=false",
                "global.gpuHookPath=/opt", "global.gpuHookPath (HAMi-core's host folder is /usr/local/vgpu)",
                "devicePlugin.image.repository=example.com/hami",
                        "devicePlugin.image.repository (each vendor has its image",
                "scheduler.admissionWebhook.manageNamespaceSelector=false", "manageNamespaceSelector=false");
        var report = new ArrayList<String>();
        cases.forEach((set, message) -> {
            Program.Result r = template("--set", set);
            if (r.exitCode() == 0 || !r.stderr().contains(message)) {
                report.add(set + ": expected a failure naming \"" + message + "\", got exit " + r.exitCode() + ": "
                        + r.stderr().strip());
            }
        });
        assertThat(report).as(String.join("\n", report)).isEmpty();
    }

    @Test
    void ourDefaultsWarnAboutNothing() {
        assertThat(warnings(write("{}\n"))).isEmpty();
    }

    private static Path write(String yaml) {
        try {
            return Files.writeString(Files.createTempFile("values", ".yaml"), yaml);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
