package io.hami.scheduler.events;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.kube.lock.LockOutcome;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.handshake.HandshakeObserver;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans one observer call out to several observers (metrics and events). Observers report; they must never
 * change the outcome of filter or bind, so an observer that throws is logged and the others still run.
 */
public final class CompositeObserver {
    private static final Logger LOG = LoggerFactory.getLogger(CompositeObserver.class);

    private CompositeObserver() {}

    public static FilterObserver filter(FilterObserver... observers) {
        List<FilterObserver> all = List.of(observers);
        return (pod, fitting, failed, took) -> each(all, o -> o.filtered(pod, fitting, failed, took));
    }

    public static BindObserver bind(BindObserver... observers) {
        List<BindObserver> all = List.of(observers);
        return new BindObserver() {
            @Override
            public void bound(Pod pod, String node, Duration took) {
                each(all, o -> o.bound(pod, node, took));
            }

            @Override
            public void bindFailed(Pod pod, String node, String message, Duration took) {
                each(all, o -> o.bindFailed(pod, node, message, took));
            }

            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                each(all, o -> o.lock(node, outcome, took));
            }

            @Override
            public void gangWaited(String node, LockOutcome outcome, Duration waited) {
                each(all, o -> o.gangWaited(node, outcome, waited));
            }
        };
    }

    public static HandshakeObserver handshake(HandshakeObserver... observers) {
        List<HandshakeObserver> all = List.of(observers);
        return (node, vendor, verdict) -> each(all, o -> o.verdict(node, vendor, verdict));
    }

    private static <T> void each(List<T> observers, Consumer<T> call) {
        for (T o : observers) {
            try {
                call.accept(o);
            } catch (RuntimeException e) {
                LOG.warn("observer {} failed", o.getClass().getName(), e);
            }
        }
    }
}
