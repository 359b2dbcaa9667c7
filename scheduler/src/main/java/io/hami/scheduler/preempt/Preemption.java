package io.hami.scheduler.preempt;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.PodPlacement;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.fit.ScoringWeights;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extender's {@code preemptVerb} (docs/operators.md#preemption): kube-scheduler's victims per node in, the nodes
 * where evicting them lets the pod fit its devices out, each with the victims that are needed ({@link VictimRule}).
 * Victims are read from the informers' pods by UID; one we do not know is kept. Leader only, like filter and bind.
 */
public final class Preemption {
    private static final Logger LOG = LoggerFactory.getLogger(Preemption.class);
    static final String NOT_LEADER = "this hami scheduler is not the leader; retry against the leader";

    private final UsageIndex index;
    private final QuotaBook quotas;
    private final DeviceBackends backends;
    private final SchedulingPolicy policy;
    private final BooleanSupplier leader;
    private final Supplier<List<Pod>> pods;
    private final Function<String, Node> nodes;
    private final Counter answers;

    /**
     * @param pods  the informers' pods (victims are looked up there, and the pods that stay on each node)
     * @param nodes the informers' node by name (its allocatable), or null
     */
    public Preemption(
            UsageIndex index,
            QuotaBook quotas,
            DeviceBackends backends,
            SchedulingPolicy policy,
            BooleanSupplier leader,
            Supplier<List<Pod>> pods,
            Function<String, Node> nodes,
            PrometheusRegistry registry) {
        this.index = index;
        this.quotas = quotas;
        this.backends = backends;
        this.policy = policy;
        this.leader = leader;
        this.pods = pods;
        this.nodes = nodes;
        this.answers = Counter.builder()
                .name("hami_preempt_answers_total")
                .help("Candidate nodes answered by /preempt, by outcome: unchanged (every victim kept), trimmed"
                        + " (victims holding devices that are not needed spared), left_out (the pod does not fit the"
                        + " node's devices even with every victim gone)")
                .labelNames("outcome")
                .register(registry);
    }

    public PreemptionResult.Reply preempt(PreemptionArgs args) {
        if (!leader.getAsBoolean()) {
            return new PreemptionResult.Reply(503, PreemptionResult.error(NOT_LEADER));
        }
        Pod pod = args.pod();
        if (pod == null || pod.getMetadata() == null) {
            return bad("extender preemption args missing Pod");
        }
        var proposed = new LinkedHashMap<String, List<String>>();
        var pdb = new HashMap<String, Long>();
        if (args.nodeNameToMetaVictims() != null) {
            for (var e : args.nodeNameToMetaVictims().entrySet()) {
                var uids = new ArrayList<String>();
                var victims = e.getValue();
                for (var meta : victims == null || victims.pods() == null
                        ? List.<PreemptionArgs.MetaPod>of()
                        : victims.pods()) {
                    if (meta == null || meta.uid() == null || meta.uid().isBlank()) {
                        return bad("NodeNameToMetaVictims[\"" + e.getKey() + "\"].Pods: a victim without a UID");
                    }
                    uids.add(meta.uid());
                }
                proposed.put(e.getKey(), uids);
                pdb.put(e.getKey(), victims == null ? 0 : victims.numPdbViolations());
            }
        } else if (args.nodeNameToVictims() != null) {
            for (var e : args.nodeNameToVictims().entrySet()) {
                var victims = e.getValue();
                var list = new ArrayList<Pod>(victims == null || victims.pods() == null ? List.of() : victims.pods());
                var uids = new ArrayList<String>();
                for (Pod p : list) {
                    if (p == null || p.getMetadata() == null || p.getMetadata().getUid() == null) {
                        return bad("NodeNameToVictims[\"" + e.getKey() + "\"].Pods: a victim without metadata.uid");
                    }
                }
                list.sort(MORE_IMPORTANT_FIRST);
                list.forEach(p -> uids.add(p.getMetadata().getUid()));
                proposed.put(e.getKey(), uids);
                pdb.put(e.getKey(), victims == null ? 0 : victims.numPdbViolations());
            }
        } else {
            return bad("extender preemption args carry neither NodeNameToMetaVictims nor NodeNameToVictims");
        }
        return new PreemptionResult.Reply(200, PreemptionResult.of(answer(pod, proposed, pdb)));
    }

    private static PreemptionResult.Reply bad(String message) {
        return new PreemptionResult.Reply(400, PreemptionResult.error(message));
    }

