package io.hami.scheduler.quota;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.hami.kube.lock.NodeLockClient;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.fit.Reasons;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** ResourceQuota limits on device memory and cores (docs/upstream.md#quota, #fit check 10). */
class QuotaTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    static ResourceQuota quota(String ns, String name, Map<String, String> hard) {
        var b = new ResourceQuotaBuilder()
                .withNewMetadata()
                .withNamespace(ns)
                .withName(name)
                .endMetadata()
                .withNewSpec();
        hard.forEach((k, v) -> b.addToHard(k, new Quantity(v)));
        return b.endSpec().build();
    }

    @Nested
    class Book {
        final UsageIndex index = new UsageIndex();
        final QuotaBook book = new QuotaBook(BACKENDS, index);

        @Test
        void theSmallestLimitOfTheNamespacesQuotasCountsLessWhatItsOtherPodsHold() {
            book.put(quota(
                    "team", "a", Map.of("limits.nvidia.com/gpumem", "20000", "limits.nvidia.com/gpucores", "100")));
            book.put(quota("team", "b", Map.of("limits.nvidia.com/gpumem", "12000", "requests.cpu", "4")));
            index.putPod(
                    "team/p1",
                    new PodUsage.Counted(
                            "n1", Map.of("G1", new Grant(1, 5000, 30)), Map.of("NVIDIA", new Grant(1, 5000, 30))));
            index.putPod(
                    "team/p2",
                    new PodUsage.Counted(
                            "n2", Map.of("G2", new Grant(1, 1000, 10)), Map.of("NVIDIA", new Grant(1, 1000, 10))));
            index.putPod(
                    "other/p",
                    new PodUsage.Counted(
                            "n1", Map.of("G1", new Grant(1, 9000, 50)), Map.of("NVIDIA", new Grant(1, 9000, 50))));

            assertThat(book.limits("team")).isTrue();
            assertThat(book.limits("other")).isFalse();
            assertThat(book.rooms("team", "team/new")).containsExactly(Map.entry("NVIDIA", new QuotaRoom(6000, 60)));
            // a pod bound again does not count against itself
            assertThat(book.rooms("team", "team/p1")).containsExactly(Map.entry("NVIDIA", new QuotaRoom(11000, 90)));
            assertThat(book.rooms("other", "other/x")).isEmpty();
            assertThat(book.lines())
                    .containsExactly(
                            new QuotaBook.Line("team", "nvidia.com/gpucores", 100, 40),
                            new QuotaBook.Line("team", "nvidia.com/gpumem", 12000, 6000));

            book.remove(quota("team", "b", Map.of()));
            assertThat(book.rooms("team", "team/new")).containsExactly(Map.entry("NVIDIA", new QuotaRoom(14000, 60)));
            book.put(quota("team", "a", Map.of("requests.cpu", "1")));
            assertThat(book.limits("team")).isFalse();
        }

        @Test
        void memoryLimitsCountInTheResourcesUnitsAndAZeroLimitIsALimit() {
            book.put(quota(
                    "mlu",
                    "q",
                    Map.of("limits.cambricon.com/mlu.smlu.vmemory", "8", "limits.cambricon.com/mlu.smlu.vcore", "0")));
            assertThat(book.rooms("mlu", "mlu/p")).containsExactly(Map.entry("MLU", new QuotaRoom(8 * 256, 0)));
        }

        @Test
        void aLimitThatIsNotAWholeNumberIsIgnored() {
            book.put(quota(
                    "team", "q", Map.of("limits.nvidia.com/gpumem", "1500m", "limits.nvidia.com/gpucores", "50")));
            assertThat(book.rooms("team", "team/p"))
                    .containsExactly(Map.entry("NVIDIA", new QuotaRoom(Long.MAX_VALUE, 50)));
        }
    }

    @Test
    void filterBindAndConcurrentBindsKeepTheNamespaceWithinItsQuota() throws Exception {
        try (var s = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS)) {
            s.client
                    .resourceQuotas()
                    .inNamespace("default")
                    .resource(quota("default", "gpu", Map.of("limits.nvidia.com/gpumem", "10000")))
                    .create();
            s.nvidiaNode("n1", gpu("GPU-1", 0, 40960));
            s.nvidiaNode("n2", gpu("GPU-2", 0, 40960));
            s.awaitNodes("n1", "n2");
            Pod tooBig = s.pod("too-big", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000"));
            var args = new ExtenderArgs(tooBig, null, List.of("n1", "n2"));
            // the quota reaches the scheduler through its informer
            await().atMost(Patience.seconds(30))
                    .until(() -> s.app.extender().filter(args).nodeNames().isEmpty());
            assertThat(s.app.extender().filter(args).failedNodes())
                    .containsExactly(
                            Map.entry("n1", "1/1 " + Reasons.RESOURCE_QUOTA_NOT_FIT),
                            Map.entry("n2", "1/1 " + Reasons.RESOURCE_QUOTA_NOT_FIT));
            Pod fits = s.pod("fits", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "9000"));
            assertThat(s.app.extender()
                            .filter(new ExtenderArgs(fits, null, List.of("n1", "n2")))
                            .nodeNames())
                    .containsExactly("n1", "n2");
            s.client.pods().inNamespace("default").withName("fits").delete();

            // six pods of 3000 MiB race for a quota of 10000 on two nodes: three fit, whatever the interleaving
            var pods = new ArrayList<Pod>();
            for (int i = 0; i < 6; i++) {
                pods.add(s.pod("p" + i, container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000")));
            }
            var pool = Executors.newFixedThreadPool(6);
            var results = new ArrayList<Future<Boolean>>();
            for (int i = 0; i < pods.size(); i++) {
                String name = pods.get(i).getMetadata().getName();
                String node = i % 2 == 0 ? "n1" : "n2";
                Callable<Boolean> bind = () -> bindRetryingLockContention(s, name, node);
                results.add(pool.submit(bind));
            }
            int bound = 0;
            for (var r : results) {
                bound += r.get() ? 1 : 0;
            }
            pool.shutdown();
            assertThat(bound).isEqualTo(3);
            assertThat(s.app.index()
                            .namespaceUsage("default", null)
                            .get("NVIDIA")
                            .mem())
                    .isEqualTo(9000);
        }
    }

    /**
     * Binds, retrying while the node is locked by an earlier bind (no plugin here releases it, so unlock as one would):
     * true once bound, false when refused for the quota.
     */
    private static boolean bindRetryingLockContention(SchedulerFixture s, String pod, String node) {
        String error = await("pod " + pod + " bound to " + node + " or refused for the quota")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(
                        () -> s.app.binder()
                                .bind(new BindingArgs(pod, "default", "", node))
                                .error(),
                        e -> e == null || e.isEmpty() || e.contains(Reasons.RESOURCE_QUOTA_NOT_FIT));
        if (error != null && !error.isEmpty()) {
            return false;
        }
        new NodeLockClient(s.client, Duration.ofMinutes(5), Clock.systemUTC()).release(node, "default", pod);
        return true;
    }
}
