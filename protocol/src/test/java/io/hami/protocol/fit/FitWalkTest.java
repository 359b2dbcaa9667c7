package io.hami.protocol.fit;

import static io.hami.protocol.testing.FitFixtures.device;
import static io.hami.protocol.testing.FitFixtures.grantedIds;
import static io.hami.protocol.testing.FitFixtures.idle;
import static io.hami.protocol.testing.FitFixtures.onNuma;
import static io.hami.protocol.testing.FitFixtures.reason;
import static io.hami.protocol.testing.FitFixtures.used;
import static io.hami.protocol.testing.FitFixtures.withCapacity;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The common walk of docs/upstream.md#fit, with minimal vendor rules. */
class FitWalkTest {
    private static final String T = "T";
    private static final DeviceSelector UUIDS = new DeviceSelector("t/use-uuid", "t/nouse-uuid");

    /** Type matches when the device type starts with the request type; the other hooks are configurable. */
    private record Rules(boolean numa, Set<String> cordon, Predicate<DeviceUsage> custom) implements FitRules {
        static final Rules PLAIN = new Rules(false, Set.of(), d -> true);

        @Override
        public boolean typeMatches(DeviceInfo device, ContainerRequest request, FitContext context) {
            return device.type().startsWith(request.type());
        }

        @Override
        public DeviceSelector uuidSelector() {
            return UUIDS;
        }

        @Override
        public Set<String> cordoned(FitContext context) {
            return cordon;
        }

        @Override
        public boolean numaBind(FitContext context) {
            return numa;
        }

        @Override
        public boolean customRule(DeviceUsage device, FitContext context) {
            return custom.test(device);
        }
    }

    private static ContainerRequest request(int nums, int memreq, int percentage, int cores) {
        return new ContainerRequest(nums, T, memreq, percentage, cores);
    }

    private static final ContainerRequest ONE_SMALL = request(1, 1000, ContainerRequest.NO_PERCENTAGE, 10);
    private static final FitContext CONTEXT = FitContext.of(Map.of());

    private static FitResult fit(List<DeviceUsage> devices, ContainerRequest request) {
        return FitWalk.fit(devices, request, CONTEXT, Rules.PLAIN);
    }

    private static DeviceInfo gpu(String id, int index) {
        return device(id, "T-model", index, 16000);
    }

    @Nested
    class Quota {
        private FitResult fitUnder(
                List<DeviceUsage> devices, ContainerRequest request, List<ContainerDevice> earlier, QuotaRoom room) {
            return FitWalk.fit(
                    devices, request, new FitContext(Map.of(), Map.of(), "spread", earlier, room), Rules.PLAIN);
        }

        @Test
        void aDeviceThatWouldPutThePodOverItsRoomIsSkippedWithTheReason() {
            var devices = List.of(idle(gpu("a", 0)), idle(gpu("b", 1)));
            assertThat(reason(fitUnder(devices, request(1, 3000, 101, 10), List.of(), new QuotaRoom(2999, 100))))
                    .isEqualTo("2/2 " + Reasons.RESOURCE_QUOTA_NOT_FIT);
            assertThat(grantedIds(fitUnder(devices, request(1, 3000, 101, 10), List.of(), new QuotaRoom(3000, 10))))
                    .containsExactly("b");
            assertThat(reason(fitUnder(devices, request(1, 3000, 101, 10), List.of(), new QuotaRoom(3000, 9))))
                    .isEqualTo("2/2 " + Reasons.RESOURCE_QUOTA_NOT_FIT);
        }

        @Test
        void theContainersDevicesSoFarCount() {
            var devices = List.of(idle(gpu("a", 0)), idle(gpu("b", 1)), idle(gpu("c", 2)));
            // two devices of 2000 MiB fit in 5000; a third would not
            assertThat(grantedIds(fitUnder(devices, request(2, 2000, 101, 0), List.of(), new QuotaRoom(5000, 100))))
                    .containsExactly("c", "b");
            assertThat(reason(fitUnder(devices, request(3, 2000, 101, 0), List.of(), new QuotaRoom(5000, 100))))
                    .isEqualTo("1/3 " + Reasons.RESOURCE_QUOTA_NOT_FIT + ", 2/3 "
                            + Reasons.ALLOCATED_CARDS_INSUFFICIENT_REQUEST);
            // what other containers hold is the caller's to take off the room
            var earlier = List.of(new ContainerDevice("x", T, 2000, 0));
            assertThat(grantedIds(fitUnder(devices, request(2, 2000, 101, 0), earlier, new QuotaRoom(5000, 100))))
                    .containsExactly("c", "b");
            assertThat(new QuotaRoom(5000, Long.MAX_VALUE).minus(2000, 30))
                    .isEqualTo(new QuotaRoom(3000, Long.MAX_VALUE));
        }

