package io.hami.scheduler.extender;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * kube-scheduler's {@code ExtenderArgs} (extender/v1): Go field names as keys. Read from a body, {@code nodeNames} holds
 * each name once and may be the very list an earlier body was read into ({@link NodeNamesReader}): never change it.
 */
public record ExtenderArgs(
        @JsonProperty("Pod") Pod pod,
        @JsonProperty("Nodes") NodeList nodes,

        @JsonProperty("NodeNames") @JsonDeserialize(using = NodeNamesReader.class)
        List<String> nodeNames) {}
