package io.hami.scheduler.preempt;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * kube-scheduler's {@code ExtenderPreemptionResult}: the nodes where preemption helps, each with the victims to
 * evict. {@code Error} is ours (Go's decoder ignores it): it comes only with a status other than 200, which
 * kube-scheduler reports as the extender's failure.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PreemptionResult(
        @JsonProperty("NodeNameToMetaVictims") Map<String, PreemptionArgs.MetaVictims> nodeNameToMetaVictims,
        @JsonProperty("Error") String error) {

    public static PreemptionResult of(Map<String, PreemptionArgs.MetaVictims> victims) {
        return new PreemptionResult(victims, null);
    }

    public static PreemptionResult error(String message) {
        return new PreemptionResult(null, message);
    }

    /** An answer and the HTTP status it goes with. */
    public record Reply(int status, PreemptionResult body) {}
}