        @Test
        void unlimitedChangesNothing() {
            var devices = List.of(idle(gpu("a", 0)));
            assertThat(fitUnder(devices, ONE_SMALL, List.of(), QuotaRoom.UNLIMITED))
                    .isEqualTo(fit(devices, ONE_SMALL));
        }
    }

    @Nested
    class Choice {
        @Test
        void theLastDeviceOfTheSortedListIsTriedFirst() {
            var devices = List.of(idle(gpu("a", 0)), idle(gpu("b", 1)), idle(gpu("c", 2)));
            assertThat(grantedIds(fit(devices, ONE_SMALL))).containsExactly("c");
            assertThat(grantedIds(fit(devices, request(2, 1000, 101, 10)))).containsExactly("c", "b");
        }

        @Test
        void theGrantCarriesTheVendorKeywordMemoryAndCores() {
            var result = (FitResult.Fits) fit(List.of(idle(gpu("a", 0))), request(1, 3000, 101, 30));
            assertThat(result.grants()).singleElement().satisfies(g -> {
                assertThat(g.entry()).isEqualTo(new ContainerDevice("a", T, 3000, 30));
                assertThat(g.device()).isEqualTo(idle(gpu("a", 0)));
            });
        }

        @Test
        void aPercentageTakesThatShareOfEachDevice() {
            var devices = List.of(idle(device("a", "T-x", 0, 16000)), idle(device("b", "T-y", 1, 24000)));
            var result = (FitResult.Fits) fit(devices, request(2, 0, 50, 0));
            assertThat(result.grants()).extracting(g -> g.entry().usedmem()).containsExactly(12000, 8000);
        }

        @Test
        void explicitMemoryWinsOverAPercentage() {
            var result = (FitResult.Fits) fit(List.of(idle(gpu("a", 0))), request(1, 2000, 50, 0));
            assertThat(result.grants().getFirst().entry().usedmem()).isEqualTo(2000);
        }

        @Test
        void noMemoryAndNoPercentageTakesNoMemory() {
            var result = (FitResult.Fits) fit(List.of(idle(gpu("a", 0))), request(1, 0, 101, 0));
            assertThat(result.grants().getFirst().entry().usedmem()).isZero();
        }

        @Test
        void coresAboveOneHundredAreClampedToAWholeCard() {
            var result = (FitResult.Fits) fit(List.of(idle(gpu("a", 0))), request(1, 0, 100, 250));
            assertThat(result.grants().getFirst().entry().usedcores()).isEqualTo(100);
        }

        @Test
        void theFirstFailingCheckIsTheOnlyOneCounted() {
            var sick = new DeviceInfo("a", 0, 10, 100, 100, "other", 0, "", false);
            assertThat(reason(fit(List.of(idle(sick)), ONE_SMALL))).isEqualTo("1/1 CardNotHealth");
        }
    }

    @Nested
    class EachReason {
        @Test
        void cardNotHealth() {
            var sick = gpu("a", 0).withHealth(false);
            assertThat(reason(fit(List.of(idle(sick)), ONE_SMALL))).isEqualTo("1/1 CardNotHealth");
        }

        @Test
        void cardCordoned() {
            var rules = new Rules(false, Set.of("a"), d -> true);
            var result =
                    FitWalk.fit(List.of(idle(gpu("a", 0)), idle(gpu("b", 1))), request(2, 0, 101, 0), CONTEXT, rules);
            assertThat(reason(result)).isEqualTo("1/2 AllocatedCardsInsufficientRequest, 1/2 CardCordoned");
        }

        @Test
        void cardTypeMismatch() {
            var other = device("a", "U-model", 0, 16000);
            assertThat(reason(fit(List.of(idle(other)), ONE_SMALL))).isEqualTo("1/1 CardTypeMismatch");
        }

