package io.hami.cli.plugin;

import io.hami.cli.lifecycle.UntilStopped;
import io.hami.cli.options.DeviceConfigOption;
import io.hami.cli.options.GoDurationConverter;
import io.hami.cli.options.HostPortConverter;
import io.hami.plugin.PluginApp;
import io.hami.plugin.PluginProcess;
import io.hami.plugin.PluginStartException;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.LibraryRetry;
import io.hami.plugin.config.NodeConfigFile;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hami plugin}: the device plugin of one vendor on this node. */
@Command(
        name = "plugin",
        mixinStandardHelpOptions = true,
        description = "Run the device plugin of one vendor on this node (kubelet device-plugin API v1beta1).")
public final class PluginCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(PluginCommand.class);
    /** Next to the scheduler's :9395 and the node monitor's :9394 (upstream's), clashing with neither. */
    static final String DEFAULT_METRICS_BIND = ":9396";

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--backend",
            required = true,
            paramLabel = "VENDOR",
            completionCandidates = Backends.class,
            description = "The vendor, one of the node modules on the class path: ${COMPLETION-CANDIDATES}.")
    String backend;

    /** The {@code --backend} names of the vendors' node modules found on the class path. */
    static final class Backends implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return io.hami.plugin.vendor.VendorPlugins.load().names().iterator();
        }
    }

    @Option(names = "--node-name", paramLabel = "NAME", description = "This node's name. Default: env NODE_NAME.")
    String nodeName;

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "Kubeconfig file. Default: in-cluster, then ~/.kube/config.")
    Path kubeconfig;

    @Option(
            names = "--device-plugin-dir",
            paramLabel = "DIR",
            description = "Directory of kubelet.sock and the plugin sockets. Default: /var/lib/kubelet/device-plugins.")
    Path devicePluginDir = PluginApp.Settings.DEFAULT_DEVICE_PLUGIN_DIR;

    @Option(
            names = "--library",
            paramLabel = "PATH",
            description =
                    "Vendor library file, or a directory holding it under its SONAME. Default: the SONAME, found by the dynamic linker.")
    Path library;

    @Mixin
    DeviceConfigOption deviceConfig;

    @Mixin
    io.hami.cli.logging.LogFormatOption logFormat;

    @Option(
            names = "--device-split-count",
            paramLabel = "N",
            description = "Tasks that may share one device. Default: the device config (NVIDIA 10), HCU 4.")
    Integer splitCount;

    @Option(
            names = "--device-memory-scaling",
            paramLabel = "X",
            description = "Memory advertised per device as a multiple of the real size. Default: 1.")
    Double memoryScaling;

    @Option(
            names = "--device-core-scaling",
            paramLabel = "X",
            description = "Cores advertised per device as a multiple of 100. Default: 1.")
    Double coreScaling;

    @Option(
            names = "--node-config-file",
            paramLabel = "FILE",
            description =
                    "Upstream's per-node config.json ({\"nodeconfig\":[{\"name\":...}]}); the entry for this node overrides the values above. Default: /config/config.json when present.")
    Path nodeConfigFile;

    @Option(
            names = "--host-root",
            paramLabel = "DIR",
            description = "Root of the host's device nodes and HAMi-core folders (for tests). Default: /.")
    Path hostRoot;

    @Option(
            names = "--topology-score",
            description = "NVIDIA: publish the GPUs' pair scores (NVLinks and PCIe distance) on the Node for the"
                    + " topology-aware policy. Env ENABLE_TOPOLOGY_SCORE=true turns it on too. Default: off.")
    boolean topologyScore;

    @Option(
            names = "--metrics-bind-address",
            paramLabel = "ADDRESS",
            defaultValue = DEFAULT_METRICS_BIND,
            description = "Address of the Prometheus /metrics endpoint (host:port or :port); \"\" or 0 turns it off."
                    + " Default: ${DEFAULT-VALUE}.")
    String metricsBindAddress;

    @Option(
            names = "--library-retry",
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = GoDurationConverter.class,
            description = "While the vendor library cannot be used (missing, damaged, its init fails) the plugin stays"
                    + " up, registers no device and tries again: first after this wait, doubling each time."
                    + " Default: ${DEFAULT-VALUE}.")
    Duration libraryRetry;

    @Option(
            names = "--library-retry-max",
            paramLabel = "DURATION",
            defaultValue = "5m",
            converter = GoDurationConverter.class,
            description = "The longest wait between two tries of the vendor library. Default: ${DEFAULT-VALUE}.")
    Duration libraryRetryMax;

    @Option(
            names = "--exit-on-library-error",
            description = "Exit 1 when the vendor library cannot be used at start, leaving the retry to the"
                    + " DaemonSet's restart back-off (CrashLoopBackOff), as before. Default: off (stay up and retry).")
    boolean exitOnLibraryError;

    /** The retry rule of the flags; a bad pair is a usage error. */
    LibraryRetry libraryRetry() {
        try {
            return new LibraryRetry(libraryRetry, libraryRetryMax, LibraryRetry.DEFAULTS.eventRepeat());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "Invalid value for option '--library-retry': " + e.getMessage());
        }
    }

    /** Empty for {@code ""} or {@code 0} (off, as the Go components take it), else the address to bind. */
    static Optional<InetSocketAddress> metricsBind(String value) {
        String v = value.strip();
        if (v.isEmpty() || v.equals("0")) {
            return Optional.empty();
        }
        InetSocketAddress address = new HostPortConverter().convert(v);
        if (address.isUnresolved()) {
            throw new CommandLine.TypeConversionException("unknown host in \"" + value + "\"");
        }
        return Optional.of(address);
    }

    @Override
    public Integer call() throws Exception {
        Optional<InetSocketAddress> metricsBind;
        try {
            metricsBind = metricsBind(metricsBindAddress);
        } catch (CommandLine.TypeConversionException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "Invalid value for option '--metrics-bind-address': " + e.getMessage());
        }
        String node = nodeName != null ? nodeName : System.getenv("NODE_NAME");
        var sharing = new Sharing(
                splitCount == null ? OptionalInt.empty() : OptionalInt.of(splitCount),
                memoryScaling == null ? OptionalDouble.empty() : OptionalDouble.of(memoryScaling),
                coreScaling == null ? OptionalDouble.empty() : OptionalDouble.of(coreScaling));
        Path perNode = nodeConfigFile != null ? nodeConfigFile : Path.of("/config/config.json");
        if (node != null && Files.isReadable(perNode)) {
            sharing = sharing.overriddenBy(NodeConfigFile.read(perNode, node));
        }
        var settings = new PluginApp.Settings(
                backend,
                node,
                kubeconfig,
                devicePluginDir,
                library,
                deviceConfig.load(),
                sharing,
                hostRoot == null ? HostPaths.DEFAULTS : HostPaths.under(hostRoot),
                Timings.DEFAULTS,
                topologyScore);
        LibraryRetry retry = libraryRetry(); // a bad pair is refused with --exit-on-library-error too
        PluginProcess running;
        try {
            running = PluginProcess.start(
                    settings, metricsBind, exitOnLibraryError ? Optional.empty() : Optional.of(retry));
        } catch (PluginStartException e) {
            spec.commandLine().getErr().println("hami plugin: " + e.getMessage());
            return 1;
        }
        LOG.info("hami plugin {} on node {}, device plugin folder {}", backend, node, devicePluginDir);
        UntilStopped.await(running);
        return 0;
    }
}
