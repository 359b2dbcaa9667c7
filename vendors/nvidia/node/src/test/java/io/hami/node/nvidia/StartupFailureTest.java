package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.plugin.PluginApp;
import io.hami.plugin.PluginProcess;
import io.hami.plugin.PluginStartException;
import io.hami.plugin.config.LibraryRetry;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginRun;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.testing.PatientTimeout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vendor library that is missing, damaged or fails stops {@link PluginApp#start} (the embedding API) with a clear
 * error, never a hang or a crash. {@code hami plugin} runs a {@link PluginProcess}, which waits for such a library
 * instead ({@link VendorLibraryWaitTest}) unless it has no retry ({@code --exit-on-library-error}); any other start
 * failure still fails it at once.
 */
@PatientTimeout(30)
class StartupFailureTest {
    @TempDir
    Path root;

    @Test
    void aMissingLibraryIsAClearError() throws Exception {
        Files.createDirectories(root.resolve("empty"));
        try (TestCluster cluster = new TestCluster()) {
            PluginApp.Settings s = new PluginApp.Settings(
                    "nvidia",
                    "n1",
                    null,
                    root.resolve("dp"),
                    root.resolve("empty"),
                    io.hami.protocol.config.DeviceConfig.DEFAULTS,
                    io.hami.plugin.config.Sharing.NONE,
                    io.hami.plugin.config.HostPaths.under(root),
                    PluginRun.FAST);

            assertThatThrownBy(() -> PluginApp.start(cluster.client(), s, Clock.systemUTC()))
                    .isInstanceOf(PluginStartException.class)
                    .hasMessageStartingWith("the nvidia plugin cannot use its vendor library: NVML library "
                            + root.resolve("empty/libnvidia-ml.so.1") + " not found");
        }
        assertThat(root.resolve("dp")).doesNotExist();
    }

    @Test
    void aLibraryThatFailsToInitialiseIsAClearErrorAndLeavesNoSocket() {
        MockVendor mock = MockVendor.install(root.resolve("mock"), "cambricon");
        mock.control("{\"initError\":2}");
        try (TestCluster cluster = new TestCluster()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> PluginApp.start(
                            cluster.client(),
                            PluginRun.settings("cambricon", "n1", root.resolve("dp"), mock, root),
                            Clock.systemUTC()))
                    .isInstanceOf(PluginStartException.class)
                    .hasMessageStartingWith(
                            "the cambricon plugin cannot use its vendor library: CNDev cndevInit failed with 2");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }
        assertThat(root.resolve("dp")).doesNotExist();
    }

    /**
     * Issue 26: a library cut short used to make the loader fault (SIGBUS) and kill the plugin's JVM with a crash
     * dump; it is now the same clear start failure as a missing library, before anything is served.
     */
    @Test
    void aTruncatedLibraryIsAClearErrorNotACrash() throws Exception {
        MockVendor mock = MockVendor.install(root.resolve("mock"), "nvidia");
        Path library = mock.dir().resolve("libnvidia-ml.so.1");
        byte[] whole = Files.readAllBytes(library);
        Files.write(library, java.util.Arrays.copyOf(whole, 20 * 1024));
        try (TestCluster cluster = new TestCluster()) {
            assertThatThrownBy(() -> PluginApp.start(
                            cluster.client(),
                            PluginRun.settings("nvidia", "n1", root.resolve("dp"), mock, root),
                            Clock.systemUTC()))
                    .isInstanceOf(PluginStartException.class)
                    .hasMessageMatching("the nvidia plugin cannot use its vendor library: NVML library "
                            + java.util.regex.Pattern.quote(library.toString())
                            + " is truncated: segment \\d+ ends at byte [\\d,]+ but the file has 20,480 bytes");
        }
        assertThat(root.resolve("dp")).doesNotExist();
    }

    /** The second library of a vendor is checked too; the first, already open, is closed again. */
    @Test
    void anEmptySecondLibraryIsAClearError() throws Exception {
        MockVendor mock = MockVendor.install(root.resolve("mock"), "hygon");
        Path hydmi = mock.dir().resolve("libhydmi.so.1");
        Files.write(hydmi, new byte[0]);
        try (TestCluster cluster = new TestCluster()) {
            assertThatThrownBy(() -> PluginApp.start(
                            cluster.client(),
                            PluginRun.settings("hygon", "n1", root.resolve("dp"), mock, root),
                            Clock.systemUTC()))
                    .isInstanceOf(PluginStartException.class)
                    .hasMessage("the hygon plugin cannot use its vendor library: hydmi library " + hydmi
                            + " is empty (0 bytes)");
        }
        assertThat(root.resolve("dp")).doesNotExist();
    }

    @Test
    void theProcessWaitsForAMissingLibraryUnlessItHasNoRetryAndAPortInUseFailsItsStartAtOnce() throws Exception {
        Files.createDirectories(root.resolve("empty"));
        PluginApp.Settings s = new PluginApp.Settings(
                "nvidia",
                "n1",
                null,
                root.resolve("dp"),
                root.resolve("empty"),
                io.hami.protocol.config.DeviceConfig.DEFAULTS,
                io.hami.plugin.config.Sharing.NONE,
                io.hami.plugin.config.HostPaths.under(root),
                PluginRun.FAST);
        LibraryRetry oncePerMinute =
                new LibraryRetry(Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ofHours(1));
        try (TestCluster cluster = new TestCluster()) {
            try (PluginProcess waiting = PluginProcess.start(
                    cluster.client(), s, Clock.systemUTC(), Optional.empty(), Optional.of(oncePerMinute))) {
                assertThat(waiting.app()).isEmpty();
                assertThat(waiting.failedAttempts()).isEqualTo(1);
                assertThat(waiting.awaitStarted(Duration.ZERO)).isFalse();
            }
            assertThatThrownBy(() -> PluginProcess.start(
                            cluster.client(), s, Clock.systemUTC(), Optional.empty(), Optional.empty()))
                    .isInstanceOf(PluginStartException.class)
                    .hasMessageStartingWith("the nvidia plugin cannot use its vendor library: NVML library ");
            try (var taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                var bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), taken.getLocalPort());
                assertThatThrownBy(() -> PluginProcess.start(
                                cluster.client(), s, Clock.systemUTC(), Optional.of(bind), Optional.of(oncePerMinute)))
                        .isInstanceOf(PluginStartException.class)
                        .hasMessageContaining("(--metrics-bind-address)");
            }
        }
        assertThat(root.resolve("dp")).doesNotExist();
    }

    @Test
    void settingsRejectAnUnknownBackendAndAMissingNodeName() {
        assertThatThrownBy(() ->
                        PluginRun.settings("ascend", "n1", root, MockVendor.install(root.resolve("m"), "nvidia"), root))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown backend ascend; one of [cambricon, hygon, nvidia]");
        assertThatThrownBy(() ->
                        PluginRun.settings("nvidia", " ", root, MockVendor.install(root.resolve("m"), "nvidia"), root))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the node name is required: pass it or set NODE_NAME");
    }
}
