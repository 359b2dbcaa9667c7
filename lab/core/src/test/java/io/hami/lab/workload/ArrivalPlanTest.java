package io.hami.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.ScenarioLoader;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArrivalPlanTest {
    private static final String YAML = """
            name: arrivals
            seed: 5
            nodes: [{name: gpu, devices: [{vendor: nvidia, model: A100, memory: 1000}]}]
            workloads:
              - {name: fast, count: 200, rate: 50, lifetime: 2s..4s, containers: [{name: c}]}
              - {name: late, count: 3, rate: 1, start: 30s, containers: [{name: c}]}
            """;

    @Test
    void podsArriveInOrderAtAboutTheirRateWithLifetimesInRange() throws Exception {
        List<PodPlan> plans = ArrivalPlan.of(ScenarioLoader.parse(YAML, "a.yaml"));

        assertThat(plans).hasSize(203);
        assertThat(plans).isSortedAccordingTo((a, b) -> a.arrival().compareTo(b.arrival()));
        List<PodPlan> fast =
                plans.stream().filter(p -> p.workload().name().equals("fast")).toList();
        // 200 Poisson arrivals at 50/s take about 4 s.
        assertThat(fast.getLast().arrival()).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(5));
        assertThat(fast)
                .allSatisfy(p -> assertThat(p.lifetime()).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(4)));
        assertThat(plans.stream().filter(p -> p.workload().name().equals("late")))
                .allSatisfy(p -> {
                    assertThat(p.arrival()).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
                    assertThat(p.lifetime()).isNull();
                });
    }

    @Test
    void theSeedDecidesTheTimes() throws Exception {
        Scenario s = ScenarioLoader.parse(YAML, "a.yaml");

        assertThat(ArrivalPlan.of(s)).isEqualTo(ArrivalPlan.of(s));
        assertThat(ArrivalPlan.of(s.withSeed(6)).getLast().arrival())
                .isNotEqualTo(ArrivalPlan.of(s).getLast().arrival());
    }
}
