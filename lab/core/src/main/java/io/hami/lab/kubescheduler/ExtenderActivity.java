package io.hami.lab.kubescheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.kube.lock.LockOutcome;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.ClusterObserver;
import io.hami.lab.observe.PodState;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.fit.Denial;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * The extender's side of the real kube-scheduler's calls ({@code --control-plane kubernetes}), where the lab cannot
 * time them as the simulated kube-scheduler does: the scheduler's own filter and bind observers (the ones that feed
 * its Prometheus histograms) report every call with its duration, measured inside the extender (without the HTTP
 * round trip and the JSON). Also counts binds and refusals, and remembers when each pod was last filtered, so that
 * the run knows whether kube-scheduler may still look at an unschedulable pod again.
 */
public final class ExtenderActivity implements FilterObserver, BindObserver {
    /**
     * How long kube-scheduler may take to look again at an unschedulable pod after a pod ended or a node changed:
     * its longest pod backoff (10 s) and the time the extender's informers take to see the change.
     */
    static final Duration RETRY_WINDOW = Duration.ofSeconds(12);

    private final Latencies latencies;
    private final Map<String, Long> lastFiltered = new ConcurrentHashMap<>();
    private final AtomicInteger bound = new AtomicInteger();
    private final AtomicInteger contentions = new AtomicInteger();
    private final AtomicInteger bindFailures = new AtomicInteger();
    private final FailureCauses causes = new FailureCauses(LoggerFactory.getLogger(ExtenderActivity.class));
    private volatile long lastBindNanos;

    public ExtenderActivity(Latencies latencies) {
        this.latencies = latencies;
    }

    @Override
    public void filtered(Pod pod, List<String> fitting, Map<String, Denial> failed, Duration took) {
        latencies.record(Latencies.FILTER, took);
        lastFiltered.put(key(pod), System.nanoTime());
    }

    @Override
    public void bound(Pod pod, String node, Duration took) {
        latencies.record(Latencies.BIND, took);
        bound.incrementAndGet();
        lastBindNanos = System.nanoTime();
    }

    @Override
    public void bindFailed(Pod pod, String node, String message, Duration took) {
        latencies.record(Latencies.BIND_REFUSED, took);
        if (message != null && message.contains(SimulatedScheduler.LOCK_CONTENTION)) {
            contentions.incrementAndGet();
        } else {
            bindFailures.incrementAndGet();
            causes.record(
                    "bind", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), node, message);
        }
    }

    @Override
    public void lock(String node, LockOutcome outcome, Duration took) {}

    /**
     * kube-scheduler's progress as the run sees it. Its queues cannot be read from outside, so it counts as busy
     * while an unschedulable pod has not been filtered since the last change that may let it fit ({@link
     * ClusterObserver#sinceFreed()}), for at most {@link #RETRY_WINDOW} after that change; pending and allocating
     * pods are waited for by the run anyway.
     */
    public SchedulingProgress progress(ClusterObserver observer) {
        return new SchedulingProgress() {
            @Override
            public int busy() {
                Duration since = observer.sinceFreed();
                if (since.compareTo(RETRY_WINDOW) > 0) {
                    return 0;
                }
                long freedAt = System.nanoTime() - since.toNanos();
                return (int) observer.pods().stream()
                        .filter(p -> PodState.of(p) == PodState.UNSCHEDULABLE)
                        .filter(p -> lastFiltered.getOrDefault(key(p), 0L) - freedAt <= 0)
                        .count();
            }

            @Override
            public int bound() {
                return bound.get();
            }

            @Override
            public long lastBindNanos() {
                return lastBindNanos;
            }

            @Override
            public int contentions() {
                return contentions.get();
            }

            @Override
            public int bindFailures() {
                return bindFailures.get();
            }

            @Override
            public Map<String, Integer> failureCauses() {
                return causes.counts();
            }
        };
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
