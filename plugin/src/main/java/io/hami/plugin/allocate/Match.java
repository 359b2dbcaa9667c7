package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/** Which pod an Allocate is for, as far as the node's state tells. */
public sealed interface Match {

    /** The node lock names this pod, it is allocating, and no other pod on the node can be the caller. */
    record Serve(Pod pod) implements Match {}

    /** Another pod with a decision may be waiting too, so the Allocate cannot be attributed; it may settle shortly. */
    record Ambiguous(String reason) implements Match {}

    /**
     * Pods on the node wait for the same kubelet resource without a decision of the scheduler: the kubelet's call
     * may be theirs, so the holder's entry is not served (fail closed). It may settle when the kubelet rejects them.
     *
     * @param holder    the pod the node lock names
     * @param undecided the pods that cannot be told apart from it
     */
    record Indistinguishable(String reason, Pod holder, List<Pod> undecided) implements Match {
        public Indistinguishable {
            undecided = List.copyOf(undecided);
        }
    }

    /** No pod this Allocate can be for. */
    record Unmatched(String reason) implements Match {}
}
