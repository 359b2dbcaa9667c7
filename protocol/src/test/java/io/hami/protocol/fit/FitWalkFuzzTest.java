package io.hami.protocol.fit;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Invariants of the walk over random devices, usage and requests. */
class FitWalkFuzzTest {
    private static final FitRules ANY_TYPE = new FitRules() {
        @Override
        public boolean typeMatches(DeviceInfo device, ContainerRequest request, FitContext context) {
            return true;
        }

        @Override
        public DeviceSelector uuidSelector() {
            return new DeviceSelector("p/use", "p/nouse");
        }
    };

    private static List<DeviceUsage> devices(FuzzedDataProvider data) {
        int size = data.consumeInt(0, 8);
        List<DeviceUsage> list = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int count = data.consumeInt(1, 4);
            int devmem = data.consumeInt(0, 20000);
            int devcore = data.pickValue(new int[] {100, 16});
            int numa = data.consumeInt(0, 1);
            boolean health = data.consumeInt(0, 9) != 0; // 9 : 1 healthy
            double load = data.consumeProbabilityDouble();
            list.add(new DeviceUsage(
                    new DeviceInfo("id", 0, count, devmem, devcore, "T", numa, "", health),
                    (int) Math.round(count * load),
                    (int) (devmem * load),
                    (int) (devcore * load)));
        }
        return withDistinctIds(list);
    }

    private static List<DeviceUsage> withDistinctIds(List<DeviceUsage> list) {
        List<DeviceUsage> result = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            DeviceInfo d = list.get(i).device();
            result.add(new DeviceUsage(
                    new DeviceInfo(
                            "dev-" + i,
                            i,
                            d.count(),
                            d.devmem(),
                            d.devcore(),
                            d.type(),
                            d.numa(),
                            d.mode(),
                            d.health()),
                    list.get(i).used(),
                    list.get(i).usedmem(),
                    list.get(i).usedcores()));
        }
        return result;
    }

    private static ContainerRequest request(FuzzedDataProvider data) {
        int nums = data.consumeInt(1, 4);
        int mem = data.consumeInt(0, 20000);
        int pct = data.consumeBoolean() ? ContainerRequest.NO_PERCENTAGE : data.consumeInt(0, 100);
        int cores = data.consumeInt(0, 150);
        return new ContainerRequest(nums, "T", mem, pct, cores);
    }

    private static FitContext context(FuzzedDataProvider data) {
        String policy = data.pickValue(new String[] {"spread", "binpack", "binpack,mutex"});
        return new FitContext(Map.of(), Map.of(), policy, List.of());
    }

    @FuzzTest
    void aFitGrantsExactlyTheRequestOnDistinctDevicesThatHaveRoom(FuzzedDataProvider data) {
        List<DeviceUsage> devices = devices(data);
        ContainerRequest request = request(data);
        FitContext context = context(data);
        FitResult result = FitWalk.fit(devices, request, context, ANY_TYPE);
        if (result instanceof FitResult.Fits(List<FitResult.Grant> grants)) {
            assertThat(grants).hasSize(request.nums());
            assertThat(grants).extracting(g -> g.entry().uuid()).doesNotHaveDuplicates();
            for (FitResult.Grant grant : grants) {
                DeviceUsage usage = grant.device();
                assertThat(devices).contains(usage);
                assertThat(usage.device().health()).isTrue();
                assertThat(usage.used()).isLessThan(usage.device().count());
                assertThat(usage.usedmem() + grant.entry().usedmem())
                        .isLessThanOrEqualTo(usage.device().devmem());
                assertThat(usage.usedcores() + grant.entry().usedcores())
                        .isLessThanOrEqualTo(usage.device().devcore());
                assertThat(grant.entry().usedcores()).isLessThanOrEqualTo(100);
            }
        }
    }

    @FuzzTest
    void aFailureNamesCountsOutOfTheDeviceTotal(FuzzedDataProvider data) {
        List<DeviceUsage> devices = devices(data);
        ContainerRequest request = request(data);
        FitContext context = context(data);
        FitResult result = FitWalk.fit(devices, request, context, ANY_TYPE);
        if (result instanceof FitResult.NoFit noFit && !noFit.reason().isEmpty()) {
            String reason = noFit.reason();
            assertThat(reason.split(", "))
                    .allSatisfy(entry -> assertThat(entry).matches("[0-9]+/" + devices.size() + " [A-Za-z]+"));
            assertThat(reason.split(", ")).isSorted();
        }
    }

    @FuzzTest
    void aRequestOnEnoughIdleHealthyDevicesAlwaysFits(FuzzedDataProvider data) {
        ContainerRequest request = request(data);
        List<DeviceUsage> devices = new ArrayList<>();
        for (int i = 0; i < request.nums(); i++) {
            devices.add(DeviceUsage.idle(new DeviceInfo("dev-" + i, i, 10, 20000, 100, "T", 0, "", true)));
        }
        assertThat(FitWalk.fit(devices, request, FitContext.of(Map.of()), ANY_TYPE))
                .isInstanceOf(FitResult.Fits.class);
    }
}
