package io.hami.lab.kubescheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the simulated kube-scheduler did and saw, in order, for the scheduling invariants and figures: binds and
 * refused binds, unschedulable verdicts, devices released (a bound pod ended or was deleted, with its annotations as
 * they were), and preemptions. Times are {@link System#nanoTime()}.
 */
public final class SchedulingLog {
    /** One thing that happened; {@code pod} is {@code namespace/name}. */
    public sealed interface Entry {
        String pod();

        long atNanos();
    }

    /** The extender bound the pod; {@code startedNanos}: when the scheduling attempt that chose the node began. */
    public record Bound(String pod, String node, long startedNanos, long atNanos) implements Entry {}

    /** The extender refused a bind; {@code contention}: for node-lock contention; {@code took}: the call's length. */
    public record Refused(String pod, String node, long atNanos, boolean contention, Duration took, String error)
            implements Entry {}

    /** No node fitted the pod. */
    public record Unschedulable(String pod, long atNanos) implements Entry {}

    /** A bound pod ended or was deleted: its devices are free; its annotations as they were then. */
    public record Released(String pod, String node, Map<String, String> annotations, long atNanos) implements Entry {
        public Released {
            annotations = Map.copyOf(annotations);
        }
    }

    /** A pod evicted by a preemption, with its priority and annotations as they were. */
    public record Victim(String pod, int priority, Map<String, String> annotations) {
        public Victim {
            annotations = Map.copyOf(annotations);
        }
    }

    /**
     * The pod preempted {@code victims} on {@code node} and was nominated to it.
     *
     * @param proposed how many pods kube-scheduler proposed on that node before the extender trimmed them
     */
    public record Preemption(String pod, int priority, String node, int proposed, List<Victim> victims, long atNanos)
            implements Entry {
        public Preemption {
            victims = List.copyOf(victims);
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    public synchronized void add(Entry entry) {
        entries.add(entry);
    }

    /** Everything so far, in order. */
    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The entries of one kind, in order. */
    public <T extends Entry> List<T> of(Class<T> kind) {
        return entries().stream().filter(kind::isInstance).map(kind::cast).toList();
    }
}
