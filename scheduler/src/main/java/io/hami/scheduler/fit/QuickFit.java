package io.hami.scheduler.fit;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.DeviceRoom;
import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitRules;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.fit.Reasons;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Filter's answer for one node from its {@link NodeSummary}, the same as {@link NodePlacement#place} gives (fits, or
 * the same reason text), without sorting or placing. It applies to the common pod: one container with devices, no
 * NUMA binding, no UUID selector and no quota on its vendors. There each device passes or fails on its own (the fit
 * walk's order only chooses which devices are granted), so a node fits when enough devices pass, and a node that does
 * not fit gets the walk's per-reason counts. Other pods ({@link #of} gives null) take the full placement.
 */
public final class QuickFit {
    /** Cores that mean a whole card; larger requests are clamped to it (as the fit walk does). */
    private static final int WHOLE_CARD_CORES = DeviceRoom.WHOLE_CARD_CORES;
    /** The walk's per-device reasons; {@link #failure} answers an index into this, or {@link #PASSES}. */
    private static final String[] REASONS = {
        Reasons.CARD_NOT_HEALTH,
        Reasons.CARD_CORDONED,
        Reasons.CARD_TYPE_MISMATCH,
        Reasons.CARD_TIME_SLICING_EXHAUSTED,
        Reasons.EXCLUSIVE_DEVICE_ALLOCATE_CONFLICT,
        Reasons.CARD_INSUFFICIENT_MEMORY,
        Reasons.CARD_INSUFFICIENT_CORE,
        Reasons.CARD_COMPUTE_UNITS_EXHAUSTED,
        Reasons.CARD_NOT_FOUND_CUSTOM_FILTER_RULE
    };

    private static final int PASSES = -1;
    /** The walk's denials, shared by every pod and node (they depend only on the counts). */
    private static final ReasonTexts TEXTS = new ReasonTexts(REASONS, Reasons.ALLOCATED_CARDS_INSUFFICIENT_REQUEST);

    private static final int NOT_HEALTH = 0;
    private static final int CORDONED = 1;
    private static final int TYPE_MISMATCH = 2;
    private static final int TIME_SLICING_EXHAUSTED = 3;
    private static final int EXCLUSIVE_CONFLICT = 4;
    private static final int INSUFFICIENT_MEMORY = 5;
    private static final int INSUFFICIENT_CORE = 6;
    private static final int COMPUTE_UNITS_EXHAUSTED = 7;
    private static final int CUSTOM_RULE = 8;

    private final String[] vendors;
    private final ContainerRequest[] requests;
    private final FitRules[] rules;
    private final Map<String, String> podAnnotations;
    private final String gpuPolicy;
    private final boolean mutex;
    /** The pod without a node: what the type check reads (see {@link FitRules#typeMatches}). */
    private final FitContext podContext;
    /** Per vendor and device shape ({@link NodeSummary}): 0 not asked yet, 1 the type matches, 2 it does not. */
    private final byte[][] typeVerdicts;

    private QuickFit(
            String[] vendors,
            ContainerRequest[] requests,
            FitRules[] rules,
            Map<String, String> podAnnotations,
            String gpuPolicy) {
        this.vendors = vendors;
        this.requests = requests;
        this.rules = rules;
        this.podAnnotations = podAnnotations;
        this.gpuPolicy = gpuPolicy;
        this.mutex = policyContains(gpuPolicy, "mutex");
        this.podContext = new FitContext(podAnnotations, Map.of(), gpuPolicy, List.of());
        this.typeVerdicts = new byte[vendors.length][NodeSummary.SHAPES];
    }

    /**
     * The quick fit of {@code pod}, or null when the pod needs the full placement.
     *
     * @param podAnnotations immutable ({@link Map#copyOf}), as the full placement gets them
     */
    public static QuickFit of(
            PodRequest pod,
            DeviceBackends backends,
            NodePlacement.Policy policy,
            Map<String, String> podAnnotations,
            Map<String, QuotaRoom> rooms) {
        if (pod.refusal() != null || policy.numaBind()) {
            return null;
        }
        Map<String, ContainerRequest> only = null;
        for (Map<String, ContainerRequest> c : pod.containers()) {
            if (!c.isEmpty()) {
                if (only != null) {
                    return null; // later containers see earlier grants
                }
                only = c;
            }
        }
        if (only == null) {
            return null;
        }
        var vendors = new String[only.size()];
        var requests = new ContainerRequest[only.size()];
        var rules = new FitRules[only.size()];
        var podContext = new FitContext(podAnnotations, Map.of(), policy.gpuPolicy(), List.of());
        int k = 0;
        for (Map.Entry<String, ContainerRequest> e : only.entrySet()) {
            DeviceBackend backend = backends.byVendor(e.getKey()).orElse(null);
            FitRules r = backend == null ? null : backend.fitRules().orElse(null);
            if (r == null
                    || r.numaBind(podContext)
                    || selects(r.uuidSelector(), podAnnotations)
                    || !rooms.getOrDefault(e.getKey(), QuotaRoom.UNLIMITED).isUnlimited()) {
                return null;
            }
            vendors[k] = e.getKey();
            requests[k] = e.getValue();
            rules[k] = r;
            k++;
        }
        return new QuickFit(vendors, requests, rules, podAnnotations, policy.gpuPolicy());
    }

    /** Null when the pod fits on the node, else why not, both exactly as {@link NodePlacement#place} answers. */
    public Denial whyNot(NodeView node, NodeSummary summary) {
        for (int k = 0; k < vendors.length; k++) {
            Denial failure = whyNot(k, node, summary);
            if (failure != null) {
                return failure;
            }
        }
        return null;
    }

    private Denial whyNot(int k, NodeView node, NodeSummary summary) {
        ContainerRequest request = requests[k];
        NodeSummary.Devices d = summary.of(vendors[k]);
        int n = d == null ? 0 : d.size();
        if (request.nums() > n) {
            return Denial.TOO_FEW_DEVICES;
        }
        FitRules r = rules[k];
        Set<String> cordoned = n == 0 ? Set.of() : summary.cordonedIfKnown(r);
        if (cordoned == null) {
            cordoned = summary.cordoned(r, nodeContext(node));
        }
        int cores = request.grantedCores();
        // The walk answers as soon as it holds nums devices; with nums 0 it still needs one device that passes.
        int need = Math.max(request.nums(), 1);
        var on = new OnNode(node);
        if (n > ReasonTexts.MAX_PACKED) {
            return wideWhyNot(k, d, need, request, cores, on, r, cordoned);
        }
        // One pass: stop at the need-th device that passes, else the counts per reason are complete for the denial.
        long counts = 0;
        int passed = 0;
        for (int i = 0; i < n; i++) {
            int failure = failure(k, d, i, request, cores, on, r, cordoned);
            if (failure == PASSES && ++passed == need) {
                return null;
            }
            counts = TEXTS.packedAdd(counts, failure);
        }
        return TEXTS.of(counts);
    }

    /** As the packed pass, for a vendor with more devices than a packed count holds: the denial is built each time. */
    private Denial wideWhyNot(
            int k,
            NodeSummary.Devices d,
            int need,
            ContainerRequest request,
            int cores,
            OnNode on,
            FitRules r,
            Set<String> cordoned) {
        int n = d.size();
        var counts = new int[REASONS.length];
        int passed = 0;
        for (int i = 0; i < n; i++) {
            int failure = failure(k, d, i, request, cores, on, r, cordoned);
            if (failure != PASSES) {
                counts[failure]++;
            } else if (++passed == need) {
                return null;
            }
        }
        return TEXTS.denial(counts, passed, n);
    }

    private FitContext nodeContext(NodeView node) {
        return new FitContext(podAnnotations, node.annotations(), gpuPolicy, List.of());
    }

    /** The pod on one node: its context is made only when a device reaches the vendor's last rule. */
    private final class OnNode {
        private final NodeView node;
        private FitContext context;

        OnNode(NodeView node) {
            this.node = node;
        }

        FitContext context() {
            if (context == null) {
                context = nodeContext(node);
            }
            return context;
        }
    }

    /** The first check of the fit walk that device {@code i} fails, in the walk's order, or {@link #PASSES}. */
    private int failure(
            int k,
            NodeSummary.Devices d,
            int i,
            ContainerRequest request,
            int cores,
            OnNode on,
            FitRules r,
            Set<String> cordoned) {
        int[] x = d.data;
        int b = i * NodeSummary.Devices.STRIDE;
        if (x[b + NodeSummary.Devices.HEALTHY] == 0) {
            return NOT_HEALTH;
        }
        if (!cordoned.isEmpty() && cordoned.contains(d.usages[i].device().id())) {
            return CORDONED;
        }
        if (!typeMatches(k, d, i, request, r)) {
            return TYPE_MISMATCH;
        }
        // No UUID selector and no quota here (see of), so checks 5 and 8 pass.
        int used = x[b + NodeSummary.Devices.USED];
        if (x[b + NodeSummary.Devices.FREE_SLOTS] <= 0) {
            return TIME_SLICING_EXHAUSTED;
        }
        if (mutex && used > 0) {
            return EXCLUSIVE_CONFLICT;
        }
        if (x[b + NodeSummary.Devices.FREE_MEM] < memoryFor(x[b + NodeSummary.Devices.DEVMEM], request)) {
            return INSUFFICIENT_MEMORY;
        }
        if (x[b + NodeSummary.Devices.FREE_CORES] < cores) {
            return INSUFFICIENT_CORE;
        }
        int devcore = x[b + NodeSummary.Devices.DEVCORE];
        if (devcore == WHOLE_CARD_CORES && cores == WHOLE_CARD_CORES && used > 0) {
            return EXCLUSIVE_CONFLICT;
        }
        if (devcore != 0 && x[b + NodeSummary.Devices.USED_CORES] == devcore && cores == 0) {
            return COMPUTE_UNITS_EXHAUSTED;
        }
        if (!r.customRule(d.usages[i], on.context())) {
            return CUSTOM_RULE;
        }
        return PASSES;
    }

    /** The vendor's type check, asked once per device type and mode for this pod (benign race: the answer is pure). */
    private boolean typeMatches(int k, NodeSummary.Devices d, int i, ContainerRequest request, FitRules r) {
        int shape = d.data[i * NodeSummary.Devices.STRIDE + NodeSummary.Devices.SHAPE];
        if (shape < 0) {
            return r.typeMatches(d.usages[i].device(), request, podContext);
        }
        byte verdict = typeVerdicts[k][shape];
        if (verdict == 0) {
            verdict = r.typeMatches(d.usages[i].device(), request, podContext) ? (byte) 1 : (byte) 2;
            typeVerdicts[k][shape] = verdict;
        }
        return verdict == 1;
    }

    /** MiB the request takes of a device: the fit walk's rule, in the same int arithmetic. */
    private static int memoryFor(int devmem, ContainerRequest request) {
        int memory = Math.max(request.memreq(), 0);
        if (request.memPercentagereq() != ContainerRequest.NO_PERCENTAGE && request.memreq() == 0) {
            memory = devmem * request.memPercentagereq() / 100;
        }
        return memory;
    }

    /** Whether the pod sets either annotation of {@code selector} to something other than blank. */
    private static boolean selects(DeviceSelector selector, Map<String, String> podAnnotations) {
        String use = podAnnotations.get(selector.useKey());
        String nouse = podAnnotations.get(selector.nouseKey());
        return (use != null && !use.isBlank()) || (nouse != null && !nouse.isBlank());
    }

    /** The fit walk's {@code PolicyContains}: the comma-separated policy names {@code name}, ignoring spaces. */
    private static boolean policyContains(String policy, String name) {
        for (String part : policy.split(",", -1)) {
            if (part.trim().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
