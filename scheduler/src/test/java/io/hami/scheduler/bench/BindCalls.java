package io.hami.scheduler.bench;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * API calls per bind, by verb and resource, as the embedded API server counts them: uncontended (each node's lock is
 * free) and contended (another pod holds the lock, taken moments ago). Not a test: it prints its figures.
 *
 * <pre>scripts/bench.sh scheduler BindCalls [nodes]</pre>
 */
public final class BindCalls {
    private BindCalls() {}

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        try (var f = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS)) {
            String[] names = new String[nodes];
            for (int n = 0; n < nodes; n++) {
                names[n] = "node-" + n;
                f.nvidiaNode(names[n], gpu("GPU-" + n + "-0", 0, 8000), gpu("GPU-" + n + "-1", 1, 8000));
            }
            f.awaitNodes(names);
            List<Pod> first = new ArrayList<>();
            List<Pod> second = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                first.add(f.pod("a-" + n, container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000")));
                second.add(f.pod("b-" + n, container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000")));
            }
            // Let the informers deliver the pods, so no watch traffic falls into the counts. A benchmark's pause, left
            // as is: pending pods are not in the index to wait on, and a late delivery only adds to the counts.
            Thread.sleep(500);

            var uncontended = round(f, first, names, true);
            var contended = round(f, second, names, false);
            System.out.printf(
                    Locale.ROOT,
                    "%nAPI calls per bind (%d binds each; events are written by the event recorder, not the bind)%n",
                    nodes);
            print("uncontended (lock free)", uncontended, nodes);
            print("contended (lock held, fresh; lock and holder from the informers)", contended, nodes);
        }
    }

    private static Map<String, Long> round(SchedulerFixture f, List<Pod> pods, String[] nodes, boolean mustBind) {
        f.server.requests().reset();
        for (int i = 0; i < pods.size(); i++) {
            Pod p = pods.get(i);
            BindingResult r = f.app.binder()
                    .bind(new BindingArgs(
                            p.getMetadata().getName(),
                            "default",
                            p.getMetadata().getUid(),
                            nodes[i]));
            if (r.ok() != mustBind) {
                throw new IllegalStateException(
                        "bind of " + p.getMetadata().getName() + " answered " + (r.ok() ? "ok" : r.error()));
            }
        }
        return new TreeMap<>(f.server.requests().snapshot());
    }

    private static void print(String title, Map<String, Long> counts, int binds) {
        double reads = 0;
        double writes = 0;
        System.out.printf(Locale.ROOT, "%s%n", title);
        for (var e : counts.entrySet()) {
            double perBind = (double) e.getValue() / binds;
            System.out.printf(Locale.ROOT, "  %-28s %6.2f%n", e.getKey(), perBind);
            if (e.getKey().endsWith(" events")) {
                continue;
            }
            if (e.getKey().startsWith("get ") || e.getKey().startsWith("list ")) {
                reads += perBind;
            } else if (!e.getKey().startsWith("watch ")) {
                writes += perBind;
            }
        }
        System.out.printf(
                Locale.ROOT,
                "  %-28s %6.2f reads, %.2f writes (goal at most %d and %d: %.2f and %.2f of it)%n",
                "total (without events)",
                reads,
                writes,
                GOAL_READS,
                GOAL_WRITES,
                reads / GOAL_READS,
                writes / GOAL_WRITES);
    }

    /** Issue 11's goal for one bind with the node lock free. */
    static final int GOAL_READS = 1;

    static final int GOAL_WRITES = 3;
}
