package io.hami.scheduler.extender;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/** kube-scheduler's {@code ExtenderArgs} (extender/v1): Go field names as keys. */
public record ExtenderArgs(
        @JsonProperty("Pod") Pod pod,
        @JsonProperty("Nodes") NodeList nodes,
        @JsonProperty("NodeNames") List<String> nodeNames) {}
