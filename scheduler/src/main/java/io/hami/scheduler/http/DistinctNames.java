package io.hami.scheduler.http;

import io.hami.scheduler.extender.ExtenderArgs;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A /filter or /prioritize body with each node name once, in first-seen order. kube-scheduler sends each candidate
 * once (its names come from a node list) and reads our answer by name: a name answered twice would be a node listed
 * twice after filter and scored twice by prioritize (it sums scores per host). Repeats come only from a broken or
 * hostile client, whose body (at most {@link SchedulerHttpServer#EXTENDER_BODY} bytes) would otherwise be fitted and
 * answered once per repeat.
 */
final class DistinctNames {
    private DistinctNames() {}

    /** {@code args} itself when no name repeats (the usual case: one pass, no copy). */
    static ExtenderArgs of(ExtenderArgs args) {
        List<String> names = args.nodeNames();
        if (names == null || names.size() < 2) {
            return args;
        }
        var seen = HashSet.<String>newHashSet(names.size());
        for (String name : names) {
            if (!seen.add(name)) {
                // ArrayList, not List.copyOf: a null name stays what filter made of it before
                return new ExtenderArgs(args.pod(), args.nodes(), new ArrayList<>(new LinkedHashSet<>(names)));
            }
        }
        return args;
    }
}
