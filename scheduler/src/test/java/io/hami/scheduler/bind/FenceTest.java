package io.hami.scheduler.bind;

import static io.hami.scheduler.bind.BindFixture.WATCH_CURRENT;
import static io.hami.scheduler.bind.BindFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.kube.lock.LockOutcome;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.kube.patch.MergePatches;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.scheduler.extender.BindingArgs;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A bind that lost its node lock before its decision was written does not bind (the fence, read after the decision). */
class FenceTest {
    BindFixture f;

    @BeforeEach
    void start() {
        f = new BindFixture();
        f.node("n1", gpu("GPU-0", 0));
        f.pod("a", 1000);
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @Test
    void aLockTakenOverBeforeTheDecisionStopsTheBind() {
        // Right after the bind takes the lock, another bind takes it over (as one would from a bind that paused).
        BindObserver takenOver = new BindObserver() {
            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                var thief = new NodeLock(OffsetDateTime.now(ZoneOffset.UTC), "ns", "thief");
                MergePatches.node(
                        f.client,
                        node,
                        AnnotationPatch.mergePatch(
                                Map.of(ProtocolKeys.NODE_LOCK, NodeLockCodec.encode(thief)), Map.of(), null));
            }
        };

        var result = f.binder(takenOver, WATCH_CURRENT).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.error())
                .isEqualTo("lost the lock of node n1 while binding (it expired and is now held by ns/thief); retry");
        assertThat(f.nodeName("a")).isNull();
        assertThat(f.annotations("a")).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_FAILED);
        assertThat(f.locks.current("n1").isHeldBy("ns", "thief")).isTrue();
    }
}
