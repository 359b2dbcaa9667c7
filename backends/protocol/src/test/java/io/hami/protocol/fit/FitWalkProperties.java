package io.hami.protocol.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/** Invariants of the walk over random devices, usage and requests. */
class FitWalkProperties {
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

    @Provide
    Arbitrary<List<DeviceUsage>> devices() {
        Arbitrary<DeviceUsage> usage = Combinators.combine(
                Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(0, 20000),
                Arbitraries.of(100, 16),
                Arbitraries.integers().between(0, 1),
                Arbitraries.frequency(Tuple.of(9, true), Tuple.of(1, false)),
                Arbitraries.doubles().between(0, 1)
        ).as((count, devmem, devcore, numa, health, load) -> new DeviceUsage(
                new DeviceInfo("id", 0, count, devmem, devcore, "T", numa, "", health),
                (int) Math.round(count * load), (int) (devmem * load), (int) (devcore * load)));
        return usage.list().ofMaxSize(8).map(FitWalkProperties::withDistinctIds);
    }

    private static List<DeviceUsage> withDistinctIds(List<DeviceUsage> list) {
        List<DeviceUsage> result = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            DeviceInfo d = list.get(i).device();
            result.add(new DeviceUsage(new DeviceInfo("dev-" + i, i, d.count(), d.devmem(), d.devcore(), d.type(),
                    d.numa(), d.mode(), d.health()), list.get(i).used(), list.get(i).usedmem(), list.get(i).usedcores()));
        }
        return result;
    }

    @Provide
    Arbitrary<ContainerRequest> requests() {
        return Combinators.combine(
                Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(0, 20000),
                Arbitraries.oneOf(Arbitraries.just(ContainerRequest.NO_PERCENTAGE), Arbitraries.integers().between(0, 100)),
                Arbitraries.integers().between(0, 150)
        ).as((nums, mem, pct, cores) -> new ContainerRequest(nums, "T", mem, pct, cores));
    }

    @Provide
    Arbitrary<FitContext> contexts() {
        return Arbitraries.of("spread", "binpack", "binpack,mutex")
                .map(policy -> new FitContext(Map.of(), Map.of(), policy, List.of()));
    }

    @Property(tries = 2000)
    void aFitGrantsExactlyTheRequestOnDistinctDevicesThatHaveRoom(@ForAll("devices") List<DeviceUsage> devices,
                                                                  @ForAll("requests") ContainerRequest request,
                                                                  @ForAll("contexts") FitContext context) {
        FitResult result = FitWalk.fit(devices, request, context, ANY_TYPE);
        if (result instanceof FitResult.Fits(List<FitResult.Grant> grants)) {
            assertThat(grants).hasSize(request.nums());
            assertThat(grants).extracting(g -> g.entry().uuid()).doesNotHaveDuplicates();
            for (FitResult.Grant grant : grants) {
                DeviceUsage usage = grant.device();
                assertThat(devices).contains(usage);
                assertThat(usage.device().health()).isTrue();
                assertThat(usage.used()).isLessThan(usage.device().count());
                assertThat(usage.usedmem() + grant.entry().usedmem()).isLessThanOrEqualTo(usage.device().devmem());
                assertThat(usage.usedcores() + grant.entry().usedcores()).isLessThanOrEqualTo(usage.device().devcore());
                assertThat(grant.entry().usedcores()).isLessThanOrEqualTo(100);
            }
        }
    }

    @Property(tries = 2000)
    void aFailureNamesCountsOutOfTheDeviceTotal(@ForAll("devices") List<DeviceUsage> devices,
                                                @ForAll("requests") ContainerRequest request,
                                                @ForAll("contexts") FitContext context) {
        FitResult result = FitWalk.fit(devices, request, context, ANY_TYPE);
        if (result instanceof FitResult.NoFit(String reason) && !reason.isEmpty()) {
            assertThat(reason.split(", ")).allSatisfy(entry ->
                    assertThat(entry).matches("[0-9]+/" + devices.size() + " [A-Za-z]+"));
            assertThat(reason.split(", ")).isSorted();
        }
    }

    @Property(tries = 1000)
    void aRequestOnEnoughIdleHealthyDevicesAlwaysFits(@ForAll("requests") ContainerRequest request) {
        List<DeviceUsage> devices = new ArrayList<>();
        for (int i = 0; i < request.nums(); i++) {
            devices.add(DeviceUsage.idle(new DeviceInfo("dev-" + i, i, 10, 20000, 100, "T", 0, "", true)));
        }
        assertThat(FitWalk.fit(devices, request, FitContext.of(Map.of()), ANY_TYPE)).isInstanceOf(FitResult.Fits.class);
    }
}
