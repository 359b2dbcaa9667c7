package io.hami.scheduler.extender;

import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.NodePlacement;
import io.hami.scheduler.fit.ScoringWeights;
import java.util.Map;

/**
 * The scheduler's default node and device policies, which a pod may override with
 * {@code hami.io/node-scheduler-policy} and {@code hami.io/gpu-scheduler-policy}.
 */
public record SchedulingPolicy(String nodePolicy, String gpuPolicy) {
    public static final SchedulingPolicy UPSTREAM_DEFAULTS = new SchedulingPolicy("binpack", "spread");

    public SchedulingPolicy {
        if (!nodePolicy.equals("binpack") && !nodePolicy.equals("spread")) {
            throw new IllegalArgumentException("node policy must be binpack or spread, got \"" + nodePolicy + "\"");
        }
    }

    public String nodePolicyFor(Map<String, String> podAnnotations) {
        String v = podAnnotations.get(ProtocolKeys.NODE_SCHEDULER_POLICY);
        return v == null || v.isBlank() ? nodePolicy : v.trim();
    }

    /** The placement policy of one pod. */
    public NodePlacement.Policy placementFor(Map<String, String> podAnnotations, DeviceBackends backends)
            throws ScoringWeights.InvalidWeightsException {
        String gpu = podAnnotations.get(ProtocolKeys.GPU_SCHEDULER_POLICY);
        boolean numaBind = backends.all().stream().anyMatch(b -> b.numaBind(podAnnotations));
        return new NodePlacement.Policy(
                gpu == null || gpu.isBlank() ? gpuPolicy : gpu.trim(), ScoringWeights.of(podAnnotations), numaBind);
    }
}
