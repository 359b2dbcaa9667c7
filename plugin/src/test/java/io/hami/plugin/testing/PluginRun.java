package io.hami.plugin.testing;

import io.hami.plugin.PluginApp;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.protocol.config.DeviceConfig;
import java.nio.file.Path;
import java.time.Duration;

/** The settings of a real plugin in a test: the vendor's mock library, the test kubelet's directory, short timings. */
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
}
