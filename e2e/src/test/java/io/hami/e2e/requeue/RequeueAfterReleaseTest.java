package io.hami.e2e.requeue;

import static io.hami.e2e.support.Cluster.container;
import static io.hami.e2e.support.Cluster.gpu;
import static io.hami.e2e.support.Cluster.onNode;
import static io.hami.e2e.support.Cluster.pod;
import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.kubelet.ContainerRuntime;
import io.hami.lab.kubelet.PodStatusWriter;
import io.hami.lab.kubelet.SyntheticKubelet;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.leader.LeaderMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14 point 4 (upstream #1368) with the real kube-scheduler: one node with one GPU, pod A holds it, pod B is
 * unschedulable (our filter rejects it, kube-scheduler parks it under the pseudo-plugin "Extender"); when A's devices
 * are released, how long B waits to be bound, with {@code --requeue-on-release} on and then off in the same run (a
 * scheduler and kube-scheduler each). Two releases: A ends (phase Succeeded, which kube-scheduler also sees as an event
 * that moves B), measured over several rounds; and a decision abandoned (a reservation of a pod that was never bound
 * marked {@code failed}), which kube-scheduler has no event for, so only the nudge moves B. The handshake period is an
 * hour, so no node annotation write wakes B. Figures are printed; before each release the test waits until B's backoff
 * in kube-scheduler (1 s doubling to 10 s per attempt, counted from its last attempt, both read from kube-scheduler's
 * log) has run out, so that the release's event, where there is one, sends it straight to /filter.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 12, unit = TimeUnit.MINUTES)
class RequeueAfterReleaseTest {
    static final String NS = "e2e-requeue";
    static final String NODE = "requeue-gpu";
    static final String GPU = "GPU-requeue-0";
    /** Rounds with the requeue on; off rounds each cost {@link #OFF_CAP}, so one by default ({@code -Drequeue.offRounds}). */
    static final int ROUNDS = Integer.getInteger("requeue.rounds", 3);

    static final int OFF_ROUNDS = Integer.getInteger("requeue.offRounds", 1);
    /**
     * kube-scheduler's podMaxBackoffSeconds (10 s) plus a margin, the margin scaled by {@link Patience} (our informer,
     * the nudge's patch, kube-scheduler's queue and our filter and bind all run slower on a loaded machine): the bound
     * of a nudged pod's wait, far below the 5-minute flush an un-nudged pod waits for.
     */
    static final Duration NUDGED_WITHIN = Duration.ofSeconds(10).plus(Patience.seconds(15));
    /**
     * How long an "off" round waits for B before giving up (kube-scheduler's own flush comes after 5 minutes); only
     * printed, so a wait limit, scaled.
     */
    static final Duration OFF_CAP = Patience.seconds(20);
    /**
     * How long B is shown to stay pending without the nudge when kube-scheduler has no event: asserted of the system
     * (nothing moves B), so not scaled.
     */
    static final Duration NO_EVENT_WAIT = Duration.ofSeconds(15);
    /** kube-scheduler's podInitialBackoffSeconds and podMaxBackoffSeconds: deploy/'s configuration keeps the defaults. */
    static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);

    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    /**
     * kube-scheduler writes an attempt's log line just before it stamps the pod's queue entry, the time its backoff
     * counts from (handleSchedulingFailure, then AddUnschedulablePodIfNotPresent): a clock margin, not a wait.
     */
    static final Duration LOG_TO_QUEUE = Duration.ofMillis(250);

    static KubeControlPlane plane;
    static KubernetesClient admin;

    /**
     * One round: B's wait after the release (null: not bound within the cap), whether B carries the nudge, and how
     * often kube-scheduler tried B after the release and our filter rejected it (from kube-scheduler's log).
     */
    record Round(Duration waited, boolean nudged, long rejectedAfterRelease) {}

    /** One scheduler's figures: rounds where A ended, and the abandoned decision. */
    record Phase(List<Round> ended, Round abandoned) {}

    @BeforeAll
    static void node() {
        plane.ensureNamespace(NS);
        NodeLifecycle.createReady(admin, Cluster.nvidia(NODE, gpu(GPU, 0, 8000, "NVIDIA-A10")));
    }

    @AfterAll
    static void cleanUp() {
        ClusterOps.deletePods(admin, NS);
        ClusterOps.deleteNodes(admin, List.of(NODE));
    }

    @Test
    void pendingPodsAreRetriedWhenDevicesFree(@TempDir Path dir) throws Exception {
        Phase on = phase(true, dir.resolve("on"));
        Phase off = phase(false, dir.resolve("off"));
        System.out.println("[requeue] B's wait after A ended (phase Succeeded), " + ROUNDS + " rounds on, " + OFF_ROUNDS
                + " off:");
        System.out.println("[requeue]   --requeue-on-release=true : " + figures(on.ended()));
        System.out.println("[requeue]   --requeue-on-release=false: " + figures(off.ended()));
        System.out.println("[requeue] B's wait after a reservation was abandoned (kube-scheduler sees no event):");
        System.out.println("[requeue]   --requeue-on-release=true : " + figures(List.of(on.abandoned())));
        System.out.println("[requeue]   --requeue-on-release=false: " + figures(List.of(off.abandoned())) + " (waited "
                + NO_EVENT_WAIT.toSeconds() + " s)");

        assertThat(on.ended())
                .as("with the requeue, B binds within kube-scheduler's longest backoff and a margin")
                .allSatisfy(r -> assertThat(r.waited()).isNotNull().isLessThanOrEqualTo(NUDGED_WITHIN));
        assertThat(on.abandoned().waited())
                .as("nudged after the abandoned reservation")
                .isNotNull()
                .isLessThanOrEqualTo(NUDGED_WITHIN);
        assertThat(on.abandoned().nudged())
                .as("B carries hami.io/requeue-after-release")
                .isTrue();
        assertThat(off.abandoned().waited())
                .as("without the requeue nothing moves B: it waits for another event or the 5-minute flush")
                .isNull();
        assertThat(off.abandoned().nudged()).isFalse();
        assertThat(off.ended()).allSatisfy(r -> assertThat(r.nudged()).isFalse());
    }

    private static Phase phase(boolean requeue, Path dir) throws Exception {
        String tag = requeue ? "on" : "off";
        try (var scheduler = HamiScheduler.start(
                        plane,
                        plane.adminConfig(),
                        new Settings.Replica(new LeaderMode.Always(), Duration.ofHours(1), requeue),
                        dir);
                KubernetesClient kubelet = plane.newClient();
                var plugins = new SyntheticKubelet(
                        kubelet,
                        Set.of(NODE),
                        DeviceBackends.load(DeviceConfig.DEFAULTS),
                        new NodeLockClient(kubelet, Duration.ofMinutes(5), Clock.systemUTC()),
                        new ContainerRuntime(new PodStatusWriter(kubelet)))) {
            ClusterOps.awaitIndexed(scheduler, List.of(NODE));
            Path log = scheduler.startKubeScheduler(plane, null).log();
            var rounds = new ArrayList<Round>();
            for (int i = 1; i <= (requeue ? ROUNDS : OFF_ROUNDS); i++) {
                rounds.add(podEnds(scheduler, log, tag + "-" + i, requeue ? NUDGED_WITHIN : OFF_CAP));
            }
            return new Phase(
                    rounds, reservationAbandoned(scheduler, log, tag, requeue ? NUDGED_WITHIN : NO_EVENT_WAIT));
        }
    }

    /** A runs on the GPU, B waits for it; A ends. */
    private static Round podEnds(HamiScheduler scheduler, Path log, String tag, Duration cap) throws Exception {
        String a = "a-" + tag;
        String b = "b-" + tag;
        create(a);
        Pod running = await(a + " running")
                .atMost(Patience.seconds(45))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> get(a),
                        p -> p.getStatus() != null
                                && "Running".equals(p.getStatus().getPhase()));
        create(b);
        awaitUnschedulable(b);
        awaitBackoffRunOut(log, b);

        Instant end = Instant.now();
        new PodStatusWriter(admin).succeeded(running);
        Round round = awaitBound(log, b, end, cap);
        cleanUp(scheduler, a, b);
        return round;
    }

    /**
     * A pod of another scheduler holds the GPU through a reservation (the decision of a bind in flight: {@code
     * bind-phase=allocating}, never bound); B waits; the reservation is then marked failed, as a bind that failed
     * after writing its decision leaves it. kube-scheduler ignores the other scheduler's pod, so it has no event.
     */
    private static Round reservationAbandoned(HamiScheduler scheduler, Path log, String tag, Duration cap)
            throws Exception {
        String held = "held-" + tag;
        String b = "b-abandoned-" + tag;
        admin.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(onNode(
                                pod(NS, held, container("cuda", "nvidia.com/gpu", "1"))
                                        .build(),
                                NODE))
                        .editMetadata()
                        .addToAnnotations(ProtocolKeys.VGPU_NODE, NODE)
                        .addToAnnotations(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING)
                        .addToAnnotations("hami.io/vgpu-devices-allocated", GPU + ",NVIDIA,8000,100:;")
                        .endMetadata()
                        .editSpec()
                        .withSchedulerName("e2e-nobody")
                        .endSpec()
                        .build())
                .create();
        await("reservation indexed")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> usedMem(scheduler) == 8000);
        create(b);
        awaitUnschedulable(b);
        awaitBackoffRunOut(log, b);

        Instant end = Instant.now();
        admin.pods()
                .inNamespace(NS)
                .withName(held)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"" + ProtocolKeys.BIND_PHASE + "\":\""
                                + ProtocolKeys.PHASE_FAILED + "\"}}}");
        Round round = awaitBound(log, b, end, cap);
        cleanUp(scheduler, held, b);
        return round;
    }

    private static void create(String name) {
        admin.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(onNode(
                                pod(NS, name, container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "8000"))
                                        .build(),
                                NODE))
                        .editSpec()
                        .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                        .endSpec()
                        .build())
                .create();
    }

    private static Pod get(String name) {
        return admin.pods().inNamespace(NS).withName(name).get();
    }

    private static void awaitUnschedulable(String name) {
        await(name + " PodScheduled=False")
                .atMost(Patience.seconds(45))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            Pod p = get(name);
                            return p.getStatus() == null || p.getStatus().getConditions() == null
                                    ? null
                                    : p.getStatus().getConditions().stream()
                                            .filter(c -> "PodScheduled".equals(c.getType()))
                                            .findFirst()
                                            .orElse(null);
                        },
                        (PodCondition c) -> c != null && "False".equals(c.getStatus()));
        assertThat(get(name).getSpec().getNodeName()).isNull();
    }

    /**
     * Waits until kube-scheduler's backoff of {@code pod} has run out, from its log: the last attempt at the pod plus
     * {@link #INITIAL_BACKOFF} doubled per attempt, at most {@link #MAX_BACKOFF} (backoff_queue.go's
     * calculateBackoffDuration; every attempt is counted, "no fit" or error, which can only lengthen the wait). An
     * attempt during the wait (an event moved B) starts a longer backoff from its own time, so the log is read again at
     * each poll. The backoff lives in kube-scheduler's queue, which no API shows; its log is where its attempts are seen.
     * (With SchedulerPopFromBackoffQ, on since 1.33, an idle queue may take B sooner; waiting the backoff out keeps the
     * figures free of that.)
     */
    private static void awaitBackoffRunOut(Path log, String pod) {
        Instant from = Instant.now();
        List<Instant> tries = await(pod + "'s backoff in kube-scheduler run out (its last attempt in kube-scheduler's"
                        + " log plus 1 s doubling per attempt, at most 10 s)")
                .atMost(MAX_BACKOFF.plus(Patience.seconds(20)))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> attempts(log, pod),
                        t -> !t.isEmpty()
                                && Instant.now()
                                        .isAfter(t.getLast()
                                                .plus(backoff(t.size()))
                                                .plus(LOG_TO_QUEUE)));
        System.out.println("[requeue] " + pod + ": " + tries.size() + " attempt(s) before the release, backoff run out "
                + Duration.between(from, Instant.now()).toMillis() + " ms after PodScheduled=False was seen");
    }

    /** kube-scheduler's backoff after {@code attempts} attempts: 1 s doubling per attempt, at most 10 s. */
    static Duration backoff(int attempts) {
        Duration d = INITIAL_BACKOFF;
        for (int i = 1; i < attempts && d.compareTo(MAX_BACKOFF) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(MAX_BACKOFF) < 0 ? d : MAX_BACKOFF;
    }

    /**
     * Waits until {@code name} is bound or {@code cap} has passed since {@code since}; the wait is from {@code since} to
     * the first poll (every 20 ms) that sees {@code spec.nodeName}.
     */
    private static Round awaitBound(Path log, String name, Instant since, Duration cap) throws Exception {
        try {
            Duration left = Duration.between(Instant.now(), since.plus(cap));
            Pod bound = await(name + " bound")
                    .atMost(left.isPositive() ? left : Duration.ofMillis(1))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> get(name), p -> p.getSpec().getNodeName() != null);
            return new Round(Duration.between(since, Instant.now()), nudge(bound) != null, rejected(log, name, since));
        } catch (ConditionTimeoutException e) {
            return new Round(null, nudge(get(name)) != null, rejected(log, name, since));
        }
    }

    /** How many of kube-scheduler's attempts at {@code pod} since {@code since} ended "no fit". */
    static long rejected(Path log, String pod, Instant since) throws IOException {
        return logged(log, pod, Set.of(NO_FIT)).stream()
                .filter(t -> !t.isBefore(since))
                .count();
    }

    static final String NO_FIT = "\"Unable to schedule pod; no fit; waiting\"";
    /** An attempt that ended in an error (our extender unreachable, say): it backs off too. */
    static final String ERROR = "\"Error scheduling pod; retrying\"";

    /** When kube-scheduler's attempts at {@code pod} ended ("no fit" or an error), in order. */
    static List<Instant> attempts(Path log, String pod) throws IOException {
        return logged(log, pod, Set.of(NO_FIT, ERROR));
    }

    /** klog's header: severity, month and day, local time of day (microseconds). */
    private static final Pattern KLOG = Pattern.compile("^[IWEF](\\d\\d)(\\d\\d) (\\d\\d:\\d\\d:\\d\\d\\.\\d+) ");

    /**
     * The times of kube-scheduler's log lines with one of {@code messages} about {@code pod}, in order. klog writes no
     * year: this year's, or last year's for a date ahead of today. Read as ISO-8859-1, which no byte fails (the line
     * being written may end mid-character); what is matched is ASCII.
     */
    private static List<Instant> logged(Path log, String pod, Set<String> messages) throws IOException {
        ZoneId zone = ZoneId.systemDefault();
        LocalDate today = LocalDate.now(zone);
        String key = "pod=\"" + NS + "/" + pod + "\"";
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.contains(key) && messages.stream().anyMatch(l::contains))
                    .map(KLOG::matcher)
                    .filter(Matcher::find)
                    .map(m -> {
                        LocalDate date = MonthDay.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)))
                                .atYear(today.getYear());
                        return LocalDateTime.of(
                                        date.isAfter(today) ? date.minusYears(1) : date, LocalTime.parse(m.group(3)))
                                .atZone(zone)
                                .toInstant();
                    })
                    .sorted()
                    .toList();
        }
    }

    private static String nudge(Pod pod) {
        String at = annotations(pod).get(ProtocolKeys.REQUEUE_AFTER_RELEASE);
        if (at != null) {
            var unused = Instant.parse(at); // RFC 3339, or this throws
        }
        return at;
    }

    private static long usedMem(HamiScheduler scheduler) {
        return scheduler
                .app()
                .index()
                .snapshot(NODE)
                .map(s -> s.view().devices().get("NVIDIA").getFirst().usedmem())
                .orElse(-1);
    }

    /**
     * Deletes the round's pods and waits until the GPU is free in the index again and the node lock is released.
     *
     * <p>A pod our bind placed holds the node lock until the synthetic kubelet (the plugin's stand-in) has allocated it
     * and released the lock; deleted before that, its lock stays, since only the holder releases it. {@link #awaitBound}
     * returns at the bind, so on a loaded machine the delete used to overtake the allocation and the wait for "no lock"
     * ran out (issue 26): wait for the allocation first. A pod kube-scheduler binds between that wait and the delete
     * (an "off" round's B, retried on its own) still leaves a lock held by a pod that is gone, which the next bind
     * replaces at once (design D5): that is as free as no lock.
     */
    private static void cleanUp(HamiScheduler scheduler, String... names) {
        List<String> ours = List.of(names);
        await("the round's bound pods allocated and the node lock released")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> lockHolder().filter(ours::contains).isEmpty());
        for (String n : names) {
            admin.pods().inNamespace(NS).withName(n).withGracePeriod(0).delete();
        }
        await("round's pods gone, the GPU free and the node lock released")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> ours.stream().map(RequeueAfterReleaseTest::get).allMatch(Objects::isNull)
                        && usedMem(scheduler) == 0
                        && lockHolder().map(RequeueAfterReleaseTest::get).isEmpty());
    }

    /** The pod named by the node lock (all of this class's pods are in {@link #NS}), or empty without a lock. */
    private static Optional<String> lockHolder() {
        String value = annotations(admin.nodes().withName(NODE).get()).get(ProtocolKeys.NODE_LOCK);
        if (value == null) {
            return Optional.empty();
        }
        try {
            NodeLock lock = NodeLockCodec.decode(value);
            assertThat(lock.namespace()).as("node lock holder's namespace").isEqualTo(NS);
            return Optional.of(lock.name());
        } catch (AnnotationFormatException e) {
            throw new AssertionError("unreadable node lock " + value, e);
        }
    }

    /** min / median / max in ms, and how many rounds were not bound within the cap or carried the nudge. */
    static String figures(List<Round> rounds) {
        var waits = rounds.stream()
                .map(Round::waited)
                .filter(Objects::nonNull)
                .map(Duration::toMillis)
                .sorted()
                .toList();
        long unbound = rounds.stream().filter(r -> r.waited() == null).count();
        long nudged = rounds.stream().filter(Round::nudged).count();
        long retried = rounds.stream().filter(r -> r.rejectedAfterRelease() > 0).count();
        String times = waits.isEmpty()
                ? "none bound"
                : "min " + waits.getFirst() + " ms, median " + waits.get(waits.size() / 2) + " ms, max "
                        + waits.getLast() + " ms";
        return times + (unbound > 0 ? "; not bound within the cap: " + unbound : "") + "; nudged: " + nudged + " of "
                + rounds.size() + "; kube-scheduler's retry after the release rejected by our filter in " + retried
                + " of " + rounds.size();
    }
}
