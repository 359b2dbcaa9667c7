package io.hami.scheduler.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.kube.lock.LockOutcome;
import io.hami.protocol.health.HealthVerdict;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.handshake.HandshakeObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompositeObserverTest {
    final List<String> calls = new ArrayList<>();

    @Test
    void aFilterObserverThatThrowsDoesNotStopTheNextOrReachTheCaller() {
        FilterObserver broken = (pod, fitting, failed, took) -> {
            throw new IllegalStateException("broken");
        };
        FilterObserver recording = (pod, fitting, failed, took) -> calls.add("filtered " + fitting);

        assertThatCode(() -> CompositeObserver.filter(broken, recording)
                        .filtered(new Pod(), List.of("n1"), Map.of(), Duration.ZERO))
                .doesNotThrowAnyException();
        assertThat(calls).containsExactly("filtered [n1]");
    }

    @Test
    void everyBindCallReachesEveryObserverInOrder() {
        BindObserver broken = new BindObserver() {
            @Override
            public void bound(Pod pod, String node, Duration took) {
                throw new IllegalStateException("broken");
            }

            @Override
            public void bindFailed(Pod pod, String node, String message, Duration took) {
                throw new IllegalStateException("broken");
            }

            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                throw new IllegalStateException("broken");
            }
        };
        BindObserver recording = new BindObserver() {
            @Override
            public void bound(Pod pod, String node, Duration took) {
                calls.add("bound " + node + " " + took.toMillis());
            }

            @Override
            public void bindFailed(Pod pod, String node, String message, Duration took) {
                calls.add("failed " + node + " " + message);
            }

            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                calls.add("lock " + node + " " + outcome.getClass().getSimpleName());
            }
        };
        BindObserver both = CompositeObserver.bind(broken, recording);

        both.lock("n1", new LockOutcome.Failed("n1", "boom"), Duration.ZERO);
        both.bindFailed(null, "n1", "boom", Duration.ZERO);
        both.bound(new Pod(), "n2", Duration.ofMillis(7));

        assertThat(calls).containsExactly("lock n1 Failed", "failed n1 boom", "bound n2 7");
    }

    @Test
    void handshakeVerdictsFanOut() {
        HandshakeObserver first = (node, vendor, verdict) -> calls.add("first " + node + "/" + vendor);
        HandshakeObserver second = (node, vendor, verdict) -> calls.add("second " + verdict.healthy());

        CompositeObserver.handshake(first, second).verdict("n1", "NVIDIA", HealthVerdict.NO_HANDSHAKE);

        assertThat(calls).containsExactly("first n1/NVIDIA", "second true");
    }
}