        @Test
        void cardUuidMismatch() {
            var context = FitContext.of(Map.of("t/use-uuid", "b"));
            var result = FitWalk.fit(List.of(idle(gpu("a", 0))), ONE_SMALL, context, Rules.PLAIN);
            assertThat(reason(result)).isEqualTo("1/1 CardUuidMismatch");
        }

        @Test
        void cardTimeSlicingExhausted() {
            var full = used(withCapacity(gpu("a", 0), 2, 100), 2, 0, 0);
            assertThat(reason(fit(List.of(full), ONE_SMALL))).isEqualTo("1/1 CardTimeSlicingExhausted");
        }

        @Test
        void mutexPolicyRefusesAnyUsedDevice() {
            var context = new FitContext(Map.of(), Map.of(), "binpack, mutex", List.of());
            var devices = List.of(idle(gpu("a", 0)), used(gpu("b", 1), 1, 100, 1));
            var result = FitWalk.fit(devices, request(2, 0, 101, 0), context, Rules.PLAIN);
            assertThat(reason(result))
                    .isEqualTo("1/2 AllocatedCardsInsufficientRequest, 1/2 ExclusiveDeviceAllocateConflict");
            assertThat(grantedIds(FitWalk.fit(devices, ONE_SMALL, context, Rules.PLAIN)))
                    .containsExactly("a");
        }

        /** No share left is counted before the mutex, a full device's memory after it (upstream's order). */
        @Test
        void underMutexTheSplitCountComesFirstAndMemoryAfter() {
            var context = new FitContext(Map.of(), Map.of(), "mutex", List.of());
            var noShare = used(withCapacity(gpu("a", 0), 1, 100), 1, 16000, 0);
            var noMemory = used(gpu("b", 1), 1, 16000, 0);
            assertThat(reason(FitWalk.fit(List.of(noShare, noMemory), ONE_SMALL, context, Rules.PLAIN)))
                    .isEqualTo("1/2 CardTimeSlicingExhausted, 1/2 ExclusiveDeviceAllocateConflict");
        }

        @Test
        void cardInsufficientMemory() {
            var busy = used(gpu("a", 0), 1, 15500, 0);
            assertThat(reason(fit(List.of(busy), ONE_SMALL))).isEqualTo("1/1 CardInsufficientMemory");
        }

        @Test
        void aPercentageIsCheckedAgainstFreeMemory() {
            var busy = used(gpu("a", 0), 1, 8001, 0);
            assertThat(reason(fit(List.of(busy), request(1, 0, 50, 0)))).isEqualTo("1/1 CardInsufficientMemory");
        }

        @Test
        void cardInsufficientCore() {
            var busy = used(gpu("a", 0), 1, 0, 95);
            assertThat(reason(fit(List.of(busy), ONE_SMALL))).isEqualTo("1/1 CardInsufficientCore");
        }

        @Test
        void aWholeCardRequestNeedsAnUnusedCard() {
            var shared = used(gpu("a", 0), 1, 1000, 0);
            assertThat(reason(fit(List.of(shared), request(1, 0, 101, 100))))
                    .isEqualTo("1/1 ExclusiveDeviceAllocateConflict");
            assertThat(grantedIds(fit(List.of(idle(gpu("a", 0))), request(1, 0, 101, 100))))
                    .containsExactly("a");
        }

        @Test
        void theWholeCardRuleOnlyAppliesToHundredCoreCards() {
            var sixteen = used(withCapacity(gpu("a", 0), 10, 16), 1, 0, 0);
            var result = fit(List.of(sixteen), request(1, 0, 101, 100));
            assertThat(reason(result)).isEqualTo("1/1 CardInsufficientCore");
        }

        @Test
        void cardComputeUnitsExhausted() {
            var allCoresTaken = used(gpu("a", 0), 1, 0, 100);
            assertThat(reason(fit(List.of(allCoresTaken), request(1, 1000, 101, 0))))
                    .isEqualTo("1/1 CardComputeUnitsExhausted");
        }

