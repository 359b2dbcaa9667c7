package io.hami.scheduler.preempt;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's {@code ExtenderPreemptionArgs} (extender/v1): the pod to place and, per candidate node, the victims
 * its own preemption chose, as whole pods ({@code nodeCacheCapable: false}) or as UIDs ({@code nodeCacheCapable: true},
 * what deploy/ configures). Go field names as keys.
 */
public record PreemptionArgs(
        @JsonProperty("Pod") Pod pod,
        @JsonProperty("NodeNameToVictims") Map<String, Victims> nodeNameToVictims,
        @JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {

    /** extender/v1 {@code Victims}: whole pods, most important first. */
    public record Victims(
            @JsonProperty("Pods") List<Pod> pods,
            @JsonProperty("NumPDBViolations") long numPdbViolations) {}

    /** extender/v1 {@code MetaVictims}: pods by UID, most important first. */
    public record MetaVictims(
            @JsonProperty("Pods") List<MetaPod> pods,
            @JsonProperty("NumPDBViolations") long numPdbViolations) {}

    /** extender/v1 {@code MetaPod}. */
    public record MetaPod(@JsonProperty("UID") String uid) {}
}
