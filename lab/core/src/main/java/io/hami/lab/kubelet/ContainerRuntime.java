package io.hami.lab.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.lab.workload.LabKeys;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container runtime of every simulated node: a started pod runs for the lifetime its annotation gives and then
 * succeeds; its containers may run processes meanwhile ({@link Processes}). It outlives kubelet restarts, as
 * containers do.
 */
public final class ContainerRuntime implements AutoCloseable {
    /** What runs in a started pod's containers (the lab's usage workloads), from what Allocate gave them. */
    public interface Processes {
        Processes NONE = new Processes() {
            @Override
            public void start(Pod pod, List<ContainerAllocation> allocations, Duration lifetime) {}

            @Override
            public void stop(String podUid) {}
        };

        void start(Pod pod, List<ContainerAllocation> allocations, Duration lifetime);

        void stop(String podUid);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ContainerRuntime.class);

    private final PodStatusWriter status;
    private final AllocationLog allocations;
    private final Processes workloads;
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(
            1, Thread.ofPlatform().name("lab-container-runtime").daemon().factory());

    /**
     * @param allocations what the kubelets' Allocate calls answered, which the workloads need
     * @param workloads   the containers' processes
     */
    public ContainerRuntime(PodStatusWriter status, AllocationLog allocations, Processes workloads) {
        this.status = status;
        this.allocations = allocations;
        this.workloads = workloads;
    }

    /** A runtime whose containers run no workload processes (kubelets without device plugins). */
    public ContainerRuntime(PodStatusWriter status) {
        this(status, new AllocationLog(), Processes.NONE);
    }

    public PodStatusWriter status() {
        return status;
    }

    /** Reports the pod running and, if it has a lifetime, schedules its end. */
    public void start(Pod pod) {
        Duration lifetime = lifetime(pod);
        String uid = pod.getMetadata().getUid();
        workloads.start(pod, allocations.of(uid), lifetime);
        status.running(pod);
        if (lifetime != null) {
            var unused = timers.schedule(
                    () -> {
                        workloads.stop(uid); // the containers exit before the pod is reported succeeded
                        try {
                            status.succeeded(pod);
                        } catch (RuntimeException e) {
                            LOG.warn(
                                    "pod {}: could not report it succeeded: {}",
                                    pod.getMetadata().getName(),
                                    e.getMessage());
                        }
                    },
                    lifetime.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /** The pod went away (deleted): its containers stop. */
    public void stopped(String podUid) {
        workloads.stop(podUid);
    }

    static Duration lifetime(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String ms = annotations == null ? null : annotations.get(LabKeys.LIFETIME_MS);
        return ms == null ? null : Duration.ofMillis(Long.parseLong(ms));
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
