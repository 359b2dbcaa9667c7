package io.hami.scheduler.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Event;
import io.hami.scheduler.bind.BindFixture;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.metrics.SchedulerMetrics;
import io.hami.scheduler.metrics.Scrape;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Binder's outcomes, lock included, as the scheduler wires them: one composite feeding metrics and events. */
class BinderReportingTest {
    @Test
    void boundContendedAndFailedBindsAreTimedCountedAndReportedOnThePod() {
        var registry = new PrometheusRegistry();
        var metrics = new SchedulerMetrics(registry, "test");
        try (var f = new BindFixture()) {
            var client = f.client;
            f.node("n1", BindFixture.gpu("G1", 0));
            for (String name : List.of("a", "b", "c")) {
                f.pod(name, 1000);
            }
            try (var events = new EventRecorder(client, "hami-scheduler", registry, f.clock)) {
                var binder = f.binder(CompositeObserver.bind(metrics, events), BindFixture.WATCH_CURRENT);

                assertThat(binder.bind(new BindingArgs("a", "ns", "", "n1")).ok())
                        .isTrue();
                // a holds n1's lock until its device plugin has allocated it
                assertThat(binder.bind(new BindingArgs("b", "ns", "", "n1")).error())
                        .contains("node lock contention");
                assertThat(binder.bind(new BindingArgs("c", "ns", "", "ghost")).error())
                        .contains("node ghost not found");
                assertThat(binder.bind(new BindingArgs("nope", "ns", "", "n1")).error())
                        .isEqualTo("pod ns/nope not found");
            }

            assertThat(client.v1().events().inNamespace("ns").list().getItems())
                    .extracting(e -> e.getInvolvedObject().getName(), Event::getType, Event::getReason)
                    .containsExactlyInAnyOrder(
                            tuple("a", "Normal", "BindingSucceed"),
                            tuple("b", "Warning", "BindingFailed"),
                            tuple("c", "Warning", "BindingFailed"));
        }

        assertThat(Scrape.samples(registry, "hami_bind_duration_seconds_count"))
                .containsExactly(
                        "hami_bind_duration_seconds_count{result=\"bound\"} 1",
                        "hami_bind_duration_seconds_count{result=\"failed\"} 3");
        assertThat(Scrape.samples(registry, "hami_node_lock_acquire_duration_seconds_count"))
                .containsExactly(
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"acquired\"} 1",
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"contended\"} 1",
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"failed\"} 1");
        assertThat(Scrape.samples(registry, "hami_node_lock_contention_total"))
                .containsExactly("hami_node_lock_contention_total{node=\"n1\"} 1.0");
        assertThat(Scrape.samples(registry, "hami_node_lock_failures_total"))
                .containsExactly("hami_node_lock_failures_total{node=\"ghost\"} 1.0");
    }
}
