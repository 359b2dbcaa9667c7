package io.hami.scheduler.extender;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.fit.NodeScore;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.fit.ScoringWeights;
import io.hami.scheduler.usage.NodeDevices;
import io.hami.scheduler.usage.UsageIndex;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Filter and prioritize (design D6, docs/design.md#d6): read-only questions answered from the usage index. Filter returns
 * every fitting node and a reason for each other one; prioritize scores the fitting nodes 0..10.
 */
public final class Extender {
    static final String NOT_LEADER = "this hami scheduler is not the leader; retry against the leader";
    /** Candidate count from which filter uses every core; a node costs tens of nanoseconds on the fast path. */
    private static final int PARALLEL_FROM = 2048;
    /** Candidates per parallel task. */
    private static final int CHUNK = 512;

    /**
     * What filter and prioritize answer from.
     *
     * @param fit      what a pod is fitted against
     * @param leader   whether this replica answers (a follower's filter is refused)
     * @param observer told of every filter
     * @param nodes    which nodes this scheduler considers, and whose locks are held
     */
    public record Inputs(FitInputs fit, BooleanSupplier leader, FilterObserver observer, Nodes nodes) {
        public Inputs {
            Objects.requireNonNull(fit, "fit");
            Objects.requireNonNull(leader, "leader");
            Objects.requireNonNull(observer, "observer");
            Objects.requireNonNull(nodes, "nodes");
        }
    }

    /**
     * What the scheduler knows of nodes beyond the index.
     *
     * @param considered   whether it considers a node with these labels ({@code --node-label-selector}): a node object
     *                     filter is sent that the index does not know is fitted from its own devices only when it does
     * @param unregistered filter's reason for a node the index does not know: {@link Denial#UNREGISTERED}, or
     *                     {@link Denial#unselected} when the node informer watches selected nodes only
     * @param lockHeld     whether a node's lock is held (as last seen): prioritize prefers free ones
     *                     ({@link #lockPreference})
     */
    public record Nodes(Predicate<Map<String, String>> considered, Denial unregistered, Predicate<String> lockHeld) {
        /** Every node considered, none seen locked. */
        public static final Nodes ALL = new Nodes(labels -> true, Denial.UNREGISTERED, node -> false);

        public Nodes {
            Objects.requireNonNull(considered, "considered");
            Objects.requireNonNull(unregistered, "unregistered");
            Objects.requireNonNull(lockHeld, "lockHeld");
        }
    }

    private final FitInputs fit;
    private final UsageIndex index;
    private final BooleanSupplier leader;
    private final FilterObserver observer;
    private final Nodes nodes;

    public Extender(Inputs in) {
        this.fit = in.fit();
        this.index = in.fit().index();
        this.leader = in.leader();
        this.observer = in.observer();
        this.nodes = in.nodes();
    }

    public FilterResult filter(ExtenderArgs args) {
        if (!leader.getAsBoolean()) {
            return FilterResult.error(NOT_LEADER);
        }
        Pod pod = args.pod();
        if (pod == null) {
            return FilterResult.error("extender args missing pod");
        }
        List<String> candidates = candidates(args);
        PodRequest request = fit.request(pod);
        if (request.isEmpty()) {
            return args.nodeNames() == null && args.nodes() != null
                    ? new FilterResult(args.nodes(), null, Map.of(), null, "")
                    : FilterResult.of(candidates, Map.of());
        }
        long start = System.nanoTime();
        CandidateCheck check;
        try {
            check = check(pod, request);
        } catch (ScoringWeights.InvalidWeightsException e) {
            return FilterResult.error(e.getMessage());
        }
        int n = candidates.size();
        var reasons = new Denial[n];
        Map<String, UsageIndex.NodeSnapshot> templates = templates(args);
        if (n >= PARALLEL_FROM) {
            // Nodes are independent; large candidate lists are checked on all cores, as upstream scores concurrently.
            IntStream.range(0, (n + CHUNK - 1) / CHUNK)
                    .parallel()
                    .forEach(c ->
                            whyNot(check, templates, candidates, reasons, c * CHUNK, Math.min(n, c * CHUNK + CHUNK)));
        } else {
            whyNot(check, templates, candidates, reasons, 0, n);
        }
        var fitting = new ArrayList<String>(n); // sized once: growing it node by node showed in /filter's profile
        var denials = new LinkedHashMap<String, Denial>();
        for (int i = 0; i < n; i++) {
            if (reasons[i] == null) {
                fitting.add(candidates.get(i));
            } else {
                if (reasons[i].equals(Denial.UNREGISTERED)
                        && !templates.containsKey(candidates.get(i))
                        && index.current(candidates.get(i)) == null) { // the index does not know the node
                    reasons[i] = nodes.unregistered();
                }
                denials.put(candidates.get(i), reasons[i]);
            }
        }
        observer.filtered(
                pod,
                fitting,
                Collections.unmodifiableMap(denials),
                java.time.Duration.ofNanos(System.nanoTime() - start));
        var failed = new FailedNodes(denials); // upstream's texts, built as the reply is written
        if (args.nodeNames() == null && args.nodes() != null) {
            // nodeCacheCapable: false — kube-scheduler sent whole Node objects and expects them back.
            var fits = new HashSet<>(fitting);
            var kept = args.nodes().getItems().stream()
                    .filter(node -> fits.contains(node.getMetadata().getName()))
                    .toList();
            return new FilterResult(
                    new NodeList(
                            args.nodes().getApiVersion(), kept, args.nodes().getKind(), null),
                    null,
                    failed,
                    null,
                    "");
        }
        return FilterResult.of(fitting, failed);
    }

    private static void whyNot(
            CandidateCheck check,
            Map<String, UsageIndex.NodeSnapshot> templates,
            List<String> candidates,
            Denial[] reasons,
            int from,
            int to) {
        for (int i = from; i < to; i++) {
            String node = candidates.get(i);
            var template = templates.isEmpty() ? null : templates.get(node);
            reasons[i] = template == null ? check.whyNot(node) : check.whyNot(template);
        }
    }

    /**
     * The node objects in {@code args} that the index does not know and this scheduler considers, read from their own
     * annotations and capacity with nothing in use: cluster-autoscaler's templates of nodes it may add (upstream's
     * simulation path). Nodes the index knows are fitted against their usage as always.
     */
    private Map<String, UsageIndex.NodeSnapshot> templates(ExtenderArgs args) {
        if (args.nodes() == null || args.nodes().getItems() == null) {
            return Map.of();
        }
        var out = new HashMap<String, UsageIndex.NodeSnapshot>();
        for (Node node : args.nodes().getItems()) {
            if (node == null || node.getMetadata() == null || node.getMetadata().getName() == null) {
                continue;
            }
            String name = node.getMetadata().getName();
            if (index.current(name) != null) {
                continue;
            }
            Map<String, String> labels = node.getMetadata().getLabels() == null
                    ? Map.of()
                    : node.getMetadata().getLabels();
            if (nodes.considered().test(labels)) {
                out.put(name, UsageIndex.unused(name, NodeDevices.read(node, fit.backends(), Set.of())));
            }
        }
        return out;
    }

    /** The filter question of {@code pod} (which asks for devices), ready to ask of each candidate node. */
    public CandidateCheck check(Pod pod) throws ScoringWeights.InvalidWeightsException {
        return check(pod, fit.request(pod));
    }

    private CandidateCheck check(Pod pod, PodRequest request) throws ScoringWeights.InvalidWeightsException {
        return new CandidateCheck(index, fit.placement(pod, request));
    }

    public List<HostPriority> prioritize(ExtenderArgs args) {
        Pod pod = args.pod();
        String nodePolicy = fit.policy().nodePolicyFor(pod == null ? Map.of() : annotations(pod));
        var out = new ArrayList<HostPriority>();
        for (String node : candidates(args)) {
            long score = lockPreference(
                    index.snapshot(node)
                            .map(s -> NodeScore.priority(NodeScore.of(s.view()), nodePolicy))
                            .orElse(0L),
                    nodes.lockHeld().test(node));
            out.add(new HostPriority(node, score));
        }
        return out;
    }

    /**
     * A bind on a node whose lock is held waits for it, so of two nodes about as full (one notch apart at most) the one
     * with a free lock wins: a held lock costs a notch and a free one scores at least 1. A clearly better node still
     * wins and its pod waits, so the policy's packing or spreading is kept; concurrent pods stop piling onto one lock.
     */
    static long lockPreference(long score, boolean lockHeld) {
        return lockHeld ? Math.max(0, score - 1) : Math.max(1, score);
    }

    private static List<String> candidates(ExtenderArgs args) {
        if (args.nodeNames() != null) {
            return args.nodeNames();
        }
        if (args.nodes() != null && args.nodes().getItems() != null) {
            return args.nodes().getItems().stream()
                    .map(n -> n.getMetadata().getName())
                    .toList();
        }
        return List.of();
    }

    static Map<String, String> annotations(Pod pod) {
        return pod.getMetadata() == null || pod.getMetadata().getAnnotations() == null
                ? Map.of()
                : pod.getMetadata().getAnnotations();
    }
}
