package io.hami.plugin.health;

import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The current health of the cards: the indexes of those that are unhealthy. Listeners hear of every change
 * (ListAndWatch resends the full list, the register loop republishes); a report equal to the current state
 * is no change. Unlike upstream's unbuffered channel, reporting never blocks on a listener that is not there.
 */
public final class HealthBoard {

    /** A registration that {@link #close()} removes. */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile Set<Integer> unhealthy = Set.of();

    public Set<Integer> unhealthy() {
        return unhealthy;
    }

    public boolean isHealthy(int index) {
        return !unhealthy.contains(index);
    }

    /** Records the cards that are unhealthy now; listeners run on this thread when it differs from before. */
    public void update(Set<Integer> now) {
        Set<Integer> copy = Set.copyOf(now);
        synchronized (this) {
            if (copy.equals(unhealthy)) {
                return;
            }
            unhealthy = copy;
        }
        listeners.forEach(Runnable::run);
    }

    public Subscription listen(Runnable onChange) {
        listeners.add(onChange);
        return () -> listeners.remove(onChange);
    }
}
