package io.hami.plugin.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.plugin.PluginApp;
import io.hami.plugin.PluginStartException;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.protocol.config.DeviceConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/** Starts a real plugin for a test: the vendor's mock library, the test kubelet's directory, short timings. */
public final class PluginRun {
    /** Short enough for tests, long enough for 2 busy cores. */
    public static final Timings FAST = new Timings(
            Duration.ofMillis(300),
            Duration.ofMillis(100),
            Duration.ofMillis(100),
            Duration.ofMillis(50),
            Duration.ofMillis(300),
            Duration.ofMillis(100),
            Duration.ofMillis(200));

    private PluginRun() {}

    public static PluginApp.Settings settings(
            String backend, String node, Path kubeletDir, MockVendor mock, Path root) {
        return new PluginApp.Settings(
                backend,
                node,
                null,
                kubeletDir,
                mock.dir(),
                DeviceConfig.DEFAULTS,
                Sharing.NONE,
                HostPaths.under(root),
                FAST);
    }

    public static PluginApp start(KubernetesClient client, PluginApp.Settings settings) {
        try {
            PluginApp app = PluginApp.start(client, settings, Clock.systemUTC());
            if (!app.awaitRegistered(Duration.ofSeconds(20))) {
                app.close();
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
