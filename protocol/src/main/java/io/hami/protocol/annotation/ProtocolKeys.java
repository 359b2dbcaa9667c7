package io.hami.protocol.annotation;

/** Annotation keys shared by every vendor (docs/upstream.md#keys, design D4/D5 in docs/design.md#d4 and docs/design.md#d5). */
public final class ProtocolKeys {
    private ProtocolKeys() {}

    /** Node: the lock serialising binds, {@code <RFC3339>,<namespace>,<pod>}. */
    public static final String NODE_LOCK = "hami.io/mutex.lock";
    /** Pod: the node chosen by the scheduler (also a label). */
    public static final String VGPU_NODE = "hami.io/vgpu-node";
    /** Pod: Unix seconds of the scheduling decision. */
    public static final String VGPU_TIME = "hami.io/vgpu-time";
    /** Pod: Unix seconds when bind started. */
    public static final String BIND_TIME = "hami.io/bind-time";
    /** Pod: {@code allocating}, {@code success} or {@code failed}. */
    public static final String BIND_PHASE = "hami.io/bind-phase";

    /**
     * Pod: the MIG reservations of an NVIDIA decision, JSON ({@code MigAllocationsCodec}, docs/mig-design.md §1.3);
     * written by the scheduler with the decision, completed by the plugin with the created instances.
     */
    public static final String MIG_ALLOCATIONS = "hami.io/vgpu-mig-allocations";

    /** Pod: node policy override, {@code binpack} or {@code spread}. */
    public static final String NODE_SCHEDULER_POLICY = "hami.io/node-scheduler-policy";
    /** Pod: device policy override, for example {@code binpack}, {@code spread}, {@code mutex}, {@code binpack,numa}. */
    public static final String GPU_SCHEDULER_POLICY = "hami.io/gpu-scheduler-policy";

    /**
     * Pod: RFC 3339 time of the last device release that the leading scheduler nudged this pending pod for. Not a
     * protocol key (anyone may write it): its change is an update kube-scheduler requeues the pod on.
     */
    public static final String REQUEUE_AFTER_RELEASE = "hami.io/requeue-after-release";

    /** Pod: scoring weights of the devices (docs/upstream.md#small-formats). */
    public static final String DEVICE_SCORING_WEIGHTS = "hami.io/device-scoring-weights";
    /** Pod label: {@code ignore} keeps the pod away from the mutating webhook (upstream's opt-out). */
    public static final String WEBHOOK_OPT_OUT = "hami.io/webhook";

    public static final String WEBHOOK_IGNORE = "ignore";
    /** Prefixes of the keys only the scheduler and the plugins may write (the decision and the bind). */
    public static final String VGPU_PREFIX = "hami.io/vgpu-";

    public static final String BIND_PREFIX = "hami.io/bind-";

    public static final String PHASE_ALLOCATING = "allocating";
    public static final String PHASE_SUCCESS = "success";
    public static final String PHASE_FAILED = "failed";
}
