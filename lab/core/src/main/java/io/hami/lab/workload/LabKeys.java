package io.hami.lab.workload;

/** Labels and annotations the lab puts on the objects it creates; none of them is part of the HAMi protocol. */
public final class LabKeys {
    /** Pod label: the scenario workload a pod belongs to. */
    public static final String WORKLOAD = "lab.hami.io/workload";
    /** Pod annotation: how long the pod runs once it is running, in milliseconds; absent: until the end. */
    public static final String LIFETIME_MS = "lab.hami.io/lifetime-ms";
    /** Pod annotation: the usage profiles of its containers (JSON), for which the lab runs workload processes. */
    public static final String USAGE = "lab.hami.io/usage";
    /** The scheduler name the lab's pods are scheduled by (the webhook sets it). */
    public static final String SCHEDULER_NAME = "hami-scheduler";
    /** Namespace of the lab's pods. */
    public static final String NAMESPACE = "default";

    private LabKeys() {}
}
