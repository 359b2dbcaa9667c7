package io.hami.cli.inspect;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.cli.options.DeviceConfigOption;
import io.hami.kube.client.KubeClients;
import io.hami.protocol.spi.DeviceBackends;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** {@code hami inspect nodes|pods}: what the scheduler sees in any cluster, read with one LIST of nodes and of pods. */
@Command(
        name = "inspect",
        mixinStandardHelpOptions = true,
        description = "Show devices per node (capacity, allocation, health, handshake, lock) or allocations per pod.",
        subcommands = {InspectCommand.Nodes.class, InspectCommand.Pods.class})
public final class InspectCommand {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Clock clock;

    public InspectCommand() {
        this(Clock.systemUTC());
    }

    /** With the clock that ages (lock held for, handshake asked ago) are measured against. */
    InspectCommand(Clock clock) {
        this.clock = clock;
    }

    /** The options both views share. */
    static final class Options {
        @Option(
                names = "--kubeconfig",
                paramLabel = "FILE",
                description = "Kubeconfig file. Default: in-cluster, then ~/.kube/config.")
        Path kubeconfig;

        @Option(
                names = {"-o", "--output"},
                paramLabel = "FORMAT",
                defaultValue = "table",
                description = "table or json. Default: ${DEFAULT-VALUE}.")
        Format output;

        @Mixin
        DeviceConfigOption deviceConfig;
    }

    enum Format {
        table,
        json
    }

    @Command(
            name = "nodes",
            mixinStandardHelpOptions = true,
            description = "One row per node and device: capacity, allocated memory and cores, sharing count, health, "
                    + "handshake state and node lock holder.")
    static final class Nodes implements Callable<Integer> {
        @ParentCommand
        InspectCommand parent;

        @Mixin
        Options options;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            var backends = DeviceBackends.load(options.deviceConfig.load());
            Cluster cluster = read(spec, options);
            if (cluster == null) {
                return 1;
            }
            var report = NodeReport.of(cluster, backends, parent.clock.instant());
            print(spec, options.output, report.table(), report.json());
            return 0;
        }
    }

    @Command(
            name = "pods",
            mixinStandardHelpOptions = true,
            description = "Pods that ask for managed devices or hold some: the devices of each container, whether the "
                    + "device plugin has served them, and the bind phase.")
    static final class Pods implements Callable<Integer> {
        @Mixin
        Options options;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            var backends = DeviceBackends.load(options.deviceConfig.load());
            Cluster cluster = read(spec, options);
            if (cluster == null) {
                return 1;
            }
            var report = PodReport.of(cluster, backends);
            print(spec, options.output, report.table(), report.json());
            return 0;
        }
    }

    /** The cluster's nodes and pods, or null after telling why they cannot be read. */
    private static Cluster read(CommandSpec spec, Options options) {
        try (var client = KubeClients.connect(options.kubeconfig)) {
            try {
                return Cluster.read(client);
            } catch (KubernetesClientException e) {
                spec.commandLine()
                        .getErr()
                        .println("hami inspect: cannot list nodes and pods at "
                                + client.getConfiguration().getMasterUrl() + ": " + reason(e));
                return null;
            }
        } catch (IOException e) {
            spec.commandLine().getErr().println("hami inspect: " + e.getMessage());
            return null;
        }
    }

    /** The API server's message, or for a transport failure the innermost cause (fabric8's own text names no cause). */
    private static String reason(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getStatus().getMessage();
        }
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause == e ? e.getMessage() : cause.toString();
    }

    private static void print(CommandSpec spec, Format format, String table, ObjectNode json) {
        var out = spec.commandLine().getOut();
        out.print(
                format == Format.json ? JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n" : table);
        out.flush();
    }
}
