package io.hami.lab.kubescheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.kube.lock.LockOutcome;
import io.hami.lab.metrics.Latencies;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.fit.Denial;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The extender's side of the real kube-scheduler's calls ({@code --control-plane kubernetes}), where the lab cannot
 * time them as the simulated kube-scheduler does: the scheduler's own filter and bind observers (the ones that feed
 * its Prometheus histograms) report every call with its duration, measured inside the extender (without the HTTP
 * round trip and the JSON). Also counts binds and refusals, and remembers when each pod was last filtered, so that
 * the run knows whether kube-scheduler may still look at an unschedulable pod again.
 */
public final class ExtenderActivity extends SchedulingProgress implements FilterObserver, BindObserver {
    /**
     * How long kube-scheduler may take to look again at an unschedulable pod after a pod ended or a node changed:
     * its longest pod backoff (10 s) and the time the extender's informers take to see the change.
     */
    static final Duration RETRY_WINDOW = Duration.ofSeconds(12);

    private final Latencies latencies;
    private final Map<String, Long> lastFiltered = new ConcurrentHashMap<>();
    private volatile Supplier<Duration> sinceFreed = () -> RETRY_WINDOW.plusSeconds(1);
    private volatile Supplier<List<Pod>> unschedulable = List::of;

    public ExtenderActivity(Latencies latencies) {
        super(LoggerFactory.getLogger(ExtenderActivity.class));
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
        countBound(System.nanoTime());
    }

    @Override
    public void bindFailed(Pod pod, String node, String message, Duration took) {
        latencies.record(Latencies.BIND_REFUSED, took);
        countRefused(pod, node, message);
    }

    @Override
    public void lock(String node, LockOutcome outcome, Duration took) {}

    /**
     * kube-scheduler's progress as the run sees it. Its queues cannot be read from outside, so it counts as busy
     * while an unschedulable pod has not been filtered since the last change that may let it fit, for at most
     * {@link #RETRY_WINDOW} after that change; pending and allocating pods are waited for by the run anyway.
     *
     * @param sinceFreed    how long ago the last change that may let an unschedulable pod fit happened
     * @param unschedulable the pods marked unschedulable now
     */
    public SchedulingProgress progress(Supplier<Duration> sinceFreed, Supplier<List<Pod>> unschedulable) {
        this.sinceFreed = sinceFreed;
        this.unschedulable = unschedulable;
        return this;
    }

    @Override
    public int busy() {
        Duration since = sinceFreed.get();
        if (since.compareTo(RETRY_WINDOW) > 0) {
            return 0;
        }
        long freedAt = System.nanoTime() - since.toNanos();
        return (int) unschedulable.get().stream()
                .filter(p -> lastFiltered.getOrDefault(key(p), 0L) - freedAt <= 0)
                .count();
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
