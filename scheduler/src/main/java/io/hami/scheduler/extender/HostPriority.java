package io.hami.scheduler.extender;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One entry of kube-scheduler's {@code HostPriorityList}: score 0..10, highest best. */
@JsonPropertyOrder({"Host", "Score"})
public record HostPriority(
        @JsonProperty("Host") String host,
        @JsonProperty("Score") long score) {}
