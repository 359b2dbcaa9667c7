package io.hami.scheduler.handshake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.LegacyRegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Design D3 (docs/design.md#d3) on the API server: stamps, expiry with and without allocatable devices, recovery. With
 * nothing allocatable the register is above what the node allows (design D9), so the vendor is out there whatever the
 * handshake says.
 */
class HandshakeLoopTest {
    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-08-01T06:00:00Z"));
    final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    @Test
    void unansweredHandshakeWithNoAllocatableWithdrawsTheVendorUntilThePluginAnswers() throws Exception {
        try (var server = EmbeddedApiServer.start();
                var client = server.newClient()) {
            var hcu = new DeviceInfo("HCU-1", 0, 10, 16000, 100, "HCU-Z100", 0, "hami-core", true);
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("n")
                            .addToAnnotations("hami.io/node-hcu-register", LegacyRegisterCodec.encode(List.of(hcu)))
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable("hygon.com/hcunum", new Quantity("0"))
                            .endStatus()
                            .build())
                    .create();
            try (var app = SchedulerApp.start(
                    client,
                    SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5)),
                    new PrometheusRegistry(),
                    clock)) {
                await().atMost(Patience.seconds(10))
                        .until(() -> app.index().nodeNames().contains("n"));
                // Design D9: nothing allocatable, so the register claims more than the node allows and the vendor is
                // out whatever the handshake says; the handshake itself runs as design D3 has it.
                assertThat(hcuDevices(app)).as("register above Allocatable").isZero();

                app.handshake().round();
                await().atMost(Patience.seconds(15))
                        .untilAsserted(() -> assertThat(handshake(client)).isEqualTo("Requesting_2026-08-01 06:00:00"));

                now.set(now.get().plusSeconds(60));
                app.handshake().round();
                assertThat(handshake(client))
                        .as("within 60 s the plugin still has time")
                        .isEqualTo("Requesting_2026-08-01 06:00:00");

                now.set(now.get().plusSeconds(1));
                app.handshake().round();
                await().atMost(Patience.seconds(15)).until(() -> handshake(client) == null);
                assertThat(hcuDevices(app))
                        .as("expired and nothing allocatable: withdrawn")
                        .isZero();

                // The plugin comes back: it answers and the kubelet advertises devices again.
                client.nodes()
                        .withName("n")
                        .edit(n -> new NodeBuilder(n)
                                .editMetadata()
                                .addToAnnotations("hami.io/node-handshake-hcu", "Reported_2026-08-01 06:01:01")
                                .endMetadata()
                                .editStatus()
                                .addToAllocatable("hygon.com/hcunum", new Quantity("10"))
                                .endStatus()
                                .build());
                await().atMost(Patience.seconds(15))
                        .until(() -> "Reported_2026-08-01 06:01:01".equals(handshake(client)));
                await().atMost(Patience.seconds(15)).until(() -> {
                    app.handshake().round();
                    return hcuDevices(app) == 1;
                });
                assertThat(handshake(client)).startsWith("Requesting_");
            }
        }
    }

    /** Design D3: a vendor's handshake runs only where it registered devices; nodes without it are never written for it. */
    @Test
    void aVendorsHandshakeNeverTouchesNodesWithoutThatVendor() throws Exception {
        try (var server = EmbeddedApiServer.start();
                var client = server.newClient()) {
            var gpu = new DeviceInfo("GPU-1", 0, 10, 16000, 100, "NVIDIA-A100", 0, "hami-core", true);
            var hcu = new DeviceInfo("HCU-1", 0, 10, 16000, 100, "HCU-Z100", 0, "hami-core", true);
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("nvidia-only")
                            .addToAnnotations("hami.io/node-nvidia-register", JsonRegisterCodec.encode(List.of(gpu)))
                            // left behind by an HCU plugin that is gone: deleted once, then never written again
                            .addToAnnotations("hami.io/node-handshake-hcu", "Reported_2026-08-01 05:00:00")
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable("nvidia.com/gpu", new Quantity("10"))
                            .endStatus()
                            .build())
                    .create();
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("hcu-only")
                            .addToAnnotations("hami.io/node-hcu-register", LegacyRegisterCodec.encode(List.of(hcu)))
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable("hygon.com/hcunum", new Quantity("10"))
                            .endStatus()
                            .build())
                    .create();
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("mlu-only")
                            .endMetadata()
                            .withNewStatus()
                            .addToCapacity("cambricon.com/mlu.smlu.vcore", new Quantity("100"))
                            .addToCapacity("cambricon.com/mlu.smlu.vmemory", new Quantity("96"))
                            .endStatus()
                            .build())
                    .create();
            try (var app = SchedulerApp.start(
                    client,
                    SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5)),
                    new PrometheusRegistry(),
                    clock)) {
                await().atMost(Patience.seconds(10))
                        .until(() -> app.index().nodeNames().size() == 3);
                app.handshake().round();
                await().atMost(Patience.seconds(15))
                        .until(() -> annotation(client, "nvidia-only", "hami.io/node-handshake-hcu") == null
                                && annotation(client, "hcu-only", "hami.io/node-handshake-hcu") != null);
                String nvidiaVersion = client.nodes()
                        .withName("nvidia-only")
                        .get()
                        .getMetadata()
                        .getResourceVersion();
                String mluVersion =
                        client.nodes().withName("mlu-only").get().getMetadata().getResourceVersion();
                String hcuOnlyNvidiaKey = annotation(client, "hcu-only", "hami.io/node-handshake");
                for (int round = 0; round < 3; round++) { // 45 s: the pending NVIDIA request does not expire yet
                    now.set(now.get().plusSeconds(15));
                    app.handshake().round();
                }
                // The NVIDIA handshake is still pending (nobody answers it here), so the NVIDIA node is not rewritten
                // either.
                assertThat(client.nodes()
                                .withName("nvidia-only")
                                .get()
                                .getMetadata()
                                .getAnnotations())
                        .doesNotContainKey("hami.io/node-handshake-hcu")
                        .containsKey("hami.io/node-handshake");
                assertThat(client.nodes()
                                .withName("nvidia-only")
                                .get()
                                .getMetadata()
                                .getResourceVersion())
                        .isEqualTo(nvidiaVersion);
                assertThat(client.nodes()
                                .withName("mlu-only")
                                .get()
                                .getMetadata()
                                .getResourceVersion())
                        .as("no vendor of the MLU node has a handshake: never written")
                        .isEqualTo(mluVersion);
                assertThat(hcuOnlyNvidiaKey)
                        .as("no NVIDIA handshake on an HCU-only node")
                        .isNull();
                assertThat(annotation(client, "hcu-only", "hami.io/node-handshake"))
                        .isNull();
            }
        }
    }

    static String annotation(io.fabric8.kubernetes.client.KubernetesClient client, String node, String key) {
        var a = client.nodes().withName(node).get().getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    @Test
    void aRequestWithAnUnreadableTimeExpiresAtOnceInsteadOfPendingForever() throws Exception {
        try (var server = EmbeddedApiServer.start();
                var client = server.newClient()) {
            var hcu = new DeviceInfo("HCU-1", 0, 10, 16000, 100, "HCU-Z100", 0, "hami-core", true);
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("n")
                            .addToAnnotations("hami.io/node-hcu-register", LegacyRegisterCodec.encode(List.of(hcu)))
                            .addToAnnotations("hami.io/node-handshake-hcu", "Requesting_2026.08.01 06:00")
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable("hygon.com/hcunum", new Quantity("0"))
                            .endStatus()
                            .build())
                    .create();
            try (var app = SchedulerApp.start(
                    client,
                    SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5)),
                    new PrometheusRegistry(),
                    clock)) {
                await().atMost(Patience.seconds(10))
                        .until(() -> app.index().nodeNames().contains("n"));
                // Before, such a value counted as pending at any age: it stayed, and the node kept devices no plugin
                // answered
                // for. Now it expires: withdrawn and deleted, and the next round asks again with a readable time.
                await().atMost(Patience.seconds(15)).until(() -> {
                    app.handshake().round();
                    return "Requesting_2026-08-01 06:00:00".equals(handshake(client));
                });
                assertThat(hcuDevices(app))
                        .as(
                                "a fresh request is pending, but nothing is allocatable: the register is above it (design D9)")
                        .isZero();
            }
        }
    }

    static int hcuDevices(SchedulerApp app) {
        return app.index()
                .snapshot("n")
                .map(s -> s.view().devicesOf("HCU").size())
                .orElse(0);
    }

    static String handshake(io.fabric8.kubernetes.client.KubernetesClient client) {
        var a = client.nodes().withName("n").get().getMetadata().getAnnotations();
        return a == null ? null : a.get("hami.io/node-handshake-hcu");
    }
}
