package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Prometheus Operator monitors of {@code deploy/kubernetes/monitoring} against the manifests they scrape: their
 * selectors match the labels the Service and the pod templates really carry, the ports they name exist there, and
 * every metrics port of the manifests is scraped by one of them.
 */
class MonitoringManifestsTest {
    static final Path DIR = Manifests.KUSTOMIZATION_DIR.resolve("monitoring");
    private static final Path KUBECTL = Path.of("/usr/bin/kubectl");
    private static final Manifests APP = Manifests.load();
    private static final JsonNode KUSTOMIZATION = Manifests.readTree(DIR.resolve("kustomization.yaml"));
    private static final List<ObjectNode> MONITORS = monitors();

    private static List<ObjectNode> monitors() {
        var out = new ArrayList<ObjectNode>();
        for (JsonNode file : KUSTOMIZATION.path("resources")) {
            out.addAll(Manifests.parseAll(Manifests.read(DIR.resolve(file.asString()))));
        }
        return out;
    }

    private static List<ObjectNode> monitorsOfKind(String kind) {
        return MONITORS.stream()
                .filter(m -> m.path("kind").asString().equals(kind))
                .toList();
    }

    /** Whether a label selector (matchLabels only: the monitors use no expressions) selects {@code labels}. */
    static boolean selects(JsonNode selector, JsonNode labels) {
        assertThat(selector.path("matchExpressions").isMissingNode())
                .as("selectors use matchLabels only")
                .isTrue();
        JsonNode matchLabels = selector.has("matchLabels") ? selector.path("matchLabels") : selector;
        assertThat(matchLabels.size()).as("a selector selects by something").isPositive();
        for (Map.Entry<String, JsonNode> label : matchLabels.properties()) {
            if (!labels.has(label.getKey())
                    || !labels.path(label.getKey())
                            .asString()
                            .equals(label.getValue().asString())) {
                return false;
            }
        }
        return true;
    }

    private static List<ObjectNode> workloads() {
        var out = new ArrayList<ObjectNode>(APP.ofKind("Deployment"));
        out.addAll(APP.ofKind("DaemonSet"));
        return out;
    }

    private static JsonNode podLabels(JsonNode workload) {
        return workload.path("spec").path("template").path("metadata").path("labels");
    }

    /** The named container ports of a workload's pods. */
    private static Set<String> portNames(JsonNode workload) {
        var out = new TreeSet<String>();
        for (JsonNode c : workload.path("spec").path("template").path("spec").path("containers")) {
            c.path("ports").forEach(p -> out.add(p.path("name").asString()));
        }
        return out;
    }

    private static List<ObjectNode> selectedWorkloads(JsonNode selector) {
        return workloads().stream().filter(w -> selects(selector, podLabels(w))).toList();
    }

    private static List<String> names(List<ObjectNode> objects) {
        return objects.stream().map(Manifests::name).sorted().toList();
    }

    @Test
    void theMonitorsLiveInTheNamespaceOfWhatTheyScrape() {
        // ServiceMonitors and PodMonitors without a namespaceSelector look in their own namespace only.
        String namespace = KUSTOMIZATION.path("namespace").asString();
        assertThat(namespace).isEqualTo(Manifests.namespace(APP.get("Service", "hami-scheduler")));
        for (ObjectNode workload : workloads()) {
            assertThat(Manifests.namespace(workload))
                    .as(Manifests.describe(workload))
                    .isEqualTo(namespace);
        }
        for (ObjectNode monitor : MONITORS) {
            assertThat(monitor.path("apiVersion").asString()).isEqualTo("monitoring.coreos.com/v1");
            assertThat(monitor.path("spec").path("namespaceSelector").isMissingNode())
                    .as(Manifests.describe(monitor))
                    .isTrue();
        }
    }

    @Test
    void theServiceMonitorSelectsTheSchedulerServiceByItsMetricsPort() {
        List<ObjectNode> serviceMonitors = monitorsOfKind("ServiceMonitor");
        assertThat(names(serviceMonitors)).containsExactly("hami-scheduler");
        for (ObjectNode monitor : serviceMonitors) {
            List<ObjectNode> services = APP.ofKind("Service").stream()
                    .filter(s -> selects(
                            monitor.path("spec").path("selector"),
                            s.path("metadata").path("labels")))
                    .toList();
            assertThat(names(services)).as(Manifests.describe(monitor)).containsExactly("hami-scheduler");
            for (ObjectNode service : services) {
                List<ObjectNode> pods = selectedWorkloads(service.path("spec").path("selector"));
                assertThat(names(pods))
                        .as(Manifests.describe(service) + " selects")
                        .containsExactly("hami-scheduler");
                for (JsonNode endpoint : monitor.path("spec").path("endpoints")) {
                    String port = endpoint.path("port").asString();
                    JsonNode servicePort = service.path("spec")
                            .path("ports")
                            .valueStream()
                            .filter(p -> p.path("name").asString().equals(port))
                            .findFirst()
                            .orElseThrow(() -> new AssertionError(Manifests.describe(service) + " has no port " + port
                                    + " that " + Manifests.describe(monitor) + " names"));
                    for (ObjectNode pod : pods) {
                        assertThat(portNames(pod))
                                .as(Manifests.describe(service) + " port " + port + " targets a port of "
                                        + Manifests.describe(pod))
                                .contains(servicePort.path("targetPort").asString());
                    }
                }
            }
        }
    }

