package io.hami.lab.fault;

import io.hami.lab.cluster.LabCluster;
import io.hami.lab.scenario.DurationText;
import io.hami.lab.scenario.Fault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Injects a scenario's faults at their times, and undoes the temporary ones (a device recovering, API errors
 * stopping) when their time is up. Each action runs on its own thread, so a slow one (a kubelet down for a while)
 * does not hold up the next fault.
 */
public final class FaultInjector implements AutoCloseable {
    private final LabCluster cluster;
    private final List<Fault> faults;
    private final long seed;
    private final Consumer<FaultEvent> listener;
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(1,
            Thread.ofPlatform().name("lab-faults").daemon().factory());
    private final List<FaultEvent> events = new CopyOnWriteArrayList<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private long startNanos;

    /**
     * @param seed     seed of the injected API errors
     * @param listener told about every event as it happens
     */
    public FaultInjector(LabCluster cluster, List<Fault> faults, long seed, Consumer<FaultEvent> listener) {
        this.cluster = cluster;
        this.faults = faults.stream().sorted(Comparator.comparing(Fault::at)).toList();
        this.seed = seed;
        this.listener = listener;
    }

    public void start(long startNanos) {
        this.startNanos = startNanos;
        for (Fault f : faults) {
            schedule(f.at(), () -> inject(f));
        }
    }

    /** True once every fault and every recovery has been done. */
    public boolean done() {
        return outstanding.get() == 0;
    }

    public List<FaultEvent> events() {
        return List.copyOf(events);
    }

    private void schedule(Duration at, Action action) {
        outstanding.incrementAndGet();
        long delay = startNanos + at.toNanos() - System.nanoTime();
        timer.schedule(() -> Thread.ofVirtual().name("lab-fault").start(() -> {
            try {
                action.run();
            } catch (Exception e) {
                record(e.getClass().getSimpleName() + ": " + e.getMessage(), true);
            } finally {
                outstanding.decrementAndGet();
            }
        }), Math.max(0, delay), TimeUnit.NANOSECONDS);
    }

    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }

    private void inject(Fault fault) throws Exception {
        switch (fault) {
            case Fault.PluginRestart r -> {
                record(fault.describe(), false);
                cluster.pluginNode(r.node()).restartPlugin(r.vendor());
                record(r.node() + ": plugin" + (r.vendor() == null ? "s" : " " + r.vendor().yamlName()) + " started again", false);
            }
            case Fault.KubeletRestart r -> {
                record(fault.describe(), false);
                cluster.pluginNode(r.node()).restartKubelet(r.down());
                record(r.node() + ": kubelet started again", false);
            }
            case Fault.DeviceUnhealthy u -> {
                cluster.pluginNode(u.node()).setHealthy(u.vendor(), u.device(), false);
                record(fault.describe(), false);
                if (u.lasting() != null) {
                    schedule(u.at().plus(u.lasting()), () -> {
                        cluster.pluginNode(u.node()).setHealthy(u.vendor(), u.device(), true);
                        record(u.vendor().yamlName() + " device " + u.device() + " on " + u.node() + " healthy again", false);
                    });
                }
            }
            case Fault.ApiWriteErrors e -> {
                int[] statuses = e.statuses().stream().mapToInt(Integer::intValue).toArray();
                cluster.server().faults().failWrites(e.probability(), seed, statuses);
                record(fault.describe(), false);
                schedule(e.at().plus(e.lasting()), () -> {
                    cluster.server().faults().clear();
                    record("API writes succeed again (" + cluster.server().faults().injectedCount() + " failures injected so far)", false);
                });
            }
            case Fault.LeaderFailover l -> {
                String stopped = cluster.schedulers().failover();
                record("stopped the leading scheduler " + stopped + "; a new replica joined as a follower", false);
            }
        }
    }

    private void record(String what, boolean failed) {
        var event = new FaultEvent(Duration.ofNanos(System.nanoTime() - startNanos), what, failed);
        events.add(event);
        listener.accept(event);
    }

    /** One line per fault, for the plan shown before the run. */
    public static List<String> plan(List<Fault> faults) {
        var lines = new ArrayList<String>();
        faults.stream().sorted(Comparator.comparing(Fault::at))
                .forEach(f -> lines.add(DurationText.format(f.at()) + " " + f.describe()));
        return lines;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
