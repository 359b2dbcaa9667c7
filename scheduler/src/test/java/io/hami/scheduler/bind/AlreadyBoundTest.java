package io.hami.scheduler.bind;

import static io.hami.scheduler.bind.BindFixture.WATCH_CURRENT;
import static io.hami.scheduler.bind.BindFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.kube.lock.LockOutcome;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * kube-scheduler gives up on a bind after its {@code httpTimeout} (30 s as deployed) and schedules the pod again, maybe
 * to another node, while the first bind may still be running in the extender or may have bound the pod already. The
 * pod's decision, which its node may be allocating or running, must stay the one it was bound with.
 */
class AlreadyBoundTest {
    BindFixture f;

    @BeforeEach
    void start() {
        f = new BindFixture();
    }

    @AfterEach
    void stop() {
        f.close();
    }

    /** Nodes n1 and n2 with one GPU each, and pod ns/a asking for 1000 MiB of one. */
    private Binder binder(BindObserver observer) {
        f.node("n1", gpu("GPU-n1", 0));
        f.node("n2", gpu("GPU-n2", 0));
        f.pod("a", 1000);
        return f.binder(observer, WATCH_CURRENT);
    }

    @Test
    void aBindOfAPodWhoseEarlierBindIsStillRunningIsRefused() throws Exception {
        var locked = new CountDownLatch(1);
        var goOn = new CountDownLatch(1);
        // Pauses the first bind right after it took n1's lock, as a slow API server would.
        BindObserver pausing = new BindObserver() {
            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                if (node.equals("n1")) {
                    locked.countDown();
                    try {
                        goOn.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Binder binder = binder(pausing);
            Future<BindingResult> first = executor.submit(() -> binder.bind(new BindingArgs("a", "ns", "", "n1")));
            assertThat(locked.await(30, TimeUnit.SECONDS)).isTrue();

            assertThat(binder.bind(new BindingArgs("a", "ns", "", "n2")).error())
                    .isEqualTo("pod ns/a is being bound by an earlier call that has not finished; retry");
            goOn.countDown();
            assertThat(first.get(30, TimeUnit.SECONDS).ok()).isTrue();

            Pod now = f.client.pods().inNamespace("ns").withName("a").get();
            assertThat(now.getSpec().getNodeName()).isEqualTo("n1");
            assertThat(now.getMetadata().getAnnotations()).containsEntry(ProtocolKeys.VGPU_NODE, "n1");
            assertThat(now.getMetadata().getAnnotations().get("hami.io/vgpu-devices-allocated"))
                    .startsWith("GPU-n1,");
            assertThat(f.client.nodes().withName("n2").get().getMetadata().getAnnotations())
                    .as("n2's lock was never taken")
                    .doesNotContainKey(ProtocolKeys.NODE_LOCK);
        }
    }

    @Test
    void aBoundPodKeepsItsDecisionAndIsNotBoundElsewhere() {
        Binder binder = binder(BindObserver.NONE);

        assertThat(binder.bind(new BindingArgs("a", "ns", "", "n1")).ok()).isTrue();
        Pod bound = f.client.pods().inNamespace("ns").withName("a").get();

        assertThat(binder.bind(new BindingArgs("a", "ns", "", "n2")).error())
                .isEqualTo("pod ns/a is already bound to node n1");
        assertThat(binder.bind(new BindingArgs("a", "ns", "", "n1")).ok())
                .as("the lost answer, repeated")
                .isTrue();

        Pod now = f.client.pods().inNamespace("ns").withName("a").get();
        assertThat(now.getSpec().getNodeName()).isEqualTo("n1");
        assertThat(now.getMetadata().getAnnotations())
                .isEqualTo(bound.getMetadata().getAnnotations())
                .containsEntry(ProtocolKeys.VGPU_NODE, "n1");
        assertThat(f.client.nodes().withName("n2").get().getMetadata().getAnnotations())
                .as("n2's lock was never taken")
                .doesNotContainKey(ProtocolKeys.NODE_LOCK);
    }

    /**
     * A bind of a pod whose earlier bind (another replica's, stopped mid-bind during a leader failover) took the node
     * lock and wrote its decision but had not posted the binding: the decision may already be served to the kubelet,
     * so it is completed as it stands, never replaced (seen as a grants violation in the lab's faults scenario).
     */
    @Test
    void anEarlierDecisionUnderTheSameLockIsCompletedNotReplaced() {
        f.node("n1", gpu("GPU-0", 0), gpu("GPU-1", 1));
        f.pod("a", 1000);
        // The earlier bind: lock taken, decision written (without a bind-time: a new decision would add one).
        assertThat(f.locks.acquire("n1", "ns", "a")).isInstanceOf(LockOutcome.Acquired.class);
        String decision = "GPU-1,NVIDIA,1000,0:;";
        f.client
                .pods()
                .inNamespace("ns")
                .withName("a")
                .edit(p -> new PodBuilder(p)
                        .editMetadata()
                        .addToAnnotations(ProtocolKeys.VGPU_NODE, "n1")
                        .addToAnnotations(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING)
                        .addToAnnotations("hami.io/vgpu-devices-to-allocate", decision)
                        .addToAnnotations("hami.io/vgpu-devices-allocated", decision)
                        .endMetadata()
                        .build());
        Pod before = f.client.pods().inNamespace("ns").withName("a").get();
        var binder = f.binder(f.index, new SchedulingPolicy("binpack", "binpack"), BindObserver.NONE, WATCH_CURRENT);

        assertThat(binder.bind(new BindingArgs("a", "ns", "", "n1")).ok()).isTrue();

        Pod now = f.client.pods().inNamespace("ns").withName("a").get();
        assertThat(now.getSpec().getNodeName()).isEqualTo("n1");
        assertThat(now.getMetadata().getAnnotations())
                .isEqualTo(before.getMetadata().getAnnotations());
    }
}
