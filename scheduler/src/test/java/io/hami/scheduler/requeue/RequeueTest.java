package io.hami.scheduler.requeue;

import static io.hami.scheduler.SchedulerFixture.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.bind.AbandonedDecisions;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.webhook.AdmissionRules;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The requeue's rule with plain values: which pods, which vendors, coalescing, forgetting, failures. */
class RequeueTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);
    static final Instant T0 = Instant.parse("2026-12-01T03:00:00.123456Z");
    static final PodUsage.Counted GPU_HOLDER = new PodUsage.Counted(
            "n1", Map.of("GPU-0", new Grant(1, 8000, 100)), Map.of("NVIDIA", new Grant(1, 8000, 100)));
    static final PodUsage.Counted HCU_HOLDER = new PodUsage.Counted(
            "n2", Map.of("HCU-0", new Grant(1, 8000, 100)), Map.of("HCU", new Grant(1, 8000, 100)));

    /** Holds scheduled tasks until the test runs them. */
    static final class ManualTimer implements AbandonedDecisions.Timer {
        final List<Runnable> tasks = new ArrayList<>();
        final List<Duration> delays = new ArrayList<>();

        @Override
        public void schedule(Runnable task, Duration delay) {
            tasks.add(task);
            delays.add(delay);
        }

        void runAll() {
            var due = List.copyOf(tasks);
            tasks.clear();
            due.forEach(Runnable::run);
        }
    }

    record Patch(String pod, String value) {}

    final ManualTimer timer = new ManualTimer();
    final List<Patch> patches = new ArrayList<>();
    final Set<String> failing = new HashSet<>();
    final Set<String> deleted = new HashSet<>();
    final AtomicBoolean leader = new AtomicBoolean(true);
    final AtomicInteger nudged = new AtomicInteger();
    final MutableClock clock = new MutableClock(T0);

    static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    Requeue requeue(int perBurst, int remembered) {
        Requeue.Patcher patcher = (ns, name, value) -> {
            if (deleted.contains(name)) {
                throw new KubernetesClientException("pods \"" + name + "\" not found", 404, null);
            }
            if (failing.contains(name)) {
                throw new KubernetesClientException("etcdserver: request timed out", 500, null);
            }
            patches.add(new Patch(ns + "/" + name, value));
        };
        return new Requeue(BACKENDS, patcher, timer, leader::get, clock, nudged::incrementAndGet, perBurst, remembered);
    }

    static Pod pod(String name, Container... containers) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withContainers(containers)
                .endSpec()
                .build();
    }

    static Pod gpuPod(String name) {
        return pod(name, container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "8000"));
    }

    static Pod hcuPod(String name) {
        return pod(name, container("c", "hygon.com/hcunum", "1", "hygon.com/hcumem", "8000"));
    }

    static void unschedulable(Requeue r, Pod pod) {
        r.filtered(pod, List.of(), Map.of("n1", Denial.UNREGISTERED), Duration.ZERO);
    }

    List<String> patched() {
        return patches.stream().map(Patch::pod).toList();
    }

    @Test
    void aReleasePatchesThePodsWaitingForThatVendorOnce() {
        var r = requeue(100, 100);
        unschedulable(r, gpuPod("gpu-a"));
        unschedulable(r, hcuPod("hcu-a"));
        unschedulable(r, gpuPod("gpu-b"));
        unschedulable(r, pod("both", container("c", "nvidia.com/gpu", "1", "hygon.com/hcunum", "1")));
        assertThat(r.waiting().get("ns/both").vendors()).containsExactlyInAnyOrder("NVIDIA", "HCU");

        r.changed("ns/holder", GPU_HOLDER, new PodUsage.NotCounted(), false);
        assertThat(patches).as("nothing before the burst").isEmpty();
        assertThat(timer.delays).containsExactly(Requeue.COALESCE);
        timer.runAll();

        assertThat(patched()).containsExactly("ns/gpu-a", "ns/gpu-b", "ns/both");
        assertThat(patches).extracting(Patch::value).containsOnly("2026-12-01T03:00:00.123Z");
        assertThat(nudged.get()).isEqualTo(3);
        assertThat(r.waiting()).as("nudged pods still wait until they fit").hasSize(4);
    }

    @Test
    void releasesWithinTheWindowMakeOneBurstStampedWithTheLatest() {
        var r = requeue(100, 100);
        unschedulable(r, gpuPod("gpu-a"));
        unschedulable(r, hcuPod("hcu-a"));
        r.changed("ns/h1", GPU_HOLDER, new PodUsage.NotCounted(), false);
        clock.now = T0.plusMillis(50);
        r.changed("ns/h2", GPU_HOLDER, new PodUsage.NotCounted(), true);
        clock.now = T0.plusMillis(120);
        r.changed("ns/h3", HCU_HOLDER, new PodUsage.NotCounted(), false);
        assertThat(timer.tasks).as("one burst scheduled").hasSize(1);
        timer.runAll();
        assertThat(patches)
                .containsExactly(
                        new Patch("ns/gpu-a", "2026-12-01T03:00:00.243Z"),
                        new Patch("ns/hcu-a", "2026-12-01T03:00:00.243Z"));

        // the next release starts the next burst
        clock.now = T0.plusSeconds(5);
        r.changed("ns/h4", GPU_HOLDER, new PodUsage.NotCounted(), false);
        timer.runAll();
        assertThat(patches.getLast()).isEqualTo(new Patch("ns/gpu-a", "2026-12-01T03:00:05.123Z"));
    }

    @Test
    void changesThatReleaseNothingPatchNothing() {
        var r = requeue(100, 100);
        unschedulable(r, gpuPod("gpu-a"));
        r.changed("ns/new", new PodUsage.NotCounted(), GPU_HOLDER, false);
        r.changed("ns/same", GPU_HOLDER, GPU_HOLDER, false);
        r.changed("ns/pending", new PodUsage.NotCounted(), new PodUsage.NotCounted(), true);
        assertThat(timer.tasks).isEmpty();
        assertThat(patches).isEmpty();
    }

    @Test
    void podsAreForgottenWhenTheyFitHoldDevicesOrAreDeleted() {
        var r = requeue(100, 100);
        for (String name : List.of("fits", "bound", "deleted", "unreadable", "waits")) {
            unschedulable(r, gpuPod(name));
        }
        r.filtered(gpuPod("fits"), List.of("n1"), Map.of(), Duration.ZERO);
        r.changed("ns/bound", new PodUsage.NotCounted(), GPU_HOLDER, false);
        r.changed("ns/deleted", new PodUsage.NotCounted(), new PodUsage.NotCounted(), true);
        r.changed("ns/unreadable", new PodUsage.NotCounted(), new PodUsage.Undecodable("n1", "bad"), false);
        r.changed("ns/waits", new PodUsage.NotCounted(), new PodUsage.NotCounted(), false); // our own patch
        assertThat(r.waiting()).containsOnlyKeys("ns/waits");

        r.changed("ns/holder", GPU_HOLDER, new PodUsage.NotCounted(), false);
        timer.runAll();
        assertThat(patched()).containsExactly("ns/waits");
    }

    @Test
    void aPodNoNodeCanEverFitIsNotRemembered() {
        var r = requeue(100, 100);
        unschedulable(r, pod("huge", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "99999999999")));
        assertThat(r.waiting()).isEmpty();
    }

    @Test
    void aBurstPatchesAtMostItsCapLongestWaitingFirstAndTheRestNextTime() {
        var r = requeue(2, 100);
        for (String name : List.of("p1", "p2", "p3")) {
            unschedulable(r, gpuPod(name));
        }
        r.changed("ns/h1", GPU_HOLDER, new PodUsage.NotCounted(), false);
        timer.runAll();
        assertThat(patched()).containsExactly("ns/p1", "ns/p2");
        r.changed("ns/h2", GPU_HOLDER, new PodUsage.NotCounted(), false);
        timer.runAll();
        assertThat(patched()).containsExactly("ns/p1", "ns/p2", "ns/p3", "ns/p1");
    }

    @Test
    void aFollowerPatchesNothing() {
        var r = requeue(100, 100);
        unschedulable(r, gpuPod("gpu-a"));
        leader.set(false);
        r.changed("ns/h1", GPU_HOLDER, new PodUsage.NotCounted(), false);
        timer.runAll();
        assertThat(patches).isEmpty();
        leader.set(true);
        r.changed("ns/h2", GPU_HOLDER, new PodUsage.NotCounted(), false);
        timer.runAll();
        assertThat(patched())
                .as("the releases a follower saw are not carried over")
                .containsExactly("ns/gpu-a");
    }

    @Test
    void aFailedPatchIsNotRetriedAndADeletedPodIsForgotten() {
        var r = requeue(100, 100);
        for (String name : List.of("gone", "flaky", "fine")) {
            unschedulable(r, gpuPod(name));
        }
        deleted.add("gone");
        failing.add("flaky");
        r.changed("ns/h1", GPU_HOLDER, new PodUsage.NotCounted(), false);
        timer.runAll();
        assertThat(patched()).containsExactly("ns/fine");
        assertThat(nudged.get()).isEqualTo(1);
        assertThat(timer.tasks).as("no retry scheduled").isEmpty();
        assertThat(r.waiting()).containsOnlyKeys("ns/flaky", "ns/fine");

        failing.clear();
        r.changed("ns/h2", GPU_HOLDER, new PodUsage.NotCounted(), false);
        timer.runAll();
        assertThat(patched()).containsExactly("ns/fine", "ns/flaky", "ns/fine");
    }

    @Test
    void theNudgeIsNoProtocolKeyTheWebhookRefuses() {
        Pod carrying = new PodBuilder(gpuPod("user"))
                .editMetadata()
                .addToAnnotations(ProtocolKeys.REQUEUE_AFTER_RELEASE, "2026-12-01T03:00:00Z")
                .endMetadata()
                .build();
        assertThat(new AdmissionRules(BACKENDS, "hami-scheduler").review(carrying))
                .isInstanceOf(AdmissionRules.Verdict.Allowed.class);
    }

    @Test
    void theStampIsRfc3339InUtcToTheMillisecond() {
        assertThat(Requeue.stamp(T0)).isEqualTo("2026-12-01T03:00:00.123Z");
        assertThat(Requeue.stamp(Instant.parse("2026-12-01T03:00:00Z"))).isEqualTo("2026-12-01T03:00:00Z");
    }
}
