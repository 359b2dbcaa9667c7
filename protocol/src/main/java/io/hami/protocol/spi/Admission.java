package io.hami.protocol.spi;

import java.util.Map;

/**
 * A vendor's webhook verdict on one container (docs/upstream.md#webhook): whether it asks for
 * this vendor and what defaults to fill in, or why it is rejected.
 */
public sealed interface Admission {

    /** Nothing of this vendor is asked for and nothing changes. */
    Accepted NOT_REQUESTED = new Accepted(false, Map.of(), Map.of(), Map.of());

    /**
     * @param requested           the container asks for this vendor's devices
     * @param limitsToSet         resource limits to set on the container (name to quantity text)
     * @param envToAdd            environment variables to append to the container, unless already set
     * @param podAnnotationsToSet annotations to set on the pod
     * @param runtimeClassName    {@code spec.runtimeClassName} to set on the pod unless it has one; empty for none
     */
    record Accepted(
            boolean requested,
            Map<String, String> limitsToSet,
            Map<String, String> envToAdd,
            Map<String, String> podAnnotationsToSet,
            String runtimeClassName)
            implements Admission {
        public Accepted {
            limitsToSet = Map.copyOf(limitsToSet);
            envToAdd = Map.copyOf(envToAdd);
            podAnnotationsToSet = Map.copyOf(podAnnotationsToSet);
            runtimeClassName = runtimeClassName == null ? "" : runtimeClassName;
        }

        /** No runtime class. */
        public Accepted(
                boolean requested,
                Map<String, String> limitsToSet,
                Map<String, String> envToAdd,
                Map<String, String> podAnnotationsToSet) {
            this(requested, limitsToSet, envToAdd, podAnnotationsToSet, "");
        }
    }

    /** The container's request is invalid; {@code message} is shown to the user who created the pod. */
    record Rejected(String message) implements Admission {}
}
