package io.hami.backend.nvidia;

import static io.hami.protocol.testing.FitFixtures.device;
import static io.hami.protocol.testing.FitFixtures.grantedIds;
import static io.hami.protocol.testing.FitFixtures.idle;
import static io.hami.protocol.testing.FitFixtures.onNuma;
import static io.hami.protocol.testing.FitFixtures.reason;
import static io.hami.protocol.testing.FitFixtures.used;
import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.backend.nvidia.topology.DevicePairScore;
import io.hami.backend.nvidia.topology.DevicePairScoreCodec;
import io.hami.protocol.annotation.AnnotationCatalog;
import io.hami.protocol.annotation.AnnotationKind;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.Discovery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The topology-aware policy through NVIDIA's fit, discovery of the pair scores, and their catalog entry. */
class NvidiaTopologyTest {
    private static final NvidiaBackend BACKEND = new NvidiaBackend(NvidiaConfig.DEFAULTS);
    private static final ContainerRequest TWO = new ContainerRequest(2, "NVIDIA", 1000, 101, 0);
    private static final ContainerRequest ONE = new ContainerRequest(1, "NVIDIA", 1000, 101, 0);

    /** GPU-0..3 and GPU-4..7 are NVLink islands; across them PCIe through the CPUs. */
    static List<DevicePairScore> dgx() {
        var out = new ArrayList<DevicePairScore>();
        for (int i = 0; i < 8; i++) {
            var row = new HashMap<String, Integer>();
            for (int j = 0; j < 8; j++) {
                if (i != j) {
                    row.put("GPU-" + j, i / 4 == j / 4 ? 600 : 10);
                }
            }
            out.add(new DevicePairScore("GPU-" + i, row));
        }
        return out;
    }

    static final String DGX_SCORES = DevicePairScoreCodec.encode(dgx());

    static List<DeviceUsage> eightIdle() {
        var out = new ArrayList<DeviceUsage>();
        for (int i = 0; i < 8; i++) {
            out.add(idle(device("GPU-" + i, "NVIDIA-A100", i, 40960)));
        }
        return out;
    }

    static FitContext context(String policy, Map<String, String> pod, QuotaRoom quota) {
        return new FitContext(pod, Map.of(NvidiaKeys.SCORE, DGX_SCORES), policy, List.of(), quota);
    }

    static FitContext context(String policy) {
        return context(policy, Map.of(), QuotaRoom.UNLIMITED);
    }

    @Test
    void twoCardsAreAnNvlinkPairWhereTheWalkWouldCrossIslands() {
        // GPU-4..6 are full: the walk (last first) takes GPU-7 and GPU-3, one from each island
        var devices = eightIdle();
        for (int i = 4; i < 7; i++) {
            devices.set(i, used(devices.get(i).device(), 10, 0, 0));
        }
        assertThat(grantedIds(BACKEND.fit(devices, TWO, context("spread")))).containsExactly("GPU-7", "GPU-3");
        // candidates in walk order GPU-7, 3, 2, 1, 0: the first linked pair is GPU-3 and GPU-2
        assertThat(grantedIds(BACKEND.fit(devices, TWO, context("topology-aware"))))
                .containsExactly("GPU-3", "GPU-2");
    }

    @Test
    void oneCardIsTheWorstConnectedSoPairsStayFree() {
        // GPU-0..2 are full: GPU-3 is left without a linked peer, GPU-4..7 are a whole free island
        var devices = eightIdle();
        for (int i = 0; i < 3; i++) {
            devices.set(i, used(devices.get(i).device(), 10, 0, 0));
        }
        assertThat(grantedIds(BACKEND.fit(devices, ONE, context("spread")))).containsExactly("GPU-7");
        assertThat(grantedIds(BACKEND.fit(devices, ONE, context("topology-aware"))))
                .containsExactly("GPU-3");
        // all eight free: every card sums 3 x 600 + 4 x 10; ties go to the first in walk order
        assertThat(grantedIds(BACKEND.fit(eightIdle(), ONE, context("topology-aware"))))
                .containsExactly("GPU-7");
    }

    @Test
    void whetherANodeFitsAndWhyNotStayTheWalks() {
        var devices = eightIdle();
        for (int i = 0; i < 7; i++) {
            devices.set(i, used(devices.get(i).device(), 10, 0, 0));
        }
        assertThat(reason(BACKEND.fit(devices, TWO, context("topology-aware"))))
                .isEqualTo(reason(BACKEND.fit(devices, TWO, context("spread"))))
                .isEqualTo("1/8 AllocatedCardsInsufficientRequest, 7/8 CardTimeSlicingExhausted");
    }

    @Test
    void withoutScoresTheWalksChoiceStands() {
        var devices = eightIdle();
        var none = new FitContext(Map.of(), Map.of(), "topology-aware", List.of());
        assertThat(grantedIds(BACKEND.fit(devices, TWO, none)))
                .isEqualTo(grantedIds(BACKEND.fit(devices, TWO, context("spread"))))
                .containsExactly("GPU-7", "GPU-6");
    }

