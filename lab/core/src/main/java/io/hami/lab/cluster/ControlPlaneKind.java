package io.hami.lab.cluster;

import java.util.Arrays;
import java.util.Locale;

/** Which API server and kube-scheduler a run uses ({@code hami lab --control-plane}). */
public enum ControlPlaneKind {
    /** The in-process API server ({@code lab/apiserver}) and the simulated kube-scheduler. */
    EMBEDDED("embedded"),
    /** etcd, kube-apiserver and kube-scheduler of the pinned Kubernetes release ({@code lab/control-plane}). */
    KUBERNETES("kubernetes");

    /** How the report names the embedded control plane (the real one names its release). */
    public static final String EMBEDDED_DESCRIPTION = "embedded API server, simulated kube-scheduler";

    private final String option;

    ControlPlaneKind(String option) {
        this.option = option;
    }

    /** The value of {@code --control-plane}. */
    public String option() {
        return option;
    }

    public static ControlPlaneKind of(String option) {
        return Arrays.stream(values())
                .filter(k -> k.option.equals(option.toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow(() ->
                        new IllegalArgumentException("unknown control plane " + option + " (embedded or kubernetes)"));
    }

    @Override
    public String toString() {
        return option;
    }
}