    private Map<String, PreemptionArgs.MetaVictims> answer(
            Pod pod, Map<String, List<String>> proposed, Map<String, Long> pdb) {
        var out = new LinkedHashMap<String, PreemptionArgs.MetaVictims>();
        PodRequest request = PodRequest.of(pod, backends);
        if (request.isEmpty()) {
            // No device asked: nothing of ours to judge.
            proposed.forEach((node, uids) -> {
                if (!uids.isEmpty()) {
                    out.put(node, meta(uids, pdb.get(node)));
                    answers.labelValues("unchanged").inc();
                }
            });
            return out;
        }
        PodPlacement placement;
        try {
            placement = PodPlacement.of(pod, request, backends, policy, quotas);
        } catch (ScoringWeights.InvalidWeightsException e) {
            LOG.info("preempt {}: {}; no node helps", key(pod), e.getMessage());
            proposed.keySet().forEach(n -> answers.labelValues("left_out").inc());
            return out;
        }
        var cluster = Cluster.read(pods.get(), proposed);
        var podRequests = KubeRequests.of(pod);
        String namespace = pod.getMetadata().getNamespace();
        proposed.forEach((node, uids) -> {
            var victims = new ArrayList<VictimRule.Victim>(uids.size());
            for (String uid : uids) {
                Pod p = cluster.byUid().get(uid);
                if (p == null) {
                    LOG.debug("preempt {}: victim {} on {} is not known here; kept", key(pod), uid, node);
                    victims.add(VictimRule.Victim.opaque(uid));
                } else {
                    victims.add(victim(p, node, namespace));
                }
            }
            var staying = new HashMap<String, BigDecimal>();
            var proposedHere = new HashSet<>(uids);
            for (Pod p : cluster.onNode().getOrDefault(node, List.of())) {
                if (!proposedHere.contains(p.getMetadata().getUid())) {
                    KubeRequests.of(p).forEach((r, q) -> staying.merge(r, q, BigDecimal::add));
                }
            }
            Node n = nodes.apply(node);
            var allocatable = n == null || n.getStatus() == null
                    ? Map.<String, BigDecimal>of()
                    : KubeRequests.amounts(n.getStatus().getAllocatable());
            var answer = VictimRule.decide(
                    index.current(node),
                    placement,
                    victims,
                    new VictimRule.Resources(allocatable, staying, podRequests));
            switch (answer) {
                case VictimRule.Answer.LeftOut l -> {
                    answers.labelValues("left_out").inc();
                    LOG.info(
                            "preempt {}: evicting the {} victims on {} would not free enough device room; node left out",
                            key(pod),
                            uids.size(),
                            node);
                }
                case VictimRule.Answer.Evict e -> {
                    out.put(node, meta(e.uids(), pdb.get(node)));
                    answers.labelValues(e.reprieved() > 0 ? "trimmed" : "unchanged")
                            .inc();
                    if (e.reprieved() > 0) {
                        LOG.info(
                                "preempt {}: on {}, {} of {} victims spared (their devices are not needed)",
                                key(pod),
                                node,
                                e.reprieved(),
                                uids.size());
                    }
                }
            }
        });
        return out;
    }

    private VictimRule.Victim victim(Pod p, String node, String namespace) {
        var requests = KubeRequests.of(p);
        if (PodUsage.of(p, backends) instanceof PodUsage.Counted c && c.node().equals(node)) {
            boolean sameNamespace =
                    namespace != null && namespace.equals(p.getMetadata().getNamespace());
            return new VictimRule.Victim(
                    p.getMetadata().getUid(), c.grants(), sameNamespace ? c.byVendor() : Map.of(), requests);
        }
        return new VictimRule.Victim(p.getMetadata().getUid(), Map.of(), Map.of(), requests);
    }

    private static PreemptionArgs.MetaVictims meta(List<String> uids, Long pdb) {
        return new PreemptionArgs.MetaVictims(
                uids.stream().map(PreemptionArgs.MetaPod::new).toList(), pdb == null ? 0 : pdb);
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    /** kube-scheduler's order of victims: higher priority first, then the one that started earlier (unstarted last). */
    static final Comparator<Pod> MORE_IMPORTANT_FIRST = Comparator.<Pod, Integer>comparing(
                    p -> p.getSpec() == null || p.getSpec().getPriority() == null
                            ? 0
                            : p.getSpec().getPriority(),
                    Comparator.reverseOrder())
            .thenComparing(Preemption::started, Comparator.nullsLast(Comparator.naturalOrder()));

    /** When the pod started, or null when it has not (or the time cannot be read): kube-scheduler takes "now" then. */
    private static java.time.Instant started(Pod p) {
        String t = p.getStatus() == null ? null : p.getStatus().getStartTime();
        try {
            return t == null ? null : java.time.OffsetDateTime.parse(t).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** The victims by UID and the running pods of the candidate nodes, from one pass over the informers' pods. */
    private record Cluster(Map<String, Pod> byUid, Map<String, List<Pod>> onNode) {
        static Cluster read(List<Pod> pods, Map<String, List<String>> proposed) {
            Set<String> wanted = new HashSet<>();
            proposed.values().forEach(wanted::addAll);
            var byUid = new HashMap<String, Pod>();
            var onNode = new HashMap<String, List<Pod>>();
            for (Pod p : pods) {
                var meta = p.getMetadata();
                if (meta == null) {
                    continue;
                }
                if (meta.getUid() != null && wanted.contains(meta.getUid())) {
                    byUid.put(meta.getUid(), p);
                }
                String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
                String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
                if (node != null
                        && proposed.containsKey(node)
                        && !"Succeeded".equals(phase)
                        && !"Failed".equals(phase)) {
                    onNode.computeIfAbsent(node, n -> new ArrayList<>()).add(p);
                }
            }
            return new Cluster(byUid, onNode);
        }
    }
}
