package io.hami.lab.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.lab.LabKeys;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container runtime of every simulated node: a started pod runs for the lifetime its annotation gives and then
 * succeeds. It outlives kubelet restarts, as containers do.
 */
public final class ContainerRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerRuntime.class);

    private final PodStatusWriter status;
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(
            1, Thread.ofPlatform().name("lab-container-runtime").daemon().factory());

    public ContainerRuntime(PodStatusWriter status) {
        this.status = status;
    }

    public PodStatusWriter status() {
        return status;
    }

    /** Reports the pod running and, if it has a lifetime, schedules its end. */
    public void start(Pod pod) {
        status.running(pod);
        Duration lifetime = lifetime(pod);
        if (lifetime != null) {
            var unused = timers.schedule(
                    () -> {
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
