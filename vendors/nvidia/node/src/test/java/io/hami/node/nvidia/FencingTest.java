package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.plugin.allocate.PodLocator;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.server.DevicePluginService;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.PluginRun;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import io.hami.protocol.testing.Patience;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Upstream #3096: pod A is bound, its node lock expires before the kubelet admits it, the scheduler's recovery
 * marks A failed and hands the lock to pod B. A's late Allocate must not be served with B's entry (upstream
 * serves it, so the two pods run with each other's limits); B must still get its own.
 */
class FencingTest {
    static final String NODE = "n1";
    static final String GPU0 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final String RESOURCE = "nvidia.com/gpu";
    static final Duration LOCK_TIMEOUT = Duration.ofSeconds(30);
    static final Duration WAIT = Patience.seconds(15);
    static final VendorKeys KEYS = DeviceBackends.load(DeviceConfig.DEFAULTS)
            .byVendor(NvidiaKeys.VENDOR)
            .orElseThrow()
            .keys();
    static final String A_DECISION = GPU0 + ",NVIDIA,1000,10:;";
    static final String B_DECISION = GPU0 + ",NVIDIA,7000,70:;";

    @RegisterExtension
    final PluginFixture node = new PluginFixture(NODE, LOCK_TIMEOUT, true);

    @BeforeEach
    void bindTwoPodsWithALockExpiryInBetween() {
        Timings fast = PluginRun.FAST;
        // long enough for the kubelet's rejection of the other pod to land even on a loaded machine
        Timings slowSettle = new Timings(
                fast.registerPeriod(),
                fast.registerRetry(),
                fast.handshakePoll(),
                fast.healthWait(),
                Patience.seconds(2),
                fast.registrationRetry(),
                fast.socketCheck());
        node.start(node.settings("nvidia", DeviceConfig.DEFAULTS, Sharing.NONE, slowSettle, false));
        node.cluster().pod("a", List.of(), List.of(TestCluster.container("main")));
        node.cluster().pod("b", List.of(), List.of(TestCluster.container("main")));

        node.cluster().bind("a", NODE, Map.of(KEYS, A_DECISION));
        node.cluster().clock().advance(LOCK_TIMEOUT.plusSeconds(1));
        // design D5 (docs/design.md#d5) recovery: A marked failed, lock handed to B
        node.cluster().bind("b", NODE, Map.of(KEYS, B_DECISION));

        assertThat(node.cluster().annotation("a", ProtocolKeys.BIND_PHASE)).isEqualTo("failed");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).endsWith(",default,b");
    }

    /**
     * The plugin's thread answering an Allocate, once it waits for the node to settle: it found the node ambiguous
     * and pauses before reading it again.
     */
    static Thread awaitSettling() {
        return await("an Allocate waiting for the node to settle")
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(5))
                .until(FencingTest::settling, Optional::isPresent)
                .orElseThrow();
    }

    static Optional<Thread> settling() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(t -> Arrays.stream(t.getValue()).anyMatch(f -> isIn(f, PodLocator.class, "locate"))
                        && Arrays.stream(t.getValue())
                                .anyMatch(f -> f.getClassName().equals(Thread.class.getName())
                                        && f.getMethodName().startsWith("sleep")))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** Whether {@code thread} is still in the plugin's Allocate handler. */
    static boolean answering(Thread thread) {
        return Arrays.stream(thread.getStackTrace()).anyMatch(f -> isIn(f, DevicePluginService.class, "allocate"));
    }

    static boolean isIn(StackTraceElement frame, Class<?> type, String method) {
        return frame.getClassName().equals(type.getName())
                && frame.getMethodName().equals(method);
    }

    @Test
    void theLateAllocateFailsClearlyAndTheLockHolderThenGetsItsOwnLimits() {
        // The kubelet admits A first (it was bound first); the call names no pod.
        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-0")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
                    assertThat(e.getStatus().getDescription())
                            .isEqualTo(
                                    "2 pods on node n1 are waiting for NVIDIA "
                                            + "devices (default/a bind-phase=failed, default/b bind-phase=allocating); the node lock names "
                                            + "default/b, but the kubelet does not say which pod this Allocate is for, so it is not served");
                });
        assertThat(node.cluster().annotation("a", KEYS.toAllocateKey())).isEqualTo(A_DECISION);
        assertThat(node.cluster().annotation("b", KEYS.toAllocateKey())).isEqualTo(B_DECISION);
        assertThat(node.cluster().annotation("b", ProtocolKeys.BIND_PHASE)).isEqualTo("allocating");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).endsWith(",default,b");

        node.cluster().reject("a"); // what the kubelet does with a pod whose Allocate failed

        ContainerAllocateResponse b =
                node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-1")).getContainerResponses(0);
        assertThat(b.getEnvsMap())
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "7000m")
                .containsEntry("CUDA_DEVICE_SM_LIMIT", "70");
        assertThat(node.cluster().annotation("b", ProtocolKeys.BIND_PHASE)).isEqualTo("success");
        assertThat(node.cluster().annotation("a", KEYS.toAllocateKey())).isEqualTo(A_DECISION);
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).isNull();
    }

    @Test
    void anAllocateTheKubeletGaveUpOnConsumesNothingEvenWhenThePodSettlesAfterwards() throws Exception {
        // The kubelet gives up (its deadline, its restart: either cancels the call) while the plugin waits for
        // A's
        // rejection to land; the rejection lands afterwards.
        var request = AllocateRequest.newBuilder()
                .addContainerRequests(ContainerAllocateRequest.newBuilder().addDevicesIds(GPU0 + "-1"))
                .build();
        var call = Context.current().withCancellation();
        var answer = new CompletableFuture<Throwable>();
        Thread.ofVirtual()
                .start(() -> call.run(() -> {
                    try {
                        node.kubelet().plugin(RESOURCE).allocate(request);
                        answer.complete(null);
                    } catch (RuntimeException e) {
                        answer.complete(e);
                    }
                }));
        Thread handler = awaitSettling();
        call.cancel(null);
        assertThat(answer.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.CANCELLED));
        node.cluster().reject("a");
        // the plugin's re-read finds the node settled after the call was given up, and it answers the call
        await("the plugin done with the cancelled Allocate").atMost(WAIT).until(() -> !answering(handler));

        assertThat(node.cluster().annotation("b", KEYS.toAllocateKey())).isEqualTo(B_DECISION);
        assertThat(node.cluster().annotation("b", ProtocolKeys.BIND_PHASE)).isEqualTo("allocating");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).endsWith(",default,b");
        ContainerAllocateResponse b =
                node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-1")).getContainerResponses(0);
        assertThat(b.getEnvsMap()).containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "7000m");
    }

    @Test
    void anAllocateWaitsBrieflyForTheOtherPodToSettle() throws Exception {
        // B's Allocate arrives while the kubelet is still reporting A's rejection
        Thread rejecter = Thread.ofVirtual().start(() -> {
            awaitSettling();
            node.cluster().reject("a");
        });
        ContainerAllocateResponse b =
                node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-1")).getContainerResponses(0);
        rejecter.join();

        assertThat(b.getEnvsMap()).containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "7000m");
        assertThat(node.cluster().annotation("b", ProtocolKeys.BIND_PHASE)).isEqualTo("success");
        assertThat(node.cluster().annotation("a", KEYS.toAllocateKey())).isEqualTo(A_DECISION);
    }

    @Test
    void neitherPodIsEverServedTheOthersEntryWhateverTheOrder() {
        // The kubelet admits B first while A is still pending: not attributable, so B is not served either.
        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-1")))
                .isInstanceOf(StatusRuntimeException.class);
        node.cluster().reject("b");
        // A's late Allocate: the lock names B, which is no longer waiting, and A is failed: nothing to serve
        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-0")))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getDescription())
                                .isEqualTo(
                                        "node n1 is locked by pod default/b, which is not waiting for NVIDIA devices on this "
                                                + "node (bind-phase=allocating, phase=Failed)"));
        assertThat(node.cluster().annotation("a", KEYS.toAllocateKey())).isEqualTo(A_DECISION);
        assertThat(node.cluster().annotation("b", KEYS.toAllocateKey())).isEqualTo(B_DECISION);
    }
}
