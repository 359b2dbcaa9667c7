package io.hami.scheduler.leader;

import static io.hami.scheduler.SchedulerFixture.container;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replicas that follow kube-scheduler's Lease lead exactly while the kube-scheduler of their own pod holds it. */
class LeaderFollowTest {
    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    static final String NS = "hami-system";
    static final String LEASE = "hami-kube-scheduler";

    static Lease lease(String holder, Instant renewed, Integer seconds) {
        return new LeaseBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(LEASE)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity(holder)
                .withLeaseDurationSeconds(seconds)
                .withRenewTime(renewed == null ? null : ZonedDateTime.ofInstant(renewed, ZoneOffset.UTC))
                .endSpec()
                .build();
    }

    @Test
    void heldOnlyByAFreshHolderOnThisPod() {
        assertThat(Leadership.heldBy(
                        lease("sched-7f9c-abcde_0a1b2c", NOW.minusSeconds(5), 15), "sched-7f9c-abcde", NOW))
                .isTrue();
        assertThat(Leadership.heldBy(lease("sched-7f9c-abcde", NOW.minusSeconds(5), 15), "sched-7f9c-abcde", NOW))
                .isTrue();
        // another pod, one whose name only starts like ours, an expired renewal
        assertThat(Leadership.heldBy(
                        lease("sched-7f9c-xyz12_0a1b2c", NOW.minusSeconds(5), 15), "sched-7f9c-abcde", NOW))
                .isFalse();
        assertThat(Leadership.heldBy(
                        lease("sched-7f9c-abcdef_0a1b2c", NOW.minusSeconds(5), 15), "sched-7f9c-abcde", NOW))
                .isFalse();
        assertThat(Leadership.heldBy(
                        lease("sched-7f9c-abcde_0a1b2c", NOW.minusSeconds(15), 15), "sched-7f9c-abcde", NOW))
                .isFalse();
        // a Lease without duration counts kube-scheduler's default of 15 s
        assertThat(Leadership.heldBy(lease("p_1", NOW.minusSeconds(14), null), "p", NOW))
                .isTrue();
        assertThat(Leadership.heldBy(lease("p_1", NOW.minusSeconds(16), null), "p", NOW))
                .isFalse();
        // nothing to follow
        assertThat(Leadership.heldBy(null, "p", NOW)).isFalse();
        assertThat(Leadership.heldBy(lease(null, NOW, 15), "p", NOW)).isFalse();
        assertThat(Leadership.heldBy(lease("p_1", null, 15), "p", NOW)).isFalse();
    }

    static SchedulerApp replica(EmbeddedApiServer server, String pod) throws Exception {
        var s = new SchedulerApp.Settings(
                new Settings.Http(new InetSocketAddress("127.0.0.1", 0)),
                new Settings.Scheduling(
                        "hami-scheduler",
                        SchedulingPolicy.UPSTREAM_DEFAULTS,
                        Duration.ofMinutes(5),
                        DeviceConfig.DEFAULTS),
                new Settings.Replica(new LeaderMode.Follow(NS, LEASE, pod), Duration.ofHours(1)),
                new Settings.Metrics(null, "test"));
        return SchedulerApp.start(server.newClient(), s, new PrometheusRegistry(), Clock.systemUTC());
    }

    @Test
    void leadershipMovesWithKubeSchedulersLeaseAndEveryReplicaIsReady() throws Exception {
        try (var server = EmbeddedApiServer.start();
                KubernetesClient admin = server.newClient()) {
            // a minute, so that a slow start of the replicas does not outlast it
            admin.resources(Lease.class)
                    .inNamespace(NS)
                    .resource(lease("pod-a_4f1c", Instant.now(), 60))
                    .create();
            try (var a = replica(server, "pod-a");
                    var b = replica(server, "pod-b")) {
                await().atMost(Patience.seconds(30)).until(a::isLeader);
                assertThat(b.isLeader()).isFalse();
                assertThat(LeaderElectionTest.readyz(a)).isEqualTo(200);
                assertThat(LeaderElectionTest.readyz(b)).isEqualTo(200);
                var pod = new PodBuilder()
                        .withNewMetadata()
                        .withNamespace("default")
                        .withName("p")
                        .endMetadata()
                        .withNewSpec()
                        .withContainers(container("c", "nvidia.com/gpu", "1"))
                        .endSpec()
                        .build();
                assertThat(b.extender()
                                .filter(new ExtenderArgs(pod, null, List.of("n")))
                                .error())
                        .contains("not the leader");

                // kube-scheduler of pod-b took the Lease over
                admin.resources(Lease.class)
                        .inNamespace(NS)
                        .resource(lease("pod-b_77e0", Instant.now(), 60))
                        .update();
                await().atMost(Patience.seconds(30)).until(() -> b.isLeader() && !a.isLeader());
                assertThat(b.extender()
                                .filter(new ExtenderArgs(pod, null, List.of("n")))
                                .error())
                        .doesNotContain("not the leader");

                // pod-b's kube-scheduler stops renewing: its Lease runs out and nobody leads
                admin.resources(Lease.class)
                        .inNamespace(NS)
                        .resource(lease("pod-b_77e0", Instant.now().minusSeconds(59), 60))
                        .update();
                await().atMost(Patience.seconds(30)).until(() -> !b.isLeader() && !a.isLeader());
            }
        }
    }
}
