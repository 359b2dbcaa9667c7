package io.hami.lab.cli;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.lab.node.NodeHardware;
import io.hami.lab.scenario.DeviceGroup;
import io.hami.lab.scenario.NodeGroup;
import io.hami.lab.scenario.NodeSpec;
import io.hami.lab.scenario.Vendor;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.plugin.kubeletapi.Empty;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.kubeletapi.RegistrationGrpc;
import io.hami.plugin.server.UnixSockets;
import io.hami.plugin.vendor.VendorPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hami plugin-training} (hidden): the AOT cache's training run of one device plugin, as deploy/docker's
 * aot-cache.sh runs it; this JVM (the driver) has the lab on its class path, the trained one only the production
 * distribution. Starts an embedded API server with one node, the vendor's mock hardware and a kubelet
 * Registration socket, then runs {@code COMMAND plugin --backend VENDOR ...} (COMMAND: the training JVM, e.g.
 * {@code java -XX:AOTCacheOutput=F -jar hami.jar}) until each resource it registers has listed its devices and the
 * plugin has settled, and stops it with SIGTERM, on which that JVM writes its cache. So the cache holds what a
 * plugin loads from start to registered and publishing, and nothing of the lab or the scheduler.
 */
@Command(
        name = "plugin-training",
        hidden = true,
        mixinStandardHelpOptions = true,
        description =
                "The AOT cache's training run of one device plugin on mock hardware (deploy/docker/aot-cache.sh).")
public final class PluginTrainingCommand implements Callable<Integer> {
    static final String NODE = "aot-training";
    /** After the last resource listed: the register annotation, handshake and first health poll happen meanwhile. */
    private static final long SETTLE_MS = 3_000;

