package io.hami.scheduler.leader;

import java.util.Objects;

/** How a scheduler replica decides whether it leads (design D6, docs/design.md#d6): only the leader filters, binds and runs the handshake. */
public sealed interface LeaderMode {
    /** A single replica: always the leader. */
    record Always() implements LeaderMode {}

    /** Campaigns for Lease {@code namespace/name} as {@code identity}. */
    record Elect(String namespace, String name, String identity) implements LeaderMode {
        public Elect {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(identity, "identity");
        }
    }

    /**
     * Leads exactly while the kube-scheduler of this pod holds Lease {@code namespace/name}: kube-scheduler calls the
     * extender in its own pod, so with several replicas the two leaderships must be one.
     *
     * @param podName this pod's name; kube-scheduler's identity is {@code <hostname>_<uuid>}, the hostname being the pod name
     */
    record Follow(String namespace, String name, String podName) implements LeaderMode {
        public Follow {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(podName, "podName");
        }
    }
}
