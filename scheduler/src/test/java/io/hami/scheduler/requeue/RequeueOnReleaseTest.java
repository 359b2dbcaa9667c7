package io.hami.scheduler.requeue;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static io.hami.scheduler.SchedulerFixture.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The requeue against the embedded API server: pods our filter found unschedulable get the annotation when the
 * informers report devices of their vendor released, exactly those and nothing else; off, nothing is patched.
 */
class RequeueOnReleaseTest {
    static final JsonMapper JSON = JsonMapper.builder().build();

    static SchedulerApp.Settings settings(boolean requeue) {
        var s = SchedulerFixture.settings(new SchedulingPolicy("binpack", "spread"), Duration.ofMinutes(5));
        return new SchedulerApp.Settings(
                s.http(),
                s.scheduling(),
                new SchedulerApp.Settings.Replica(new LeaderMode.Always(), Duration.ofHours(1), requeue),
                s.metrics());
    }

    /** A pod on {@code node} holding a whole device, as the plugins leave it after Allocate. */
    static Pod holder(SchedulerFixture f, String name, String node, String allocatedKey, String entry) {
        var pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName(name)
                .addToAnnotations(allocatedKey, entry)
                .addToAnnotations(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_SUCCESS)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("hami-scheduler")
                .withNodeName(node)
                .withContainers(container("c"))
                .endSpec()
                .build();
        return f.client.pods().inNamespace("default").resource(pod).create();
    }

    static void fill(SchedulerFixture f) {
        f.nvidiaNode("gpu-1", gpu("GPU-r0", 0, 8000));
        f.hcuNode("hcu-1", new DeviceInfo("HCU-r0", 0, 10, 8000, 100, "HCU-Z100", 0, "hami-core", true));
        f.awaitNodes("gpu-1", "hcu-1");
        holder(f, "gpu-holder", "gpu-1", "hami.io/vgpu-devices-allocated", "GPU-r0,NVIDIA,8000,100:;");
        holder(f, "hcu-holder", "hcu-1", "hami.io/hcu-devices-allocated", "HCU-r0,HCU-Z100,8000,100:;");
        await().atMost(Patience.seconds(30))
                .until(() -> f.app.index()
                                        .snapshot("gpu-1")
                                        .orElseThrow()
                                        .view()
                                        .devices()
                                        .get("NVIDIA")
                                        .getFirst()
                                        .usedmem()
                                == 8000
                        && f.app.index()
                                        .snapshot("hcu-1")
                                        .orElseThrow()
                                        .view()
                                        .devices()
                                        .get("HCU")
                                        .getFirst()
                                        .usedmem()
                                == 8000);
    }

    /** Filters {@code pod} over both nodes and checks that it fits nowhere. */
    static void unschedulable(SchedulerFixture f, Pod pod) throws Exception {
        var r = f.post("/filter", "{\"Pod\":" + f.podJson(pod) + ",\"NodeNames\":" + names("gpu-1", "hcu-1") + "}");
        assertThat(JSON.readTree(r.body()).get("NodeNames").size()).as(r.body()).isZero();
    }

    /** Waits until the requeue has ended a burst more than {@code bursts}: every patch of it is on the server. */
    static void awaitBurstsAfter(SchedulerFixture f, long bursts) {
        await("the release's burst ended")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> f.app.requeue().bursts() > bursts);
    }

    static String nudge(SchedulerFixture f, String pod) {
        Map<String, String> a = f.annotations(pod);
        return a == null ? null : a.get(ProtocolKeys.REQUEUE_AFTER_RELEASE);
    }

    @Test
    void aReleasePatchesExactlyThePodsWaitingForThatVendor() throws Exception {
        try (var f = new SchedulerFixture(settings(true))) {
            fill(f);
            Pod gpuA = f.pod("gpu-a", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "4000"));
            Pod gpuB = f.pod("gpu-b", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "8000"));
            Pod hcuA = f.pod("hcu-a", container("c", "hygon.com/hcunum", "1", "hygon.com/hcumem", "4000"));
            Pod neverAsked = f.pod("not-filtered", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "4000"));
            for (Pod p : List.of(gpuA, gpuB, hcuA)) {
                unschedulable(f, p);
            }
            assertThat(f.app.requeue().waiting()).containsOnlyKeys("default/gpu-a", "default/gpu-b", "default/hcu-a");

            Instant before = Instant.now().minusSeconds(1);
            long bursts = f.app.requeue().bursts();
            f.client
                    .pods()
                    .inNamespace("default")
                    .withName("gpu-holder")
                    .withGracePeriod(0)
                    .delete();
            await("the GPU pods nudged")
                    .atMost(Patience.seconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> nudge(f, "gpu-a") != null && nudge(f, "gpu-b") != null);
            Instant at = Instant.parse(nudge(f, "gpu-a"));
            assertThat(at).isBetween(before, Instant.now());
            assertThat(nudge(f, "gpu-b")).isEqualTo(nudge(f, "gpu-a"));
            // The release's burst has ended, each of its patches answered: one that wrongly chose hcu-a (or the
            // others) would have patched it by then.
            awaitBurstsAfter(f, bursts);
            assertThat(nudge(f, "hcu-a")).as("waits for another vendor").isNull();
            assertThat(nudge(f, neverAsked.getMetadata().getName()))
                    .as("never found unschedulable")
                    .isNull();
            assertThat(nudge(f, "hcu-holder")).isNull();

            // gpu-a fits now and is forgotten; the HCU release nudges hcu-a alone
            var r = f.post(
                    "/filter", "{\"Pod\":" + f.podJson(f.get("gpu-a")) + ",\"NodeNames\":" + names("gpu-1") + "}");
            assertThat(JSON.readTree(r.body()).get("NodeNames").size()).isOne();
            f.client.pods().inNamespace("default").withName("gpu-b").delete();
            await().atMost(Patience.seconds(30))
                    .until(() -> f.app.requeue().waiting().keySet().equals(java.util.Set.of("default/hcu-a")));
            String gpuAStamp = nudge(f, "gpu-a");
            bursts = f.app.requeue().bursts();
            f.client
                    .pods()
                    .inNamespace("default")
                    .withName("hcu-holder")
                    .withGracePeriod(0)
                    .delete();
            await("the HCU pod nudged")
                    .atMost(Patience.seconds(30))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> nudge(f, "hcu-a") != null);
            awaitBurstsAfter(f, bursts);
            assertThat(nudge(f, "gpu-a")).as("forgotten once it fit").isEqualTo(gpuAStamp);
        }
    }

    @Test
    void offNothingIsPatched() throws Exception {
        try (var f = new SchedulerFixture(settings(false))) {
            fill(f);
            Pod gpuA = f.pod("gpu-a", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "4000"));
            unschedulable(f, gpuA);
            assertThat(f.app.requeue()).isNull();
            f.client
                    .pods()
                    .inNamespace("default")
                    .withName("gpu-holder")
                    .withGracePeriod(0)
                    .delete();
            await().atMost(Patience.seconds(30))
                    .until(() -> f.app.index()
                                    .snapshot("gpu-1")
                                    .orElseThrow()
                                    .view()
                                    .devices()
                                    .get("NVIDIA")
                                    .getFirst()
                                    .usedmem()
                            == 0);
            // No wait: off, nothing is left that could nudge later. There is no Requeue (above), so none listens to
            // the index, which has had the release, nor has a timer; and Requeue's Patcher is the only writer of the
            // annotation.
            assertThat(nudge(f, "gpu-a")).isNull();
        }
    }
}
