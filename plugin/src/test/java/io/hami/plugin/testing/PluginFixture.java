package io.hami.plugin.testing;

import io.hami.plugin.PluginApp;
import io.hami.plugin.PluginStartException;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One node for a plugin test, as a JUnit extension: the embedded API server ({@link TestCluster}) with the node, a
 * {@link TestKubelet} serving in the node's device-plugin folder, and the plugins the test starts there, each on a
 * private copy of its vendor's mock library ({@link MockVendor}) with its host paths under the same temporary folder.
 * Registered on an instance field it is made afresh for each test; on a static field, once for the class; outside
 * JUnit (a benchmark) {@link #open} makes one. Closing stops the plugins it started, newest first, then the kubelet
 * and the API server, and removes the folder.
 *
 * <pre>{@code
 * @RegisterExtension
 * final PluginFixture node = new PluginFixture("n1");
 *
 * @Test
 * void servesItsList() {
 *     PluginApp plugin = node.start("nvidia");
 *     node.kubelet().awaitList("nvidia.com/gpu", ...);
 * }
 * }</pre>
 */
public final class PluginFixture
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, AutoCloseable {
    /** How long a start waits for the kubelet to register the plugin. */
    private static final Duration REGISTERED = Patience.seconds(20);

    private final String name;
    private final Duration lockTimeout;
    private final boolean kubeletRunning;

    private Path root;
    private TestCluster cluster;
    private TestKubelet kubelet;
    private final Map<String, MockVendor> mocks = new HashMap<>();
    private final Deque<PluginApp> started = new ArrayDeque<>();
    /** Whether the node lives for the whole class (a static field), not for one test. */
    private boolean perClass;

    /** Node {@code name}, 5-minute node locks, the kubelet serving before each test. */
    public PluginFixture(String name) {
        this(name, Duration.ofMinutes(5), true);
    }

    /**
     * @param lockTimeout    how long {@link TestCluster#bind}'s node lock holds before another bind may take it
     * @param kubeletRunning false: the test starts the kubelet itself ({@code kubelet().start()})
     */
    public PluginFixture(String name, Duration lockTimeout, boolean kubeletRunning) {
        this.name = name;
        this.lockTimeout = lockTimeout;
        this.kubeletRunning = kubeletRunning;
    }

    /** Node {@code name} opened now, with 5-minute node locks and the kubelet serving; the caller closes it. */
    public static PluginFixture open(String name) throws IOException {
        var node = new PluginFixture(name);
        node.begin();
        return node;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        perClass = true;
        begin();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        if (!perClass) {
            begin();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            close();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    private void begin() throws IOException {
        // Short and under /tmp: the plugins' Unix socket paths must stay under 108 bytes.
        root = Files.createTempDirectory("hami-plugin-");
        cluster = new TestCluster(lockTimeout);
        cluster.node(name);
        kubelet = new TestKubelet(pluginDir());
        if (kubeletRunning) {
            kubelet.start();
        }
    }

    @Override
    public void close() {
        while (!started.isEmpty()) {
            started.pop().close();
        }
        kubelet.close();
        cluster.close();
        mocks.clear();
        try (var tree = Files.walk(root)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String name() {
        return name;
    }

    public TestCluster cluster() {
        return cluster;
    }

    public TestKubelet kubelet() {
        return kubelet;
    }

    /** The node's temporary folder: its host paths ({@code HostPaths.under}) and the mock libraries are below it. */
    public Path root() {
        return root;
    }

    /** The kubelet's device-plugin folder, holding {@code kubelet.sock} and the plugins' sockets. */
    public Path pluginDir() {
        return root.resolve("dp");
    }

    /** {@code vendor}'s mock library on this node, installed on first use; the same copy for every plugin started. */
    public MockVendor mock(String vendor) {
        return mocks.computeIfAbsent(vendor, v -> MockVendor.install(root.resolve("mock-" + v), v));
    }

    /** {@link PluginRun#settings} of {@code vendor} on this node: its mock library, the kubelet's folder, short timings. */
    public PluginApp.Settings settings(String vendor) {
        return PluginRun.settings(vendor, name, pluginDir(), mock(vendor), root);
    }

    /** {@code vendor} on this node as {@link #settings(String)}, configured by the test. */
    public PluginApp.Settings settings(
            String vendor, DeviceConfig deviceConfig, Sharing sharing, Timings timings, boolean topologyScore) {
        return new PluginApp.Settings(
                vendor,
                name,
                null,
                pluginDir(),
                mock(vendor).dir(),
                deviceConfig,
                sharing,
                HostPaths.under(root),
                timings,
                topologyScore);
    }

    /** Starts {@code vendor}'s plugin with {@link #settings} and waits until the kubelet has registered it. */
    public PluginApp start(String vendor) {
        return start(settings(vendor));
    }

    /** Starts a plugin and waits until the kubelet has registered it; closed with the node unless the test does. */
    public PluginApp start(PluginApp.Settings settings) {
        return start(settings, Optional.empty());
    }

    /** As {@link #start(PluginApp.Settings)}, serving {@code /metrics} at {@code metricsBind}. */
    public PluginApp start(PluginApp.Settings settings, Optional<InetSocketAddress> metricsBind) {
        try {
            PluginApp app = PluginApp.start(cluster.client(), settings, Clock.systemUTC(), metricsBind);
            started.push(app);
            if (!app.awaitRegistered(REGISTERED)) {
                throw new AssertionError("the plugin did not register with the test kubelet");
            }
            return app;
        } catch (PluginStartException e) {
            throw new AssertionError(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
