package io.hami.plugin.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnixSocketsTest {
    @Test
    void aPathTheKernelCannotBindIsRefusedWithItsLength(@TempDir Path dir) {
        Path deep = dir.resolve("d".repeat(120)).resolve("nvidia-gpu.sock");
        try (var sockets = new UnixSockets()) {
            var server = new ResourceServer(deep, new DevicePluginGrpc.DevicePluginImplBase() {}, sockets);
            assertThatThrownBy(server::start)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(deep.toString())
                    .hasMessageContaining("at most 107");
            assertThatThrownBy(() -> sockets.channel(deep)).hasMessageContaining("at most 107");
        }
    }

    @Test
    void theLongestPathTheKernelAcceptsServes(@TempDir Path dir) throws Exception {
        String base = dir.toString() + "/";
        Path longest = Path.of(base + "s".repeat(UnixSockets.MAX_PATH_BYTES - base.length()));
        assertThat(longest.toString()).hasSize(UnixSockets.MAX_PATH_BYTES);
        try (var sockets = new UnixSockets()) {
            var server = new ResourceServer(longest, new DevicePluginGrpc.DevicePluginImplBase() {}, sockets);
            server.start();
            try {
                assertThat(Files.exists(longest)).isTrue();
                assertThat(server.isServing()).isTrue();
            } finally {
                server.close();
            }
        }
    }
}
