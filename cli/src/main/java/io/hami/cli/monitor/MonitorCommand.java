package io.hami.cli.monitor;

import io.hami.cli.lifecycle.UntilStopped;
import io.hami.cli.options.GoDurationConverter;
import io.hami.cli.options.HostPortConverter;
import io.hami.cli.version.DistributionVersion;
import io.hami.kube.client.KubeClients;
import io.hami.monitor.MonitorService;
import io.hami.monitor.MonitorSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hami monitor}: the node monitor, the second container of the NVIDIA plugin's DaemonSet. */
@Command(
        name = "monitor",
        mixinStandardHelpOptions = true,
        description = "Run the node monitor: read HAMi-core's per-container shared regions every 5 s, write the"
                + " priority feedback, remove the folders of gone pods and serve per-container and host GPU metrics.")
public final class MonitorCommand implements Callable<Integer> {

    @picocli.CommandLine.Mixin
    io.hami.cli.logging.LogFormatOption logFormat;

    @Option(
            names = "--node-name",
            paramLabel = "NAME",
            defaultValue = "${env:NODE_NAME}",
            description = "This node's name. Default: env NODE_NAME.")
    String nodeName;

    @Option(
            names = "--hook-path",
            paramLabel = "DIR",
            defaultValue = "${env:HOOK_PATH:-/usr/local/vgpu}",
            description = "HAMi-core's host folder; regions lie under containers/<podUID>_<container>/."
                    + " Default: env HOOK_PATH, else /usr/local/vgpu.")
    Path hookPath;

    @Option(
            names = "--resync-interval",
            paramLabel = "DURATION",
            defaultValue = "${env:HAMI_RESYNC_INTERVAL:-5m}",
            converter = GoDurationConverter.class,
            description = "How long the folder of a pod not on this node is kept before it is removed."
                    + " Default: env HAMI_RESYNC_INTERVAL, else 5m.")
    Duration resyncInterval;

    @Option(
            names = "--metrics-bind-address",
            paramLabel = "ADDRESS",
            defaultValue = ":9394",
            converter = HostPortConverter.class,
            description = "Address of the Prometheus endpoint /metrics. Default: ${DEFAULT-VALUE}.")
    InetSocketAddress metricsBind;

    @Option(
            names = "--legacy-metrics",
            description =
                    "Also serve upstream's legacy metric names (HostGPUMemoryUsage, vGPU_device_memory_usage_in_bytes, ...).")
    boolean legacyMetrics;

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "Kubeconfig file. Default: in-cluster, then ~/.kube/config.")
    Path kubeconfig;

    @Option(
            names = "--library",
            paramLabel = "FILE",
            description = "The NVML library file. Default: libnvidia-ml.so.1, found by the dynamic linker.")
    Path library;

    @Override
    public Integer call() throws Exception {
        var settings = new MonitorSettings(
                hookPath,
                nodeName,
                resyncInterval,
                MonitorSettings.DEFAULT_SCAN,
                metricsBind,
                legacyMetrics,
                library,
                DistributionVersion.get());
        try (var client = KubeClients.connect(kubeconfig);
                var service = MonitorService.start(settings, client)) {
            UntilStopped.await(service);
        }
        return 0;
    }
}
