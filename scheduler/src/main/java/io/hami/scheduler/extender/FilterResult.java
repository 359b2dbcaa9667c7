package io.hami.scheduler.extender;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.kubernetes.api.model.NodeList;
import java.util.List;
import java.util.Map;

/** kube-scheduler's {@code ExtenderFilterResult}, in Go's field order; null fields are written as null. */
@JsonPropertyOrder({"Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record FilterResult(
        @JsonProperty("Nodes") NodeList nodes,
        @JsonProperty("NodeNames") List<String> nodeNames,
        @JsonProperty("FailedNodes") Map<String, String> failedNodes,
        @JsonProperty("FailedAndUnresolvableNodes") Map<String, String> failedAndUnresolvableNodes,
        @JsonProperty("Error") String error) {

    public static FilterResult error(String message) {
        return new FilterResult(null, null, null, null, message);
    }

    public static FilterResult of(List<String> fitting, Map<String, String> failed) {
        return new FilterResult(null, fitting, failed, null, "");
    }
}
