package io.hami.lab.apiserver;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Records what an informer or a watch delivers, for tests to wait on. */
final class RecordingHandler<T extends HasMetadata> implements ResourceEventHandler<T>, Watcher<T> {

    record Event<T>(String type, T object) {

        String name() {
            return ((HasMetadata) object).getMetadata().getName();
        }
    }

    private final BlockingQueue<Event<T>> events = new LinkedBlockingQueue<>();

    @Override
    public void onAdd(T object) {
        events.add(new Event<>("ADDED", object));
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
        events.add(new Event<>("MODIFIED", newObject));
    }

    @Override
    public void onDelete(T object, boolean deletedFinalStateUnknown) {
        events.add(new Event<>("DELETED", object));
    }

    @Override
    public void eventReceived(Action action, T resource) {
        events.add(new Event<>(action.name(), resource));
    }

    @Override
    public void onClose(WatcherException cause) {
        events.add(new Event<>("CLOSED", null));
    }

    /** Waits for the first event (consuming those before it) that the predicate accepts. */
    Event<T> await(Predicate<Event<T>> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            Event<T> event = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (event != null && wanted.test(event)) {
                return event;
            }
        }
        throw new AssertionError("no matching event within 10 s");
    }

    /** Everything received within {@code quiet}, after which nothing more is expected. */
    List<Event<T>> drain(Duration quiet) throws InterruptedException {
        List<Event<T>> drained = new ArrayList<>();
        Event<T> event;
        while ((event = events.poll(quiet.toMillis(), TimeUnit.MILLISECONDS)) != null) {
            drained.add(event);
        }
        return drained;
    }
}