    @Test
    void numaBindKeepsTheChoiceOnTheNumaNodeTheWalkSettledOn() {
        // sorted NUMA first, as filter does under numa-bind: the walk settles on NUMA 1 (GPU-2, GPU-6)
        var devices = List.of(
                idle(onNuma(device("GPU-0", "NVIDIA-A100", 0, 40960), 0)),
                idle(onNuma(device("GPU-1", "NVIDIA-A100", 1, 40960), 0)),
                idle(onNuma(device("GPU-5", "NVIDIA-A100", 5, 40960), 1)),
                idle(onNuma(device("GPU-6", "NVIDIA-A100", 6, 40960), 1)),
                idle(onNuma(device("GPU-2", "NVIDIA-A100", 2, 40960), 1)));
        var pod = Map.of(NvidiaKeys.NUMA_BIND, "true");
        assertThat(grantedIds(BACKEND.fit(devices, TWO, context("spread", pod, QuotaRoom.UNLIMITED))))
                .containsExactly("GPU-2", "GPU-6");
        // the linked pair on that NUMA node, not the first linked pair overall (GPU-2 with GPU-1 on NUMA 0)
        assertThat(grantedIds(BACKEND.fit(devices, TWO, context("topology-aware", pod, QuotaRoom.UNLIMITED))))
                .containsExactly("GPU-6", "GPU-5");
        assertThat(grantedIds(BACKEND.fit(devices, TWO, context("topology-aware"))))
                .containsExactly("GPU-2", "GPU-1");
    }

    @Test
    void aChosenSetOverTheQuotaKeepsTheWalksChoice() {
        // half of each card's memory: GPU-0..3 have 80000 MiB, GPU-4..7 10000 MiB; GPU-4..6 are full
        var devices = new ArrayList<DeviceUsage>();
        for (int i = 0; i < 8; i++) {
            DeviceInfo d = device("GPU-" + i, "NVIDIA-A100", i, i < 4 ? 80000 : 10000);
            devices.add(i >= 4 && i < 7 ? used(d, 10, 0, 0) : idle(d));
        }
        var half = new ContainerRequest(2, "NVIDIA", 0, 50, 0);
        assertThat(grantedIds(BACKEND.fit(devices, half, context("topology-aware"))))
                .containsExactly("GPU-3", "GPU-2");
        // the linked pair needs 80000 MiB, the walk's GPU-7 and GPU-3 45000 MiB, the room is 50000 MiB
        var room = new QuotaRoom(50000, Long.MAX_VALUE);
        assertThat(grantedIds(BACKEND.fit(devices, half, context("topology-aware", Map.of(), room))))
                .containsExactly("GPU-7", "GPU-3");
    }

    @Test
    void otherPoliciesAreUntouched() {
        var devices = eightIdle();
        for (String policy : List.of("spread", "binpack", "topology", "topology-aware,spread")) {
            assertThat(grantedIds(BACKEND.fit(devices, TWO, context(policy))))
                    .as(policy)
                    .containsExactly("GPU-7", "GPU-6");
        }
    }

    @Test
    void discoveryRejectsAScoreAnnotationThatDoesNotDecode() {
        String register = JsonRegisterCodec.encode(List.of(device("GPU-0", "NVIDIA-A100", 0, 40960)));
        var bad = node(
                "n1",
                Map.of(
                        NvidiaKeys.REGISTER,
                        register,
                        NvidiaKeys.SCORE,
                        "[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":1.5}}]"));
        assertThat(BACKEND.discover(bad))
                .isEqualTo(new Discovery.Invalid("hami.io/node-nvidia-score on node n1: invalid score for peer"
                        + " \"GPU-1\" in entry 0: 1.5 (want a whole number from 0 to 2147483647)"));
        var good = node("n2", Map.of(NvidiaKeys.REGISTER, register, NvidiaKeys.SCORE, DGX_SCORES));
        assertThat(BACKEND.discover(good)).isInstanceOf(Discovery.Found.class);
        // no NVIDIA devices: the scores are not read
        var bare = node("n3", Map.of(NvidiaKeys.SCORE, "junk"));
        assertThat(BACKEND.discover(bare)).isInstanceOf(Discovery.Absent.class);
    }

    @Test
    void theScoreKeyIsInTheAnnotationCatalog() throws Exception {
        var catalog = new AnnotationCatalog(new DeviceBackends(List.of(BACKEND)));
        var kind = (AnnotationKind.VendorNodeKey)
                catalog.kindOf("hami.io/node-nvidia-score").orElseThrow();
        assertThat(kind.backend()).isSameAs(BACKEND);
        String noisy = " [ {\"Score\":{\"GPU-1\":600,\"GPU-0\":5},\"UUID\":\"GPU-2\"} ] ";
        assertThat(kind.codec().toJson(noisy))
                .isEqualTo("[{\"uuid\":\"GPU-2\",\"score\":{\"GPU-0\":5,\"GPU-1\":600}}]");
        assertThat(kind.codec().fromJson(kind.codec().toJson(noisy)))
                .isEqualTo(kind.codec().toJson(noisy));
    }
}
