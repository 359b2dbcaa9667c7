package io.hami.e2e.mixed;

import io.hami.controlplane.KubeSchedulerConfig;
import io.hami.controlplane.ManagedProcess;
import io.hami.e2e.support.DeployFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Upstream HAMi's scheduler and NVIDIA device plugin, built by {@code scripts/upstream-hami.sh} from the checkout
 * that {@code HAMI_UPSTREAM_SRC} names, run as processes beside ours on the real control plane.
 */
final class UpstreamHami {
    static final String SOURCE_ENV = "HAMI_UPSTREAM_SRC";
    private static final String HOW =
            "set " + SOURCE_ENV + " to a checkout of upstream HAMi (github.com/Project-HAMi/HAMi) to run them;"
                    + " scripts/upstream-hami.sh builds its scheduler and NVIDIA plugin (Go and the module proxy needed)";
    private static final YAMLMapper YAML = YAMLMapper.builder().build();
    static final String DRIVER_LIBS = "usr/lib/x86_64-linux-gnu";
    private static Path bin;

    private UpstreamHami() {}

    /** Runs a class only where {@code HAMI_UPSTREAM_SRC} is set: skipped with one line saying how otherwise. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @ExtendWith(Condition.class)
    @interface Required {}

    static final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String src = System.getenv(SOURCE_ENV);
            if (src == null || src.isBlank()) {
                return ConditionEvaluationResult.disabled("mixed-cluster tests skipped: " + HOW);
            }
            return ConditionEvaluationResult.enabled(SOURCE_ENV + "=" + src);
        }
    }

    /** The folder with {@code scheduler} and {@code nvidia-device-plugin}, built on first use (cached by commit). */
    static synchronized Path binaries() {
        if (bin != null) {
            return bin;
        }
        Path log = DeployFiles.ROOT.resolve("e2e/target/upstream-hami-build.log");
        try {
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder(
                            "bash",
                            DeployFiles.ROOT.resolve("scripts/upstream-hami.sh").toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                    .start();
            // A cold build of both commands: minutes on 2 cores; the script serialises concurrent callers.
            if (!p.waitFor(40, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("scripts/upstream-hami.sh did not finish in 40 minutes; see " + log);
            }
            List<String> lines = Files.readAllLines(log);
            if (p.exitValue() != 0 || lines.isEmpty()) {
                throw new IllegalStateException("scripts/upstream-hami.sh failed (exit " + p.exitValue() + "):\n"
                        + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
            }
            bin = Path.of(lines.getLast().strip());
            return bin;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Upstream's scheduler as its chart runs it (plain HTTP extender, no webhook TLS), reading {@code deviceConfig},
     * talking to the API server as {@code kubeconfig}'s identity. Its default client rate (5 QPS) registers nodes too
     * slowly for a cluster of any size, so it gets the QPS its chart's operators give it.
     */
    static ManagedProcess scheduler(
            String schedulerName, Path kubeconfig, Path deviceConfig, int httpPort, Path logDir, String name) {
        var command = new ArrayList<>(List.of(
                binaries().resolve("scheduler").toString(),
                "--http_bind=127.0.0.1:" + httpPort,
                "--scheduler-name=" + schedulerName,
                "--metrics-bind-address=127.0.0.1:" + freePort(),
                "--device-config-file=" + deviceConfig,
                "--leader-elect=false",
                "--kube-qps=200",
                "--kube-burst=400",
                "--v=4"));
        return ManagedProcess.start(
                "upstream HAMi",
                name,
                command,
                logDir.resolve(name + ".log"),
                Map.of("KUBECONFIG", kubeconfig.toString()));
    }

    /**
     * Upstream's NVIDIA device plugin on node {@code node}, on the NVML C mock copied into {@code driverRoot}'s
     * {@link #DRIVER_LIBS} (where the NVIDIA container runtime puts the driver's library; also on
     * {@code LD_LIBRARY_PATH}), registering on {@code kubeletSocket}. Its own serving socket is fixed by upstream under
     * {@code /var/lib/kubelet/device-plugins}.
     */
    static ManagedProcess nvidiaPlugin(
            String node,
            Path kubeconfig,
            Path deviceConfig,
            Path driverRoot,
            Path hookPath,
            Path kubeletSocket,
            Path logDir) {
        Path mockDir = driverRoot.resolve(DRIVER_LIBS);
        var command = List.of(
                binaries().resolve("nvidia-device-plugin").toString(),
                "--config-file=" + deviceConfig,
                "--kubelet-socket=" + kubeletSocket,
                "--device-split-count=10",
                "--device-discovery-strategy=nvml",
                "--nvidia-driver-root=" + driverRoot,
                "--mig-strategy=none",
                "--fail-on-init-error=true",
                "--v=4");
        return ManagedProcess.start(
                "upstream HAMi",
                "upstream-nvidia-plugin",
                command,
                logDir.resolve("upstream-nvidia-plugin.log"),
                Map.of(
                        "NODE_NAME", node,
                        "KUBECONFIG", kubeconfig.toString(),
                        "LD_LIBRARY_PATH", mockDir.toString(),
                        "HAMI_MOCK_DEVICES", mockDir.resolve("devices.json").toString(),
                        "HOOK_PATH", hookPath.toString()));
    }

    /**
     * deploy/'s kube-scheduler configuration turned into upstream chart's: a profile named {@code schedulerName}
     * whose extender is upstream's scheduler over plain HTTP with filter and bind only (upstream serves no prioritize
     * or preempt verb).
     */
    static KubeSchedulerConfig kubeScheduler(String schedulerName, int httpPort) {
        var doc = (ObjectNode) YAML.readTree(KubeSchedulerConfig.deployedDocument());
        ((ObjectNode) doc.path("profiles").get(0)).put("schedulerName", schedulerName);
        ((ObjectNode) doc.path("leaderElection")).put("resourceName", schedulerName);
        var extender = (ObjectNode) doc.path("extenders").get(0);
        extender.remove(List.of("prioritizeVerb", "preemptVerb", "tlsConfig"));
        extender.put("enableHTTPS", false);
        return KubeSchedulerConfig.extender("http://127.0.0.1:" + httpPort, null)
                .withDocument(YAML.writeValueAsString(doc));
    }

    static int freePort() {
        try (var s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
