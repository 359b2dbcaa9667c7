package io.hami.scheduler.extender;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** kube-scheduler's {@code ExtenderBindingResult}: an empty Error means bound. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record BindingResult(@JsonProperty("Error") String error) {
    public static final BindingResult OK = new BindingResult("");

    public boolean ok() {
        return error.isEmpty();
    }
}
