package io.hami.scheduler.extender;

import com.fasterxml.jackson.annotation.JsonProperty;

/** kube-scheduler's {@code ExtenderBindingArgs}. */
public record BindingArgs(
        @JsonProperty("PodName") String podName,
        @JsonProperty("PodNamespace") String podNamespace,
        @JsonProperty("PodUID") String podUID,
        @JsonProperty("Node") String node) {}
