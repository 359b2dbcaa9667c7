package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hami.plugin.PluginApp;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.kubeletapi.Empty;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.testing.PluginFixture;
import io.hami.protocol.testing.Patience;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Registration on kubelet.sock (design D7 in docs/design.md#d7, docs/upstream.md#plugin-registration) with a test
 * kubelet over real sockets.
 */
class RegistrationTest {
    static final String RESOURCE = "nvidia.com/gpu";
    static final Duration WAIT = Patience.seconds(15);

    @RegisterExtension
    final PluginFixture node = new PluginFixture("n1", Duration.ofMinutes(5), false);

    @Test
    void registersWithVersionEndpointResourceAndOptionsThenServesItsList() {
        node.kubelet().start();
        try (PluginApp plugin = node.start("nvidia")) {
            assertThat(node.kubelet().registrations()).hasSize(1);
            RegisterRequest r = node.kubelet().registrations().getFirst();
            assertThat(r.getVersion()).isEqualTo("v1beta1");
            assertThat(r.getEndpoint()).isEqualTo("nvidia-gpu.sock");
            assertThat(r.getResourceName()).isEqualTo(RESOURCE);
            assertThat(r.getOptions().getGetPreferredAllocationAvailable()).isTrue();
            assertThat(r.getOptions().getPreStartRequired()).isFalse();
            assertThat(node.kubelet().options(RESOURCE)).isEqualTo(r.getOptions());
            assertThat(node.pluginDir().resolve("nvidia-gpu.sock")).exists();
            // 2 GPUs, 10 replicas each
            assertThat(node.kubelet()
                            .awaitList(RESOURCE, l -> l.getDevicesCount() == 20, WAIT)
                            .getDevicesList())
                    .allMatch(d -> d.getHealth().equals("Healthy") && !d.hasTopology())
                    .extracting(Device::getID)
                    .contains(
                            "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000-0", "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001-9");
            assertThat(plugin.registrations()).isEqualTo(1);
        }
    }

    @Test
    void retriesUntilTheKubeletAppears() throws Exception {
        try (PluginApp plugin = PluginApp.start(node.cluster().client(), node.settings("nvidia"), Clock.systemUTC())) {
            // several failed attempts: no kubelet.sock yet
            await().atMost(WAIT).until(() -> plugin.failedRegistrations() >= 3);
            assertThat(plugin.registrations()).isZero();
            node.kubelet().start();
            assertThat(plugin.awaitRegistered(WAIT)).isTrue();
            assertThat(node.kubelet().registrations())
                    .extracting(RegisterRequest::getResourceName)
                    .containsExactly(RESOURCE);
        }
    }

    @Test
    void aKubeletRestartLeadsToANewSocketAndRegistration() throws Exception {
        node.kubelet().start();
        try (PluginApp plugin = node.start("nvidia")) {
            node.kubelet().restart(); // removes nvidia-gpu.sock, creates kubelet.sock again

            await().atMost(WAIT).until(() -> node.kubelet().registrations().size() >= 2);
            // The restart's remaining file events must not register once more: the round that registered and two
            // more after it have run (each drains the directory's events, then registers what is pending).
            int rounds = plugin.registrationRounds();
            await().atMost(WAIT).until(() -> plugin.registrationRounds() >= rounds + 3);
            assertThat(node.pluginDir().resolve("nvidia-gpu.sock")).exists();
            assertThat(node.kubelet()
                            .awaitList(RESOURCE, l -> l.getDevicesCount() == 20, WAIT)
                            .getDevicesCount())
                    .isEqualTo(20);
            assertThat(plugin.registrations()).isEqualTo(2);
            assertThat(node.kubelet().registrations()).hasSize(2);
        }
    }

    @Test
    void aRemovedSocketIsServedAgainAndRegistered() throws Exception {
        node.kubelet().start();
        try (PluginApp plugin = node.start("nvidia")) {
            Files.delete(node.pluginDir().resolve("nvidia-gpu.sock"));

            // the kubelet records a registration before it answers; the plugin counts it on the answer
            await().atMost(WAIT).until(() -> node.kubelet().registrations().size() == 2 && plugin.registrations() == 2);
            assertThat(node.pluginDir().resolve("nvidia-gpu.sock")).exists();
            assertThat(node.kubelet()
                            .plugin(RESOURCE)
                            .getDevicePluginOptions(Empty.getDefaultInstance())
                            .getGetPreferredAllocationAvailable())
                    .isTrue();
            assertThat(plugin.registrations()).isEqualTo(2);
        }
    }

    @Test
    void closingStopsTheServerAndRemovesTheSocket() {
        node.kubelet().start();
        PluginApp plugin = node.start("nvidia");
        assertThat(node.pluginDir().resolve("nvidia-gpu.sock")).exists();

        plugin.close();

        assertThat(node.pluginDir().resolve("nvidia-gpu.sock")).doesNotExist();
        assertThat(node.pluginDir().resolve("kubelet.sock")).exists();
    }
}
