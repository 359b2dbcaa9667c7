package io.hami.lab.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One lab run as a scenario file describes it: the cluster, the workload that arrives over time and the faults
 * injected at given times. Read with {@link ScenarioLoader}, which also checks the rules between the parts.
 *
 * @param name        short name, used in report file names
 * @param description what the scenario shows, for the report
 * @param seed        seed of every random choice (arrival jitter, lifetimes, injected API errors)
 * @param timeout     the run stops after this long even when pods are still moving
 * @param settle      once every arrival and fault is done, the run ends after this long without any pod change
 * @param scheduler   how the scheduler and the simulated kube-scheduler run
 * @param nodes       node groups
 * @param workloads   pod groups
 * @param faults      faults, in any order
 * @param priorityClasses PriorityClasses the run creates before the workload, name to value; workloads name them
 */
public record Scenario(
        String name,
        String description,
        Long seed,
        Duration timeout,
        Duration settle,
        SchedulerSpec scheduler,
        List<NodeGroup> nodes,
        List<Workload> workloads,
        List<Fault> faults,
        Map<String, Integer> priorityClasses) {
    public Scenario {
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description.strip();
        seed = seed == null ? 1L : seed;
        timeout = timeout == null ? Duration.ofMinutes(10) : timeout;
        settle = settle == null ? Duration.ofSeconds(3) : settle;
        scheduler = scheduler == null ? SchedulerSpec.DEFAULTS : scheduler;
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        workloads = workloads == null ? List.of() : List.copyOf(workloads);
        faults = faults == null ? List.of() : List.copyOf(faults);
        priorityClasses = priorityClasses == null ? Map.of() : Map.copyOf(priorityClasses);
    }

    /**
     * Whether the NVIDIA plugins publish their topology score: the scheduler's default device policy, or some
     * workload's, is {@code topology-aware}.
     */
    public boolean topologyScore() {
        return SchedulerSpec.TOPOLOGY_AWARE.equals(scheduler.gpuPolicy())
                || workloads.stream()
                        .anyMatch(w -> SchedulerSpec.TOPOLOGY_AWARE.equals(
                                w.annotations().get(Workload.GPU_POLICY)));
    }

    /** Every node of every group, in file order. */
    public List<NodeSpec> nodeSpecs() {
        return nodes.stream().flatMap(g -> g.expand().stream()).toList();
    }

    /** The same scenario with another seed. */
    public Scenario withSeed(long newSeed) {
        return new Scenario(
                name, description, newSeed, timeout, settle, scheduler, nodes, workloads, faults, priorityClasses);
    }

    /**
     * The same scenario with each workload's pod count multiplied by {@code factor} (at least one pod each), for
     * quick runs of a large scenario.
     */
    public Scenario scaled(double factor) {
        return new Scenario(
                name,
                description,
                seed,
                timeout,
                settle,
                scheduler,
                nodes,
                workloads.stream().map(w -> w.scaled(factor)).toList(),
                faults,
                priorityClasses);
    }
}
