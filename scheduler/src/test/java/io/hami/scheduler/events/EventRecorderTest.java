package io.hami.scheduler.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.events.PodEvents;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.fit.Reasons;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.metrics.Scrape;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EventRecorderTest {
    /** Every event in a test is created in the same instant, so names must not come from the clock alone. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-04T05:06:07.891Z"), ZoneOffset.UTC);

    final EmbeddedApiServer server = EmbeddedApiServer.start();
    final KubernetesClient client = server.newClient();
    final PrometheusRegistry registry = new PrometheusRegistry();

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    static Pod pod() {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .withUid("uid-1")
                .withResourceVersion("42")
                .endMetadata()
                .build();
    }

    /** The events in namespace ns, oldest name first (names carry an increasing nanosecond stamp). */
    List<Event> events() {
        return client.v1().events().inNamespace("ns").list().getItems().stream()
                .sorted(Comparator.comparing(
                                (Event e) -> e.getMetadata().getName().length())
                        .thenComparing(e -> e.getMetadata().getName()))
                .toList();
    }

    @Test
    void aFilterThatFindsNodesWritesOneNormalEventOnThePod() {
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, CLOCK)) {
            recorder.filtered(pod(), List.of("n1", "n2"), Map.of("n3", Denial.UNREGISTERED), Duration.ofMillis(1));
        }

        assertThat(events()).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getReason()).isEqualTo("FilteringSucceed");
            assertThat(e.getMessage()).isEqualTo("find fit node(n1), 1 nodes not fit, 2 nodes fit(n1,n2)");
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("Pod");
            assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("v1");
            assertThat(e.getInvolvedObject().getNamespace()).isEqualTo("ns");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("p");
            assertThat(e.getInvolvedObject().getUid()).isEqualTo("uid-1");
            assertThat(e.getSource().getComponent()).isEqualTo("hami-scheduler");
            assertThat(e.getFirstTimestamp()).isEqualTo("2025-03-04T05:06:07Z");
            assertThat(e.getCount()).isEqualTo(1);
            assertThat(e.getMetadata().getName()).startsWith("p.");
        });
    }

    @Test
    void aFilterThatFindsNothingWritesOneWarningNamingTheNodesPerReasonKind() {
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, CLOCK)) {
            recorder.filtered(
                    pod(),
                    List.of(),
                    Map.of(
                            "n3",
                                    Denial.devices(
                                            Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 1, Reasons.NUMA_NOT_FIT, 2), 2),
                            "n1", Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 2), 2),
                            "n2", Denial.UNREGISTERED),
                    Duration.ofMillis(1));
        }

        assertThat(events())
                .extracting(Event::getType, Event::getReason, Event::getMessage)
                .containsExactly(
                        tuple(
                                "Warning",
                                "FilteringFailed",
                                "no available node, 3 nodes do not meet: "
                                        + "2 nodes CardInsufficientMemory(n1,n3); 1 nodes NumaNotFit(n3); 1 nodes node unregistered(n2)"));
    }

    /** A clock tests move by hand. */
    static final class ManualClock extends Clock {
        Instant now = CLOCK.instant();

        @Override
        public ZoneOffset getZone() {
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

    @Test
    void repeatedFilterCallsOfAPodWriteOneEventPerOutcomeUntilTheRepeatTimeHasPassed() {
        var clock = new ManualClock();
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, clock)) {
            for (int i = 0; i < 50; i++) {
                recorder.filtered(
                        pod(),
                        List.of(),
                        Map.of("n1", Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 2), 2)),
                        Duration.ZERO);
                recorder.filtered(pod(), List.of("n2"), Map.of(), Duration.ZERO);
            }
            clock.now = clock.now.plus(EventRecorder.REPEAT_AFTER).minusSeconds(1);
            recorder.filtered(
                    pod(),
                    List.of(),
                    Map.of("n1", Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 2), 2)),
                    Duration.ZERO);
            clock.now = clock.now.plusSeconds(1);
            recorder.filtered(
                    pod(),
                    List.of(),
                    Map.of("n1", Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 2), 2)),
                    Duration.ZERO);
            recorder.filtered(
                    pod(),
                    List.of(),
                    Map.of("n1", Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 2), 2)),
                    Duration.ZERO);
        }

        assertThat(events())
                .extracting(Event::getReason, Event::getMessage)
                .containsExactly(
                        tuple(
                                "FilteringFailed",
                                "no available node, 1 nodes do not meet: 1 nodes CardInsufficientMemory(n1)"),
                        tuple("FilteringSucceed", "find fit node(n2), 0 nodes not fit, 1 nodes fit(n2)"),
                        tuple(
                                "FilteringFailed",
                                "no available node, 1 nodes do not meet: 1 nodes CardInsufficientMemory(n1)"));
        assertThat(Scrape.samples(registry, "hami_event_write_failures_total")).isEmpty();
    }

    @Test
    void anotherPodOrTheSamePodAgainUnderANewUidGetsItsOwnEvent() {
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, CLOCK)) {
            recorder.filtered(pod(), List.of("n1"), Map.of(), Duration.ZERO);
            Pod recreated = new PodBuilder(pod())
                    .editMetadata()
                    .withUid("uid-2")
                    .endMetadata()
                    .build();
            recorder.filtered(recreated, List.of("n1"), Map.of(), Duration.ZERO);
            recorder.filtered(recreated, List.of("n1"), Map.of(), Duration.ZERO);
        }

        assertThat(events()).extracting(e -> e.getInvolvedObject().getUid()).containsExactly("uid-1", "uid-2");
    }

    @Test
    void bindOutcomesWriteUpstreamsMessages() {
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, CLOCK)) {
            recorder.bound(pod(), "n1", Duration.ofMillis(5));
            recorder.bindFailed(
                    pod(),
                    "n2",
                    "node n2 is locked by ns/q since 2025-03-04T05:06:00Z: node lock contention, retry later",
                    Duration.ofMillis(5));
            recorder.bindFailed(null, "n2", "pod ns/gone not found", Duration.ofMillis(5));
        }

        assertThat(events())
                .extracting(Event::getType, Event::getReason, Event::getMessage)
                .containsExactly(
                        tuple("Normal", "BindingSucceed", "Successfully binding node [n1] to ns/p"),
                        tuple(
                                "Warning",
                                "BindingFailed",
                                "node n2 is locked by ns/q since 2025-03-04T05:06:00Z: node lock contention, retry later"));
    }

    @Test
    void aRejectedWriteIsCountedAndNeverReachesTheCaller() {
        server.faults().failNext("POST", "/api/v1/namespaces/ns/events", 403, 1);
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, CLOCK)) {
            assertThatCode(() -> recorder.bound(pod(), "n1", Duration.ZERO)).doesNotThrowAnyException();
            recorder.bound(pod(), "n2", Duration.ZERO);
        }

        assertThat(events()).extracting(Event::getMessage).containsExactly("Successfully binding node [n2] to ns/p");
        assertThat(Scrape.samples(registry, "hami_event_write_failures_total"))
                .containsExactly("hami_event_write_failures_total{cause=\"api_error\"} 1.0");
    }

    @Test
    void whenTheQueueIsFullEventsAreDroppedInsteadOfBlockingTheCaller() throws InterruptedException {
        var release = new CountDownLatch(1);
        var writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(1));
        writer.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, CLOCK, writer)) {
            recorder.bound(pod(), "queued", Duration.ZERO);
            recorder.bound(pod(), "dropped", Duration.ZERO);
            release.countDown();
        }

        assertThat(events())
                .extracting(Event::getMessage)
                .containsExactly("Successfully binding node [queued] to ns/p");
        assertThat(Scrape.samples(registry, "hami_event_write_failures_total"))
                .containsExactly("hami_event_write_failures_total{cause=\"dropped\"} 1.0");
    }

    @Test
    void aMessageOverTheNoteLimitIsCut() {
        String longError = "x".repeat(3000);
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, CLOCK)) {
            recorder.bindFailed(pod(), "n1", longError, Duration.ZERO);
        }

        assertThat(events())
                .singleElement()
                .extracting(Event::getMessage)
                .isEqualTo("x".repeat(PodEvents.MESSAGE_LIMIT - 3) + "...");
    }

    @Test
    void aPodWithoutANameGetsNoEventAndNoException() {
        try (var recorder = new EventRecorder(client, "hami-scheduler", registry, CLOCK)) {
            assertThatCode(() -> recorder.filtered(new Pod(), List.of("n1"), Map.of(), Duration.ZERO))
                    .doesNotThrowAnyException();
        }

        assertThat(events()).isEmpty();
    }
}
