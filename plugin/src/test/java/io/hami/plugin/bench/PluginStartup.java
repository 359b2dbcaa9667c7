package io.hami.plugin.bench;

import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestKubelet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Start-up and memory of the real {@code hami plugin --backend nvidia} process (the distribution,
 * {@code cli/target/hami.jar}) on the NVML mock, against the embedded API server and a test kubelet's private
 * Registration socket. Each run starts a fresh JVM and measures the time from process start to the kubelet's
 * Register call, and VmRSS at that moment and 2 s later. Configurations (JVM options) alternate run by run, so
 * the machine's noise falls on all of them alike; prints the median per configuration and its ratio to the goal
 * (1.5 s, 128 MiB).
 *
 * <p>Run with {@code scripts/bench.sh plugin PluginStartup [runs] [name=jvm-options ...]} after building the
 * distribution ({@code ./mvnw -pl cli -am package -DskipTests}, or {@code ./hami --help}). Without configurations
 * it compares {@code launcher} ({@code ./hami plugin}: no options), {@code old-image} (the images' options before
 * issue 11), {@code image} (the plugin images' options and the DaemonSets' heap now) and {@code image+aot} (the same
 * with {@code cli/target/hami.aot}, when {@code deploy/docker/aot-cache.sh} has built it). The image
 * configurations run with {@code -XX:MaxRAM=512m}: the JVM sizes itself as under the DaemonSets' memory limit.
 */
public final class PluginStartup {
    private static final String NODE = "startup-node";
    private static final double GOAL_SECONDS = 1.5;
    private static final double GOAL_MIB = 128;
    /** The options every launch of hami has (the launcher's and the images'). */
    private static final List<String> BASE = List.of(
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "-XX:+ExitOnOutOfMemoryError");
    /** The DaemonSets' memory limit, as the JVM would see it in the container. */
    private static final String POD = "-XX:MaxRAM=512m";
    /** The images' options before issue 11. */
    private static final String OLD_IMAGE = POD + " -XX:MaxRAMPercentage=75";
    /** The plugin images' options now (deploy/docker), less the AOT cache, and the DaemonSets' heap. */
    private static final String IMAGE = POD + " -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx128m";

    private record Sample(double seconds, double rssAtRegisterMiB, double rssSettledMiB) {}

