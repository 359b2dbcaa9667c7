package io.hami.backend.nvidia.topology;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.fit.FitRules;
import io.hami.protocol.fit.FitWalk;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code topology-aware} GPU policy: once the ordinary walk says a request fits, which of the fitting devices it
 * gets ({@link TopologyChoice}). Whether a node fits, and the reasons when it does not, stay the walk's, so filter's
 * fast path still answers for it. Two deliberate differences from upstream, which would otherwise turn a fitting node
 * into a failing one: with {@code nvidia.com/numa-bind} the candidates are those on the NUMA node the walk settled on
 * (upstream keeps only the last NUMA node walked, and fails when it is too small), and the namespace quota is checked
 * for the chosen set (upstream checks it against every candidate collected so far); a chosen set over the quota keeps
 * the walk's own choice.
 */
public final class TopologyFit {
    /** The value of {@code hami.io/gpu-scheduler-policy} (or the scheduler's default) that selects this policy. */
    public static final String POLICY = "topology-aware";

    private TopologyFit() {}

    public static boolean applies(FitContext context) {
        return POLICY.equals(context.gpuPolicy());
    }

    /** {@code walked} (the walk's {@link FitResult.Fits}) with the devices the pair scores prefer. */
    public static FitResult.Fits choose(
            FitResult.Fits walked,
            List<DeviceUsage> devices,
            ContainerRequest request,
            FitContext context,
            FitRules rules,
            TopologyChoice.PairScores scores) {
        int k = walked.grants().size();
        List<FitResult.Grant> candidates = FitWalk.candidates(devices, request, context, rules);
        if (rules.numaBind(context) && k > 0) {
            int numa = walked.grants().getFirst().device().device().numa();
            candidates = candidates.stream()
                    .filter(g -> g.device().device().numa() == numa)
                    .toList();
        }
        if (candidates.size() <= k) {
            return walked;
        }
        List<String> uuids =
                candidates.stream().map(g -> g.device().device().id()).toList();
        var chosen = new ArrayList<FitResult.Grant>(k);
        long mem = 0;
        long cores = 0;
        for (int i : TopologyChoice.choose(uuids, k, scores)) {
            FitResult.Grant g = candidates.get(i);
            chosen.add(g);
            mem += g.entry().usedmem();
            cores += g.entry().usedcores();
        }
        if (!context.quota().isUnlimited() && !context.quota().admits(mem, cores)) {
            return walked; // devices differ in memory only under a percentage request; the walk's set is within
        }
        return new FitResult.Fits(chosen);
    }
}
