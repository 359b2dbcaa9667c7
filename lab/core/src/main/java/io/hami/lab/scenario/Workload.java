package io.hami.lab.scenario;

import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.scheduler.gang.GangMembership;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code count} pods of one shape, named {@code <name>-<i>}, arriving at {@code rate} per second from {@code start}.
 *
 * @param name           prefix of the pod names
 * @param count          how many pods
 * @param rate           mean arrivals per second (Poisson arrivals from the scenario's seed)
 * @param start          when the first may arrive, from the start of the run
 * @param lifetime       how long each pod runs before it succeeds; null: until the end of the run
 * @param expect         what must become of every pod; null: no expectation
 * @param annotations    pod annotations (policies, selectors)
 * @param initContainers init containers, run one after another before the containers
 * @param containers     app containers
 * @param priorityClass  the PriorityClass of its pods (one of the scenario's {@code priorityClasses}); null: none
 * @param podGroup       the gang its pods belong to: the label {@code scheduling.x-k8s.io/pod-group}; null: none
 */
public record Workload(
        String name,
        Integer count,
        Double rate,
        Duration start,
        Lifetime lifetime,
        Expectation expect,
        Map<String, String> annotations,
        List<ContainerSpec> initContainers,
        List<ContainerSpec> containers,
        String priorityClass,
        String podGroup) {
    /** The pod annotation that picks the device policy. */
    public static final String GPU_POLICY = ProtocolKeys.GPU_SCHEDULER_POLICY;
    /** The gang label of scheduler-plugins' coscheduling, which the scheduler reads (issue 14, point 1). */
    public static final String POD_GROUP_LABEL = GangMembership.POD_GROUP_LABEL;

    public Workload {
        count = count == null ? 1 : count;
        rate = rate == null ? 10.0 : rate;
        start = start == null ? Duration.ZERO : start;
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        initContainers = initContainers == null ? List.of() : List.copyOf(initContainers);
        containers = containers == null ? List.of() : List.copyOf(containers);
    }

    Workload scaled(double factor) {
        int scaled = Math.max(1, (int) Math.round(count * factor));
        return new Workload(
                name,
                scaled,
                rate,
                start,
                lifetime,
                expect,
                annotations,
                initContainers,
                containers,
                priorityClass,
                podGroup);
    }

    /** What the lab checks about every pod of a workload at the end of the run. */
    public enum Expectation {
        /** The pod ran: it is running or succeeded. */
        RUNNING,
        /** No node could take it: it is still pending, with the scheduler's reasons. */
        UNSCHEDULABLE,
        /** The scheduler's admission webhook denied it. */
        REJECTED
    }
}