    private PluginStartup() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path repo = Path.of("").toAbsolutePath().getParent();
        // -Dhami.dist=DIR measures a copy of the distribution (DIR/hami.jar), safe from rebuilds meanwhile.
        Path dist = Path.of(
                System.getProperty("hami.dist", repo.resolve("cli/target").toString()));
        Path jar = dist.resolve("hami.jar");
        if (!Files.isRegularFile(jar)) {
            System.err.println("no " + jar + ": build the distribution first (./mvnw -pl cli -am package -DskipTests)");
            System.exit(1);
        }
        Map<String, List<String>> configs = configs(args, dist);
        try (PluginFixture node = PluginFixture.open(NODE)) {
            Path root = node.root();
            Path dp = node.pluginDir();
            TestKubelet kubelet = node.kubelet();
            Path kubeconfig = node.cluster().server().writeKubeconfig(root.resolve("kubeconfig"));
            MockVendor mock = node.mock("nvidia");
            Map<String, List<Sample>> samples = new LinkedHashMap<>();
            configs.keySet().forEach(name -> samples.put(name, new ArrayList<>()));
            // One unmeasured run warms the kubelet's and the API server's side of the bench.
            launch(jar, BASE, kubelet, kubeconfig, dp, mock, root, "warm-up");
            for (int run = 0; run < runs; run++) {
                for (var config : configs.entrySet()) {
                    Sample s = launch(jar, config.getValue(), kubelet, kubeconfig, dp, mock, root, config.getKey());
                    samples.get(config.getKey()).add(s);
                    System.out.printf(
                            "run %d %-10s start to registered %.2f s, RSS %.0f MiB at registration, %.0f MiB 2 s later%n",
                            run + 1, config.getKey(), s.seconds(), s.rssAtRegisterMiB(), s.rssSettledMiB());
                }
            }
            System.out.printf(
                    "%nplugin start to registered and RSS, median of %d runs (goal %.1f s, %.0f MiB):%n",
                    runs, GOAL_SECONDS, GOAL_MIB);
            Sample first = null;
            for (var e : samples.entrySet()) {
                Sample m = median(e.getValue());
                System.out.printf(
                        "  %-10s %.2f s (%.2fx goal), RSS %.0f MiB at registration, %.0f MiB settled (%.2fx goal)%s%n",
                        e.getKey(),
                        m.seconds(),
                        m.seconds() / GOAL_SECONDS,
                        m.rssAtRegisterMiB(),
                        m.rssSettledMiB(),
                        m.rssSettledMiB() / GOAL_MIB,
                        first == null
                                ? ""
                                : String.format(
                                        "; vs %s: time %.2fx, RSS %.2fx",
                                        samples.keySet().iterator().next(),
                                        m.seconds() / first.seconds(),
                                        m.rssSettledMiB() / first.rssSettledMiB()));
                if (first == null) {
                    first = m;
                }
            }
            System.out.println("  options: " + configs);
        }
    }

    private static Map<String, List<String>> configs(String[] args, Path dist) {
        var out = new LinkedHashMap<String, List<String>>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("a configuration is name=jvm-options, not " + args[i]);
            }
            out.put(args[i].substring(0, eq), with(args[i].substring(eq + 1)));
        }
        if (out.isEmpty()) {
            out.put("launcher", BASE);
            out.put("old-image", with(OLD_IMAGE));
            out.put("image", with(IMAGE));
            Path aot = dist.resolve("hami.aot");
            if (Files.isRegularFile(aot)) {
                out.put("image+aot", with(IMAGE + " -XX:AOTCache=" + aot));
            } else {
                System.out.println("no " + aot + " (deploy/docker/aot-cache.sh builds it): image+aot is left out");
            }
        }
        return out;
    }

    private static List<String> with(String options) {
        var all = new ArrayList<>(BASE);
        for (String o : options.strip().split("\\s+")) {
            if (!o.isEmpty()) {
                all.add(o);
            }
        }
        return all;
    }

    private static Sample launch(
            Path jar,
            List<String> options,
            TestKubelet kubelet,
            Path kubeconfig,
            Path dp,
            MockVendor mock,
            Path root,
            String name)
            throws IOException, InterruptedException {
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        command.addAll(List.of(
                "-jar",
                jar.toString(),
                "plugin",
                "--backend",
                "nvidia",
                "--node-name",
                NODE,
                "--kubeconfig",
                kubeconfig.toString(),
                "--device-plugin-dir",
                dp.toString(),
                "--library",
                mock.dir().toString(),
                "--host-root",
                root.resolve("host").toString()));
        Path log = root.resolve(name + ".log");
        int before = kubelet.registrations().size();
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            long deadline = start + TimeUnit.SECONDS.toNanos(60);
            while (kubelet.registrations().size() == before) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the plugin (" + name + ") did not register within 60 s; its log: "
                            + log + "\n" + Files.readString(log));
                }
                Thread.sleep(2); // a benchmark's poll: its grain (2 ms) is all it adds to the start time measured
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double atRegister = rssMiB(p.pid());
            Thread.sleep(2000); // a measurement, not a wait: the memory two seconds after registering
            return new Sample(seconds, atRegister, rssMiB(p.pid()));
        } finally {
            p.destroy();
            // A training run (-XX:AOTCacheOutput) writes its cache on the way out: give it time.
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    /** VmRSS of a process, from /proc. */
    private static double rssMiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/" + pid + "/status");
    }

    private static Sample median(List<Sample> samples) {
        return new Sample(
                median(samples, Sample::seconds),
                median(samples, Sample::rssAtRegisterMiB),
                median(samples, Sample::rssSettledMiB));
    }

    private static double median(List<Sample> samples, java.util.function.ToDoubleFunction<Sample> f) {
        double[] v = new double[samples.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = f.applyAsDouble(samples.get(i));
        }
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
