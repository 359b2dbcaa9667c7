package io.hami.lab.scenario;

import java.time.Duration;

/**
 * How the real scheduler and the simulated kube-scheduler run.
 *
 * @param replicas        scheduler processes; more than one elects a leader on a Lease
 * @param nodePolicy      default node policy, {@code binpack} or {@code spread}
 * @param gpuPolicy       default device policy
 * @param lockTimeout     how long a pod may hold a node lock while still allocating
 * @param handshakePeriod the scheduler's handshake tick (15 s in production; shorter runs see more rounds)
 * @param bindParallelism binds the simulated kube-scheduler runs at once (its binding cycles are asynchronous)
 * @param requeueOnRelease the scheduler's {@code --requeue-on-release}: pending pods are updated when devices free
 * @param gangLockWait    the scheduler's {@code --gang-lock-wait}: how long a gang member's bind waits for a node lock
 */
public record SchedulerSpec(
        Integer replicas,
        String nodePolicy,
        String gpuPolicy,
        Duration lockTimeout,
        Duration handshakePeriod,
        Integer bindParallelism,
        Boolean requeueOnRelease,
        Duration gangLockWait) {
    public static final SchedulerSpec DEFAULTS = new SchedulerSpec(null, null, null, null, null, null, null, null);
    /** The device policy that prefers the best-connected device set. */
    public static final String TOPOLOGY_AWARE = "topology-aware";

    public SchedulerSpec {
        replicas = replicas == null ? 1 : replicas;
        nodePolicy = nodePolicy == null ? "binpack" : nodePolicy;
        gpuPolicy = gpuPolicy == null ? "spread" : gpuPolicy;
        lockTimeout = lockTimeout == null ? Duration.ofMinutes(5) : lockTimeout;
        handshakePeriod = handshakePeriod == null ? Duration.ofSeconds(15) : handshakePeriod;
        bindParallelism = bindParallelism == null ? 16 : bindParallelism;
        requeueOnRelease = requeueOnRelease == null || requeueOnRelease;
        gangLockWait = gangLockWait == null ? Duration.ofSeconds(10) : gangLockWait;
    }
}
