package io.hami.scheduler.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.fit.ScoringWeights;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import java.util.Objects;

/**
 * What a pod is fitted against, by filter and again by bind under the node lock: one record, so the two read the same.
 *
 * @param index    the usage index
 * @param quotas   the namespaces' device quotas, over {@code index}
 * @param backends the vendors on the class path
 * @param policy   the default node and device policies
 */
public record FitInputs(UsageIndex index, QuotaBook quotas, DeviceBackends backends, SchedulingPolicy policy) {
    public FitInputs {
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(quotas, "quotas");
        Objects.requireNonNull(backends, "backends");
        Objects.requireNonNull(policy, "policy");
    }

    /** What {@code pod} asks of the vendors. */
    public PodRequest request(Pod pod) {
        return PodRequest.of(pod, backends);
    }

    /** {@code pod}'s placement inputs; fails when its scoring weights are invalid. */
    public PodPlacement placement(Pod pod, PodRequest request) throws ScoringWeights.InvalidWeightsException {
        return PodPlacement.of(pod, request, backends, policy, quotas);
    }
}
