package io.hami.e2e.realnode;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.ManagedProcess;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.protocol.testing.Patience;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real node on this machine: Debian's containerd and runc, Debian's CNI plugins (a bridge, the pod network of
 * this one node) and the kubelet of the pinned release ({@code scripts/kubelet.sh}), registered with the control plane
 * under the node's own identity ({@code system:node:<name>}, so the Node authorizer and NodeRestriction apply). Every
 * file lives under one work folder; the one shared path is the kubelet's device-plugin folder, which the kubelet does
 * not let one move. No registry can be reached: the sandbox and pod image is a busybox image built here
 * ({@code scripts/busybox-image.sh}) and imported into containerd.
 */
final class RealNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RealNode.class);
    static final String IMAGE = "docker.io/hami-java/busybox:local";
    /** Fixed in the kubelet ({@code pluginapi.DevicePluginPath}); not under its root folder. */
    static final Path DEVICE_PLUGINS = Path.of("/var/lib/kubelet/device-plugins");
    /** Registered on the node by the kubelet: only this class's pods, which tolerate it, land here. */
    static final String TAINT = "hami.io/e2e-real-node";

    static final String BRIDGE = "hami-e2e0";
    private static final Path CNI_BIN = Path.of("/usr/lib/cni");
    private static final Duration READY_TIMEOUT = Patience.seconds(120);

    private final String name;
    private final Path dir;
    private final Path socket;
    private final List<ManagedProcess> processes = new ArrayList<>();
    private Duration readyAfter = Duration.ZERO;

    private RealNode(String name, Path dir) {
        this.name = name;
        this.dir = dir;
        this.socket = dir.resolve("containerd/containerd.sock");
    }

    /**
     * What this machine lacks to run a node, or empty. The kubelet itself is built on demand; containerd, runc, the
     * CNI plugins and busybox come from Debian ({@code scripts/install-node-deps.sh}); the kubelet and runc need root.
     */
    static Optional<String> missing() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of(
                    "the kubelet, containerd and runc need root; the tests run as " + System.getProperty("user.name"));
        }
        var absent = new ArrayList<String>();
        for (String command : List.of("containerd", "containerd-shim-runc-v2", "runc", "ctr")) {
            if (onPath(command).isEmpty()) {
                absent.add(command);
            }
        }
        for (String plugin : List.of("bridge", "host-local", "loopback")) {
            if (!Files.isExecutable(CNI_BIN.resolve(plugin))) {
                absent.add(CNI_BIN.resolve(plugin).toString());
            }
        }
        if (!Files.isExecutable(Path.of("/bin/busybox"))) {
            absent.add("/bin/busybox");
        }
        if (!absent.isEmpty()) {
            return Optional.of(
                    "missing " + String.join(", ", absent) + "; install them with scripts/install-node-deps.sh");
        }
        if (onPath("go").isEmpty() && !kubeletBuilt()) {
            return Optional.of("the kubelet is not built (scripts/kubelet.sh) and cannot be: go is not on PATH");
        }
        return Optional.empty();
    }

    private static boolean kubeletBuilt() {
        try {
            run(
                    List.of(
                            "bash",
                            DeployFiles.ROOT.resolve("scripts/kubelet.sh").toString(),
                            "--path"),
                    Duration.ofSeconds(30));
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** Starts containerd and the kubelet under {@code dir}; returns once the node is Ready and untainted. */
    static RealNode start(KubeControlPlane plane, KubernetesClient admin, String name, Path dir) throws Exception {
        removeLeftovers(dir.getParent().getParent());
        var node = new RealNode(name, dir);
        try {
            node.boot(plane, admin);
            return node;
        } catch (Exception | Error e) {
            node.close();
            throw e;
        }
    }

    private void boot(KubeControlPlane plane, KubernetesClient admin) throws Exception {
        Path bin = Path.of(lastLine(run(
                List.of("bash", DeployFiles.ROOT.resolve("scripts/kubelet.sh").toString()), Duration.ofMinutes(30))));
        Path kubelet = bin.resolve("kubelet");
        Path image = dir.resolve("busybox.tar");
        run(
                List.of(
                        "bash",
                        DeployFiles.ROOT.resolve("scripts/busybox-image.sh").toString(),
                        image.toString(),
                        IMAGE),
                Duration.ofMinutes(1));

        Files.createDirectories(dir.resolve("cni"));
        Files.writeString(dir.resolve("cni/10-hami-e2e.conflist"), cniConfig());
        Files.writeString(dir.resolve("containerd.toml"), containerdConfig());
        processes.add(node(
                "containerd",
                List.of("containerd", "--config", dir.resolve("containerd.toml").toString()),
                dir.resolve("logs/containerd.log")));
        awaitContainerd();
        ctr("images", "import", image.toString());

        Path kubeconfig = plane.writeKubeconfig(
                dir.resolve("kubelet.kubeconfig"), plane.userConfig("system:node:" + name, List.of("system:nodes")));
        Files.writeString(dir.resolve("kubelet.yaml"), kubeletConfig());
        long t0 = System.nanoTime();
        var process = node(
                "kubelet",
                List.of(
                        kubelet.toString(),
                        "--config",
                        dir.resolve("kubelet.yaml").toString(),
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--root-dir",
                        dir.resolve("kubelet").toString(),
                        "--hostname-override",
                        name,
                        "--cert-dir",
                        dir.resolve("pki").toString(),
                        "--v=2"),
                dir.resolve("logs/kubelet.log"));
        processes.add(process);
        awaitReady(admin, process);
        readyAfter = Duration.ofNanos(System.nanoTime() - t0);
        // kube-controller-manager's node lifecycle controller would lift it now that the node is Ready.
        admin.nodes()
                .withName(name)
                .edit(n -> new NodeBuilder(n)
                        .editSpec()
                        .withTaints(n.getSpec().getTaints().stream()
                                .filter(t -> !NodeLifecycle.NOT_READY.equals(t.getKey()))
                                .toList())
                        .endSpec()
                        .build());
        LOG.info(
                "real node {} Ready {} ms after the kubelet started (work folder {})",
                name,
                readyAfter.toMillis(),
                dir);
    }

    /**
     * Imports an OCI image archive whose index names {@code ref} (as the build's images do) and tags it with the
     * fully qualified name the CRI looks up ({@code hami-java/x:1} is {@code docker.io/hami-java/x:1} to the kubelet).
     */
    void importImage(Path archive, String ref) {
        ctr("images", "import", archive.toString());
        String first = ref.split("/", -1)[0];
        if (!ref.contains("/") || !(first.contains(".") || first.contains(":") || first.equals("localhost"))) {
            ctr("images", "tag", "--force", ref, "docker.io/" + (ref.contains("/") ? ref : "library/" + ref));
        }
    }

    String name() {
        return name;
    }

    /** From the kubelet's start to the node's Ready condition. */
    Duration readyAfter() {
        return readyAfter;
    }

    Path kubeletLog() {
        return dir.resolve("logs/kubelet.log");
    }

    /**
     * The log the kubelet keeps of a container (CRI format: time, stream, tag, text), read from its folder rather
     * than through the API server, which would need the kubelet's port to trust the API server's client certificate.
     */
    List<String> containerLog(String namespace, String pod, String uid, String container) throws IOException {
        Path log = dir.resolve("pod-logs")
                .resolve(namespace + "_" + pod + "_" + uid)
                .resolve(container)
                .resolve("0.log");
        return Files.readAllLines(log).stream()
                .map(line -> line.split(" ", 4))
                .map(parts -> parts.length == 4 ? parts[3] : "")
                .toList();
    }

    String kubeletLogTail(int lines) {
        return processes.stream()
                .filter(p -> p.name().equals("kubelet"))
                .findFirst()
                .map(p -> p.tail(lines))
                .orElse("(no kubelet)");
    }

    /** Until containerd answers {@code ctr version} on its socket; fails at once if containerd exits. */
    private void awaitContainerd() {
        Duration within = Patience.seconds(30);
        var last = new AtomicReference<>("no socket yet");
        try {
            await("containerd answers on " + socket)
                    .atMost(within)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        processes.getFirst().checkAlive();
                        if (!Files.exists(socket)) {
                            return false;
                        }
                        try {
                            ctr("version");
                            return true;
                        } catch (IllegalStateException e) {
                            last.set(e.getMessage());
                            return false;
                        }
                    });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException(
                    "containerd did not answer within " + within.toSeconds() + " s: " + last.get() + "\n"
                            + processes.getFirst().tail(30),
                    e);
        }
    }

    /** Until the node's Ready condition is True; fails at once if the kubelet exits. */
    private void awaitReady(KubernetesClient admin, ManagedProcess kubelet) {
        var last = new AtomicReference<>("not registered");
        try {
            await("node " + name + " Ready")
                    .atMost(READY_TIMEOUT)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        kubelet.checkAlive();
                        Node n = admin.nodes().withName(name).get();
                        if (n == null || n.getStatus() == null || n.getStatus().getConditions() == null) {
                            return false;
                        }
                        var ready = n.getStatus().getConditions().stream()
                                .filter(c -> "Ready".equals(c.getType()))
                                .findFirst();
                        last.set(ready.map(c -> c.getStatus() + ": " + c.getMessage())
                                .orElse("no Ready condition"));
                        return ready.isPresent() && "True".equals(ready.get().getStatus());
                    });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException(
                    "node " + name + " not Ready after " + READY_TIMEOUT.toSeconds() + " s (" + last.get()
                            + "); last lines of " + kubelet.log() + ":\n" + kubelet.tail(40),
                    e);
        }
    }

    private String ctr(String... args) {
        var command = new ArrayList<>(List.of("ctr", "--address", socket.toString(), "--namespace", "k8s.io"));
        command.addAll(List.of(args));
        return run(command, Duration.ofMinutes(1));
    }

    private String containerdConfig() {
        // restrict_oom_score_adj: runc may not lower a process's oom_score_adj without CAP_SYS_RESOURCE, which a
        // sandboxed machine can lack (this one does); pods then get no score below containerd's own.
        return """
                version = 2
                root = "%1$s/containerd/root"
                state = "%1$s/containerd/state"
                [grpc]
                  address = "%2$s"
                [plugins."io.containerd.grpc.v1.cri"]
                  sandbox_image = "%3$s"
                  disable_apparmor = true
                  restrict_oom_score_adj = true
                  [plugins."io.containerd.grpc.v1.cri".containerd]
                    snapshotter = "overlayfs"
                    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
                      runtime_type = "io.containerd.runc.v2"
                      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
                        SystemdCgroup = false
                  [plugins."io.containerd.grpc.v1.cri".cni]
                    bin_dir = "%4$s"
                    conf_dir = "%1$s/cni"
                """.formatted(dir, socket, IMAGE, CNI_BIN);
    }

    private String cniConfig() {
        return """
                {"cniVersion": "0.4.0", "name": "hami-e2e", "plugins": [
                  {"type": "bridge", "bridge": "%s", "isGateway": true, "ipMasq": false,
                   "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.244.250.0/24"}]], "dataDir": "%s/cni-ipam"}},
                  {"type": "loopback"}]}
                """.formatted(BRIDGE, dir);
    }

    private String kubeletConfig() {
        // cgroupsPerQOS and node allocatable off, cgroupfs: no systemd here and cgroup v1 (failCgroupV1: false).
        // The kubelet's port answers nobody (no anonymous access, no client CA): nothing here needs it.
        return """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                authentication:
                  anonymous: {enabled: false}
                  webhook: {enabled: false}
                authorization: {mode: AlwaysAllow}
                address: 127.0.0.1
                port: %d
                healthzPort: %d
                readOnlyPort: 0
                cgroupDriver: cgroupfs
                cgroupsPerQOS: false
                enforceNodeAllocatable: []
                failSwapOn: false
                failCgroupV1: false
                containerRuntimeEndpoint: unix://%s
                podLogsDir: %s/pod-logs
                volumePluginDir: %s/volume-plugins
                imageGCHighThresholdPercent: 100
                imageGCLowThresholdPercent: 99
                evictionHard: {}
                registerWithTaints:
                - {key: %s, effect: NoSchedule}
                """.formatted(freePort(), freePort(), socket, dir, dir, TAINT);
    }

    /** Stops the kubelet, every container it left, containerd, and undoes their mounts and the bridge. */
    @Override
    public void close() {
        var reversed = new ArrayList<>(processes);
        Collections.reverse(reversed);
        for (ManagedProcess p : reversed) {
            if (p.name().equals("containerd") && p.isAlive()) {
                removeContainers();
            }
            p.close();
        }
        unmountUnder(dir);
        removeLogLinks(dir);
        deleteTree(dir.resolve("containerd/root")); // the unpacked images (hundreds of MiB a run); the logs stay
        if (Files.exists(Path.of("/sys/class/net", BRIDGE))) {
            runQuietly(List.of("ip", "link", "delete", BRIDGE));
        }
        removeDevicePluginFiles();
    }

    /**
     * What a run killed with SIGKILL left (its shutdown hooks did not run): the kubelet, containerd and the shims of
     * earlier work folders, their containers, mounts and the bridge, and the kubelet's files, so the next run starts
     * clean.
     */
    private static void removeLeftovers(Path runs) {
        String prefix = runs.toAbsolutePath().toString();
        var stale = new ArrayList<ProcessHandle>();
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            all.filter(p -> p.info()
                            .commandLine()
                            .filter(c -> c.contains(prefix + "/"))
                            .isPresent())
                    .forEach(stale::add);
        }
        // The containers' processes: their root (as they see it) is an overlay of an earlier work folder's layers.
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().matches("[0-9]+"))
                    .toList()) {
                try (Stream<String> mounts = Files.lines(proc.resolve("mounts"))) {
                    if (mounts.anyMatch(m -> m.startsWith("overlay / ") && m.contains("=" + prefix + "/"))) {
                        ProcessHandle.of(Long.parseLong(proc.getFileName().toString()))
                                .ifPresent(stale::add);
                    }
                } catch (IOException | UncheckedIOException gone) {
                    // exited meanwhile, or not ours to read
                }
            }
        } catch (IOException e) {
            LOG.warn("listing processes: {}", e.getMessage());
        }
        for (ProcessHandle p : stale) {
            LOG.warn(
                    "stopping {} left by an earlier run: {}",
                    p.pid(),
                    p.info().commandLine().orElse("?"));
            p.destroyForcibly();
        }
        for (ProcessHandle p : stale) {
            try {
                p.onExit().get(Patience.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("process {} still running: {}", p.pid(), e.getMessage());
            }
        }
        unmountUnder(runs);
        if (Files.exists(Path.of("/sys/class/net", BRIDGE))) {
            runQuietly(List.of("ip", "link", "delete", BRIDGE));
        }
        removeDevicePluginFiles();
    }

    /**
     * The kubelet's files in the one fixed folder: its socket and its checkpoint of device assignments (to pods of a
     * node that is gone); then the folders, when empty (the kubelet made them; nothing else here uses them).
     */
    private static void removeDevicePluginFiles() {
        if (!Files.isDirectory(DEVICE_PLUGINS)) {
            return;
        }
        try {
            Files.deleteIfExists(DEVICE_PLUGINS.resolve("kubelet.sock"));
            Files.deleteIfExists(DEVICE_PLUGINS.resolve("kubelet_internal_checkpoint"));
            for (Path d : List.of(DEVICE_PLUGINS, DEVICE_PLUGINS.getParent())) {
                try (Stream<Path> left = Files.list(d)) {
                    if (left.findAny().isPresent()) {
                        return;
                    }
                }
                Files.delete(d);
            }
        } catch (IOException e) {
            LOG.warn("cleaning {}: {}", DEVICE_PLUGINS, e.getMessage());
        }
    }

    /** Pods the kubelet did not tear down: kill their tasks (their shims exit with them) and forget them. */
    private void removeContainers() {
        try {
            for (String task : ctr("tasks", "ls", "-q").lines().toList()) {
                runQuietly(List.of(
                        "ctr", "--address", socket.toString(), "-n", "k8s.io", "tasks", "kill", "-s", "SIGKILL", task));
                runQuietly(
                        List.of("ctr", "--address", socket.toString(), "-n", "k8s.io", "tasks", "delete", "-f", task));
            }
            for (String c : ctr("containers", "ls", "-q").lines().toList()) {
                runQuietly(List.of("ctr", "--address", socket.toString(), "-n", "k8s.io", "containers", "rm", c));
            }
        } catch (RuntimeException e) {
            LOG.warn("removing the node's containers: {}", e.getMessage());
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Collections.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            LOG.warn("deleting {}: {}", root, e.getMessage());
        }
    }

    /** The kubelet links every container's log into /var/log/containers (a fixed folder): remove the node's. */
    private static void removeLogLinks(Path dir) {
        Path links = Path.of("/var/log/containers");
        if (!Files.isDirectory(links)) {
            return;
        }
        try (Stream<Path> files = Files.list(links)) {
            for (Path link : files.filter(Files::isSymbolicLink).toList()) {
                if (Files.readSymbolicLink(link).startsWith(dir.toAbsolutePath())) {
                    Files.delete(link);
                }
            }
        } catch (IOException e) {
            LOG.warn("removing log links in {}: {}", links, e.getMessage());
        }
        try (Stream<Path> left = Files.list(links)) {
            if (left.findAny().isEmpty()) {
                Files.delete(links); // the kubelet made it; nothing else on this machine uses it
            }
        } catch (IOException e) {
            LOG.warn("removing {}: {}", links, e.getMessage());
        }
    }

    /** The kubelet makes its root folder a mount point; sandboxes leave shm and overlay mounts: deepest first. */
    private static void unmountUnder(Path dir) {
        List<String> points;
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/mountinfo"))) {
            String prefix = dir.toAbsolutePath().toString();
            points = lines.map(l -> l.split(" ", -1)[4])
                    .filter(p -> p.equals(prefix) || p.startsWith(prefix + "/"))
                    .sorted(Collections.reverseOrder())
                    .toList();
        } catch (IOException e) {
            LOG.warn("reading mounts: {}", e.getMessage());
            return;
        }
        for (String p : points) {
            runQuietly(List.of("umount", p));
        }
    }

    /** Runs {@code command} to its end; {@code idle} is its limit on an idle machine, scaled by {@link Patience}. */
    static String run(List<String> command, Duration idle) {
        Duration timeout = Patience.of(idle);
        try {
            Path out = Files.createTempFile("hami-real-node", ".out");
            try {
                Process p = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(out.toFile())
                        .start();
                if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", command) + " ran past " + timeout.toSeconds()
                            + " s:\n" + Files.readString(out));
                }
                String text = Files.readString(out, StandardCharsets.UTF_8);
                if (p.exitValue() != 0) {
                    throw new IllegalStateException(
                            String.join(" ", command) + " exited with " + p.exitValue() + ":\n" + text);
                }
                return text;
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.getFirst(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void runQuietly(List<String> command) {
        try {
            run(command, Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            LOG.warn("{}", e.getMessage());
        }
    }

    private static String lastLine(String text) {
        var lines = text.strip().lines().toList();
        return lines.getLast().strip();
    }

    /** {@code -Dreal.node.path} stands in for PATH (the check of the skip path simulates a machine without them). */
    private static Optional<Path> onPath(String command) {
        String path = System.getProperty("real.node.path", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        for (String d : path.split(File.pathSeparator, -1)) {
            Path p = Path.of(d, command);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        // Debian's runc lives in /usr/sbin, which a non-login PATH may lack.
        Path sbin = Path.of("/usr/sbin", command);
        return Files.isExecutable(sbin) && System.getProperty("real.node.path") == null
                ? Optional.of(sbin)
                : Optional.empty();
    }

    /** containerd or the kubelet; runc, the shim and the CNI plugins are looked up on containerd's PATH. */
    private static ManagedProcess node(String name, List<String> command, Path log) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin";
        return ManagedProcess.start("real node", name, command, log, Map.of("PATH", path));
    }

    private static int freePort() {
        try (var s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