    private static final long REGISTER_TIMEOUT_S = 120;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--backend",
            paramLabel = "VENDOR",
            completionCandidates = Backends.class,
            description =
                    "The vendor, one of the node modules on the class path: ${COMPLETION-CANDIDATES}. Default: nvidia.")
    String backend = "nvidia";

    /** The {@code --backend} names of the vendors' node modules found on the class path. */
    private static final class Backends implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return VendorPlugins.load().names().iterator();
        }
    }

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Where the mock hardware, sockets and logs go. Default: a new temporary folder.")
    Path workDir;

    @Parameters(
            arity = "1..*",
            paramLabel = "COMMAND",
            description =
                    "The training JVM's command up to the hami subcommand, e.g. java -XX:AOTCacheOutput=hami.aot -jar hami.jar.")
    List<String> command;

    @Override
    public Integer call() throws Exception {
        Vendor vendor = vendor(backend);
        Path work =
                workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("hami-plugin-training");
        var group = new DeviceGroup(vendor, model(vendor), 2, 16384, 1, vendor == Vendor.HYGON ? 4 : 10);
        var node = new NodeSpec(NODE, 0, new NodeGroup(NODE, 1, false, List.of(group)));
        Path dp = Files.createDirectories(work.resolve("dp"));
        try (EmbeddedApiServer api = EmbeddedApiServer.start();
                KubernetesClient client = api.newClient();
                Kubelet kubelet = new Kubelet(dp)) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(NODE)
                            .endMetadata()
                            .build())
                    .create();
            Path kubeconfig = api.writeKubeconfig(work.resolve("kubeconfig"));
            NodeHardware hardware = NodeHardware.create(work.resolve("hardware"), node, group);
            List<String> run = new ArrayList<>(command);
            run.addAll(List.of(
                    "plugin",
                    "--backend",
                    vendor.yamlName(),
                    "--node-name",
                    NODE,
                    "--kubeconfig",
                    kubeconfig.toString(),
                    "--device-plugin-dir",
                    dp.toString(),
                    "--library",
                    hardware.dir().toString(),
                    "--host-root",
                    work.resolve("host").toString(),
                    // the metrics server's classes go into the cache too, on a port no other run can hold
                    "--metrics-bind-address=127.0.0.1:0"));
            Path log = work.resolve("plugin.log");
            Process plugin = new ProcessBuilder(run)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                if (!kubelet.awaitListed(plugin, TimeUnit.SECONDS.toNanos(REGISTER_TIMEOUT_S))) {
                    spec.commandLine()
                            .getErr()
                            .println("hami plugin-training: the " + vendor.yamlName() + " plugin did not "
                                    + "register and list its devices within " + REGISTER_TIMEOUT_S + " s; its log: "
                                    + log);
                    return 1;
                }
                Thread.sleep(SETTLE_MS);
                if (!plugin.isAlive()) {
                    spec.commandLine()
                            .getErr()
                            .println("hami plugin-training: the plugin stopped (exit " + plugin.exitValue()
                                    + "); its log: " + log);
                    return 1;
                }
                spec.commandLine()
                        .getOut()
                        .println("plugin-training: " + vendor.yamlName() + " registered " + kubelet.resources
                                + "; stopping it");
            } finally {
                plugin.destroy();
                // The training JVM writes its cache on the way out: give it time.
                if (!plugin.waitFor(180, TimeUnit.SECONDS)) {
                    plugin.destroyForcibly().waitFor();
                }
            }
        }
        return 0;
    }

    /** The lab's mock hardware for {@code name}, which must be the {@code --backend} of a node module present. */
    static Vendor vendor(String name) {
        VendorPlugins.load().byName(name);
        for (Vendor v : Vendor.values()) {
            if (v.yamlName().equals(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("backend " + name + " has no mock hardware in the lab to train on");
    }

    /** A model each vendor's backend knows. */
    static String model(Vendor vendor) {
        return switch (vendor) {
            case NVIDIA -> "NVIDIA A100-SXM4-40GB";
            case CAMBRICON -> "MLU370-X8";
            case MTHREADS -> "MTT S4000";
            case HYGON -> "Z100L";
        };
    }

    /**
     * The kubelet's Registration socket, as the device manager answers it: dial the plugin's endpoint, ask its
     * options, open ListAndWatch. Training is done when every registered resource has sent its first list.
     */
    private static final class Kubelet implements AutoCloseable {
        private final Path dir;
        private final UnixSockets sockets = new UnixSockets();
        private final Set<String> resources = ConcurrentHashMap.newKeySet();
        private final Set<String> listed = ConcurrentHashMap.newKeySet();
        private final List<ManagedChannel> channels = new CopyOnWriteArrayList<>();
        private final Server server;

        Kubelet(Path dir) throws IOException {
            this.dir = dir;
            server = sockets.server(dir.resolve("kubelet.sock"), new RegistrationGrpc.RegistrationImplBase() {
                        @Override
                        public void register(RegisterRequest request, StreamObserver<Empty> response) {
                            try {
                                connect(request);
                                response.onNext(Empty.getDefaultInstance());
                                response.onCompleted();
                            } catch (RuntimeException e) {
                                response.onError(Status.UNAVAILABLE
                                        .withDescription(e.getMessage())
                                        .asException());
                            }
                        }
                    })
                    .start();
        }

        private void connect(RegisterRequest request) {
            String resource = request.getResourceName();
            ManagedChannel channel = sockets.channel(dir.resolve(request.getEndpoint()));
            channels.add(channel);
            DevicePluginGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .getDevicePluginOptions(Empty.getDefaultInstance());
            resources.add(resource);
            // Not in the Register call's context, which is cancelled when Register returns.
            io.grpc.Context.ROOT.run(() -> DevicePluginGrpc.newStub(channel)
                    .listAndWatch(Empty.getDefaultInstance(), new StreamObserver<>() {
                        @Override
                        public void onNext(ListAndWatchResponse list) {
                            listed.add(resource);
                        }

                        @Override
                        public void onError(Throwable t) {}

                        @Override
                        public void onCompleted() {}
                    }));
        }

        /** Waits until something registered and every registered resource listed, while the plugin runs. */
        boolean awaitListed(Process plugin, long timeoutNanos) throws InterruptedException {
            long deadline = System.nanoTime() + timeoutNanos;
            while (resources.isEmpty() || !listed.containsAll(resources)) {
                if (!plugin.isAlive() || System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(20);
            }
            return true;
        }

        @Override
        public void close() throws InterruptedException {
            channels.forEach(ManagedChannel::shutdownNow);
            server.shutdownNow();
            server.awaitTermination(5, TimeUnit.SECONDS);
            sockets.close();
        }
    }
}
