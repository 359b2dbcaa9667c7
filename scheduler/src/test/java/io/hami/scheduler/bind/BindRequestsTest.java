package io.hami.scheduler.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.hami.kube.lock.LockOutcome;
import io.hami.kube.lock.LockTimeouts;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.scheduler.extender.BindingArgs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a bind sends the API server: the binding through {@code pods/{name}/binding}, and no decision written late. */
class BindRequestsTest {
    static final LockTimeouts TIMEOUTS = new LockTimeouts(Duration.ofMinutes(5), Duration.ofSeconds(60));

    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-08-01T06:00:00Z"));
    final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
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
    final List<String> requests = new CopyOnWriteArrayList<>();
    BindFixture f;

    @BeforeEach
    void start() {
        Interceptor recorder = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                requests.add(request.method() + " " + request.uri().getPath());
            }
        };
        f = new BindFixture(clock, TIMEOUTS, recorder);
        f.node("n1", BindFixture.gpu("GPU-0", 0));
        f.pod("a", 1000);
    }

    @AfterEach
    void stop() {
        f.close();
    }

    Binder binder(BindObserver observer) {
        return f.binder(observer, BindFixture.WATCH_CURRENT);
    }

    /** An observer that lets {@code seconds} pass once the bind holds the lock. */
    BindObserver passingOnLock(int seconds) {
        return new BindObserver() {
            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                now.set(now.get().plusSeconds(seconds));
            }
        };
    }

    @Test
    void thePodIsBoundThroughItsBindingSubresource() {
        assertThat(binder(BindObserver.NONE)
                        .bind(new BindingArgs("a", "ns", "", "n1"))
                        .ok())
                .isTrue();

        assertThat(f.nodeName("a")).isEqualTo("n1");
        assertThat(requests)
                .contains("POST /api/v1/namespaces/ns/pods/a/binding")
                .noneMatch(r -> r.endsWith("/bindings"));
    }

    @Test
    void aBindThatTookHalfTheBindWindowBeforeDecidingGivesUpAndReleasesTheLock() {
        // The API server was slow between the lock and the decision (a pause, retries): 31 s pass.
        BindObserver slow = passingOnLock(31);
        var result = binder(slow).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.error())
                .isEqualTo("bind on node n1 had not written its decision 31 s after taking the node lock"
                        + " (limit 30 s, half the lock's bind window); retry");
        assertThat(f.annotations("a")).doesNotContainKeys(ProtocolKeys.BIND_PHASE, ProtocolKeys.VGPU_NODE);
        assertThat(f.nodeName("a")).isNull();
        assertThat(f.client.nodes().withName("n1").get().getMetadata().getAnnotations())
                .doesNotContainKey(ProtocolKeys.NODE_LOCK);
        assertThat(requests).noneMatch(r -> r.startsWith("POST") && r.contains("binding"));

        // at 30 s it still decides
        BindObserver justInTime = passingOnLock(30);
        assertThat(binder(justInTime).bind(new BindingArgs("a", "ns", "", "n1")).ok())
                .isTrue();
        assertThat(f.annotations("a")).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING);
    }
}
