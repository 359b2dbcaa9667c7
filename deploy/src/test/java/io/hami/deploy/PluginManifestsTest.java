package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.cli.Main;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The device-plugin DaemonSets name the port their plugin serves {@code /metrics} on; the NVIDIA DaemonSet's node
 * monitor sees the host folder the plugin writes, at the path the plugin hands the kubelet.
 */
class PluginManifestsTest {
    private static final String FLAG = "--metrics-bind-address";

    @Test
    void everyPluginContainerDeclaresTheMetricsPortItsPluginBinds() {
        String cliDefault = Main.commandLine()
                .getSubcommands()
                .get("plugin")
                .getCommandSpec()
                .findOption(FLAG)
                .defaultValue();
        List<ObjectNode> plugins = Manifests.load().ofKind("DaemonSet").stream()
                .filter(d -> Manifests.component(d).equals("device-plugin"))
                .toList();
        assertThat(plugins).hasSize(4);
        for (ObjectNode daemonSet : plugins) {
            JsonNode container = Manifests.container(daemonSet, "device-plugin");
            String bind = Manifests.flag(container, FLAG).orElse(cliDefault);
            assertThat(container
                            .path("ports")
                            .valueStream()
                            .filter(p -> p.path("name").asString().equals("metrics"))
                            .map(p -> p.path("containerPort").asInt())
                            .toList())
                    .as(Manifests.describe(daemonSet) + " port metrics")
                    .containsExactly(port(bind));
        }
    }

    private static int port(String bind) {
        return Integer.parseInt(bind.substring(bind.lastIndexOf(':') + 1));
    }

    private static String mountPath(JsonNode container, String volume) {
        return container
                .path("volumeMounts")
                .valueStream()
                .filter(m -> m.path("name").asString().equals(volume))
                .map(m -> m.path("mountPath").asString())
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.path("name").asString() + " does not mount " + volume));
    }

    private static Map<String, JsonNode> env(JsonNode container) {
        var out = new HashMap<String, JsonNode>();
        container.path("env").forEach(e -> out.put(e.path("name").asString(), e));
        return out;
    }

    @Test
    void theNvidiaMonitorReadsThePluginsHostFolderAndDeclaresItsMetricsPort() {
        ObjectNode daemonSet =
                Manifests.load().find("DaemonSet", "hami-device-plugin-nvidia").orElseThrow();
        JsonNode monitor = Manifests.container(daemonSet, "monitor");
        JsonNode plugin = Manifests.container(daemonSet, "device-plugin");
        String cliDefault = Main.commandLine()
                .getSubcommands()
                .get("monitor")
                .getCommandSpec()
                .findOption(FLAG)
                .defaultValue();
        assertThat(monitor.path("ports")
                        .valueStream()
                        .filter(p -> p.path("name").asString().equals("monitor-metrics"))
                        .map(p -> p.path("containerPort").asInt())
                        .toList())
                .containsExactly(port(Manifests.flag(monitor, FLAG).orElse(cliDefault)));

        Map<String, JsonNode> env = env(monitor);
        assertThat(env.get("NODE_NAME")
                        .path("valueFrom")
                        .path("fieldRef")
                        .path("fieldPath")
                        .asString())
                .isEqualTo("spec.nodeName");
        // HAMi-core's folder: the monitor's HOOK_PATH is where it mounts the volume the plugin mounts, and that volume
        // is the same host path (the plugin hands the kubelet host paths computed from what it sees).
        String hookPath = env.get("HOOK_PATH").path("value").asString();
        JsonNode vgpu = daemonSet
                .path("spec")
                .path("template")
                .path("spec")
                .path("volumes")
                .valueStream()
                .filter(v -> v.path("hostPath").path("path").asString().equals(hookPath))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no hostPath volume " + hookPath));
        String volume = vgpu.path("name").asString();
        assertThat(mountPath(monitor, volume)).isEqualTo(hookPath);
        assertThat(mountPath(plugin, volume)).isEqualTo(hookPath);
        assertThat(monitor.path("volumeMounts")
                        .valueStream()
                        .filter(m -> m.path("name").asString().equals(volume)))
                .as("the monitor writes the regions and removes the folders of gone pods")
                .allMatch(m -> !m.path("readOnly").asBoolean());
        assertThat(monitor.path("securityContext")
                        .path("readOnlyRootFilesystem")
                        .asBoolean())
                .isTrue();
    }
}
