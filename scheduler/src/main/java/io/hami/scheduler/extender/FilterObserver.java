package io.hami.scheduler.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.scheduler.fit.Denial;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What filter reports to events and metrics. */
public interface FilterObserver {
    /**
     * One filter call that reached a decision.
     *
     * @param fitting the nodes that fit
     * @param failed  node to why it does not fit, for the others
     * @param took    wall time of the call
     */
    void filtered(Pod pod, List<String> fitting, Map<String, Denial> failed, Duration took);

    FilterObserver NONE = (pod, fitting, failed, took) -> {};
}