    @Test
    void thePodMonitorsSelectEveryPluginAndTheNodeMonitorByTheirPorts() {
        var selected = new TreeMap<String, List<String>>();
        for (ObjectNode monitor : monitorsOfKind("PodMonitor")) {
            List<ObjectNode> pods = selectedWorkloads(monitor.path("spec").path("selector"));
            selected.put(Manifests.name(monitor), names(pods));
            assertThat(monitor.path("spec").path("podMetricsEndpoints")).isNotEmpty();
            for (JsonNode endpoint : monitor.path("spec").path("podMetricsEndpoints")) {
                for (ObjectNode pod : pods) {
                    assertThat(portNames(pod))
                            .as(Manifests.describe(monitor) + " scrapes port of " + Manifests.describe(pod))
                            .contains(endpoint.path("port").asString());
                }
            }
        }
        List<String> plugins = names(APP.ofKind("DaemonSet").stream()
                .filter(d -> Manifests.component(d).equals("device-plugin"))
                .toList());
        assertThat(plugins).hasSize(4);
        assertThat(selected)
                .isEqualTo(Map.of(
                        "hami-device-plugins", plugins, "hami-node-monitor", List.of("hami-device-plugin-nvidia")));
    }

    @Test
    void everyMetricsPortOfTheManifestsIsScraped() {
        for (ObjectNode workload : workloads()) {
            for (String port : portNames(workload)) {
                if (!port.equals("metrics") && !port.endsWith("-metrics")) {
                    continue;
                }
                boolean byPod = monitorsOfKind("PodMonitor").stream()
                        .anyMatch(m -> selects(m.path("spec").path("selector"), podLabels(workload))
                                && m.path("spec")
                                        .path("podMetricsEndpoints")
                                        .valueStream()
                                        .anyMatch(e -> e.path("port").asString().equals(port)));
                boolean byService = monitorsOfKind("ServiceMonitor").stream()
                        .anyMatch(m -> APP.ofKind("Service").stream()
                                .filter(s -> selects(
                                        m.path("spec").path("selector"),
                                        s.path("metadata").path("labels")))
                                .filter(s -> selects(s.path("spec").path("selector"), podLabels(workload)))
                                .anyMatch(s -> s.path("spec")
                                        .path("ports")
                                        .valueStream()
                                        .anyMatch(p ->
                                                p.path("targetPort").asString().equals(port)
                                                        && m.path("spec")
                                                                .path("endpoints")
                                                                .valueStream()
                                                                .anyMatch(e -> e.path("port")
                                                                        .asString()
                                                                        .equals(p.path("name")
                                                                                .asString())))));
                assertThat(byPod || byService)
                        .as(Manifests.describe(workload) + " port " + port + " is scraped by a monitor")
                        .isTrue();
            }
        }
    }

    @Test
    void kustomizeBuildsTheMonitorsAndTheDashboardConfigMapFromTheDashboardFile() throws Exception {
        assumeTrue(Files.isExecutable(KUBECTL), "kubectl is not installed at " + KUBECTL);
        Process process = new ProcessBuilder(KUBECTL.toString(), "kustomize", DIR.toString())
                .redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        List<ObjectNode> built = Manifests.parseAll(output);
        assertThat(built.stream().map(Manifests::describe).sorted().toList())
                .containsExactly(
                        "ConfigMap hami-system/hami-dashboard",
                        "PodMonitor hami-system/hami-device-plugins",
                        "PodMonitor hami-system/hami-node-monitor",
                        "ServiceMonitor hami-system/hami-scheduler");
        JsonNode configMap = built.stream()
                .filter(o -> o.path("kind").asString().equals("ConfigMap"))
                .findFirst()
                .orElseThrow();
        assertThat(configMap
                        .path("metadata")
                        .path("labels")
                        .path("grafana_dashboard")
                        .asString())
                .as("the label Grafana's dashboard sidecar looks for")
                .isEqualTo("1");
        assertThat(configMap.path("data").path("hami-dashboard.json").asString())
                .isEqualTo(Manifests.read(DashboardTest.DASHBOARD));
    }
}