        @Test
        void cardNotFoundCustomFilterRule() {
            var rules = new Rules(false, Set.of(), d -> !d.device().id().equals("a"));
            var result = FitWalk.fit(List.of(idle(gpu("a", 0))), ONE_SMALL, CONTEXT, rules);
            assertThat(reason(result)).isEqualTo("1/1 CardNotFoundCustomFilterRule");
        }

        @Test
        void allocatedCardsInsufficientRequestCountsTheDevicesTaken() {
            var devices = List.of(idle(gpu("a", 0)), idle(gpu("b", 1)), used(gpu("c", 2), 1, 16000, 0));
            assertThat(reason(fit(devices, request(3, 1000, 101, 0))))
                    .isEqualTo("1/3 CardInsufficientMemory, 2/3 AllocatedCardsInsufficientRequest");
        }
    }

    @Nested
    class Numa {
        private final Rules numaRules = new Rules(true, Set.of(), d -> true);

        @Test
        void devicesOfOneRequestShareANumaNode() {
            var devices = List.of(idle(gpu("a", 0)), idle(gpu("b", 1)), idle(onNuma(gpu("c", 2), 1)));
            var result = FitWalk.fit(devices, request(2, 0, 101, 0), CONTEXT, numaRules);
            assertThat(grantedIds(result)).containsExactly("b", "a");
        }

        @Test
        void withoutNumaBindTheSameDevicesMix() {
            var devices = List.of(idle(gpu("a", 0)), idle(gpu("b", 1)), idle(onNuma(gpu("c", 2), 1)));
            assertThat(grantedIds(fit(devices, request(2, 0, 101, 0)))).containsExactly("c", "b");
        }

        @Test
        void leavingANumaNodeCountsTheDevicesGivenBack() {
            var devices = List.of(used(gpu("a", 0), 1, 16000, 0), idle(onNuma(gpu("b", 1), 1)));
            var result = FitWalk.fit(devices, request(2, 1000, 101, 0), CONTEXT, numaRules);
            assertThat(reason(result)).isEqualTo("1/2 CardInsufficientMemory, 1/2 NumaNotFit");
        }

        @Test
        void numaNotFitCountsEveryDeviceTakenOnTheNodeLeft() {
            var devices = List.of(idle(gpu("a", 0)), idle(onNuma(gpu("b", 1), 1)), idle(onNuma(gpu("c", 2), 1)));
            var result = FitWalk.fit(devices, request(3, 0, 101, 0), CONTEXT, numaRules);
            assertThat(reason(result)).isEqualTo("1/3 AllocatedCardsInsufficientRequest, 2/3 NumaNotFit");
        }

        /** design D9: a node whose devices all have an unknown NUMA node (-1) is one NUMA group, never unschedulable. */
        @Test
        void devicesOfUnknownNumaFitTogether() {
            var devices = List.of(
                    idle(onNuma(gpu("a", 0), DeviceInfo.NO_NUMA)),
                    idle(onNuma(gpu("b", 1), DeviceInfo.NO_NUMA)),
                    idle(onNuma(gpu("c", 2), DeviceInfo.NO_NUMA)));
            assertThat(grantedIds(FitWalk.fit(devices, request(3, 1000, 101, 30), CONTEXT, numaRules)))
                    .containsExactly("c", "b", "a");
            assertThat(grantedIds(fit(devices, request(2, 1000, 101, 30)))).containsExactly("c", "b");
        }

        /**
         * Upstream compares NUMA nodes as numbers, so -1 devices group with each other and never with a known node:
         * we keep that, since nothing says an unknown device sits on the known one's node.
         */
        @Test
        void unknownNumaIsItsOwnGroupBesideKnownNodes() {
            var devices = List.of(
                    idle(onNuma(gpu("a", 0), DeviceInfo.NO_NUMA)),
                    idle(onNuma(gpu("b", 1), DeviceInfo.NO_NUMA)),
                    idle(gpu("c", 2)));
            assertThat(grantedIds(FitWalk.fit(devices, request(2, 0, 101, 0), CONTEXT, numaRules)))
                    .containsExactly("b", "a");
            assertThat(reason(FitWalk.fit(devices, request(3, 0, 101, 0), CONTEXT, numaRules)))
                    .isEqualTo("1/3 NumaNotFit, 2/3 AllocatedCardsInsufficientRequest");
        }
    }
}
