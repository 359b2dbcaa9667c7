package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;

/** Which pod an Allocate is for, as far as the node's state tells. */
public sealed interface Match {

    /** Exactly this pod can be waiting for the vendor's devices, and it is allocating. */
    record Serve(Pod pod) implements Match {
    }

    /** More than one pod may be waiting, so the Allocate cannot be attributed; it may settle shortly. */
    record Ambiguous(String reason) implements Match {
    }

    /** No pod this Allocate can be for. */
    record Unmatched(String reason) implements Match {
    }
}
