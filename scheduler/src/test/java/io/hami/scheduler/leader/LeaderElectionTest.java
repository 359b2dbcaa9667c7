package io.hami.scheduler.leader;

import static io.hami.scheduler.SchedulerFixture.container;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two replicas on one Lease: one serves, the other says it is not the leader, and takes over when the first stops. */
class LeaderElectionTest {

    static SchedulerApp replica(EmbeddedApiServer server, String identity) throws Exception {
        var s = new SchedulerApp.Settings(
                new Settings.Http(new InetSocketAddress("127.0.0.1", 0)),
                new Settings.Scheduling(
                        "hami-scheduler",
                        SchedulingPolicy.UPSTREAM_DEFAULTS,
                        Duration.ofMinutes(5),
                        DeviceConfig.DEFAULTS),
                new Settings.Replica(
                        new LeaderMode.Elect("kube-system", "hami-scheduler", identity), Duration.ofHours(1)),
                new Settings.Metrics(null, "test"));
        return SchedulerApp.start(server.newClient(), s, new PrometheusRegistry(), Clock.systemUTC());
    }

    static int readyz(SchedulerApp app) throws Exception {
        var req = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + app.address().getPort() + "/readyz"))
                .build();
        return HttpClient.newHttpClient()
                .send(req, HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    @Test
    void onlyTheLeaderServesAndTheFollowerTakesOver() throws Exception {
        try (var server = EmbeddedApiServer.start()) {
            var a = replica(server, "replica-a");
            var b = replica(server, "replica-b");
            await().atMost(Patience.seconds(30)).until(() -> a.isLeader() || b.isLeader());
            var leader = a.isLeader() ? a : b;
            var follower = leader == a ? b : a;
            assertThat(follower.isLeader()).isFalse();
            assertThat(readyz(leader)).isEqualTo(200);
            assertThat(readyz(follower)).isEqualTo(503);

            var pod = new PodBuilder()
                    .withNewMetadata()
                    .withNamespace("default")
                    .withName("p")
                    .endMetadata()
                    .withNewSpec()
                    .withContainers(container("c", "nvidia.com/gpu", "1"))
                    .endSpec()
                    .build();
            assertThat(follower.extender()
                            .filter(new ExtenderArgs(pod, null, List.of("n")))
                            .error())
                    .contains("not the leader");
            assertThat(follower.binder()
                            .bind(new BindingArgs("p", "default", "", "n"))
                            .error())
                    .contains("not the leader");
            var lease = server.newClient()
                    .leases()
                    .inNamespace("kube-system")
                    .withName("hami-scheduler")
                    .get();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(leader == a ? "replica-a" : "replica-b");

            leader.close();
            await().atMost(Patience.seconds(30)).until(follower::isLeader);
            assertThat(readyz(follower)).isEqualTo(200);
            follower.close();
        }
    }

    @Test
    void twoReplicasOnOneHostWithoutAPodNameNeverBothLead() throws Exception {
        try (var server = EmbeddedApiServer.start()) {
            // Before, both took the hostname as identity, and each took the Lease held under it as its own.
            var a = replica(server, ElectionIdentity.of(null, "same-host"));
            var b = replica(server, ElectionIdentity.of(null, "same-host"));
            await().atMost(Patience.seconds(30)).until(() -> a.isLeader() || b.isLeader());
            // over several retry periods (2 s) of the other replica, it never takes the Lease as its own
            await().during(Duration.ofSeconds(6))
                    .atMost(Patience.seconds(10))
                    .until(() -> !(a.isLeader() && b.isLeader()));
            a.close();
            b.close();
        }
    }
}
