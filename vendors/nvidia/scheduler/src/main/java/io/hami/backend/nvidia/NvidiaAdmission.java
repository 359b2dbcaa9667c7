package io.hami.backend.nvidia;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.quantity.ContainerResources;
import io.hami.protocol.quantity.QuantityLimit;
import io.hami.protocol.quantity.ResourceAmount;
import io.hami.protocol.spi.Admission;
import java.util.HashMap;
import java.util.Map;

/**
 * The NVIDIA webhook defaults of docs/upstream.md#webhook: a count for containers that ask only
 * for memory or cores, a whole exclusive card for a bare {@code nvidia.com/gpu}, HAMi-core's env, and the configured
 * {@code runtimeClassName} for a pod that asks for NVIDIA devices.
 */
final class NvidiaAdmission {
    static final String TASK_PRIORITY_ENV = "CUDA_TASK_PRIORITY";
    static final String CORE_POLICY_ENV = "GPU_CORE_UTILIZATION_POLICY";
    static final String VISIBLE_DEVICES_ENV = "NVIDIA_VISIBLE_DEVICES";

    private NvidiaAdmission() {}

    /**
     * The percentages the webhook admits, as upstream's webhook: 0 to 100. Requests read more leniently (above 100 as
     * 100, non-positive as none, as upstream's request generation does), so a pod admitted elsewhere still places.
     */
    static QuantityLimit percentageLimit(NvidiaConfig cfg) {
        return new QuantityLimit(cfg.resources().resourceMemoryPercentageName(), 100, "percent of a device's memory");
    }

    static Admission admit(Container c, NvidiaConfig cfg) {
        Map<String, Quantity> limits = limits(c);
        String pctName = cfg.resources().resourceMemoryPercentageName();
        ResourceAmount pct = ContainerResources.read(c, pctName);
        var badPercentage = percentageLimit(cfg).refusal(c, NvidiaKeys.VENDOR);
        if (badPercentage.isPresent()) {
            return new Admission.Rejected(badPercentage.get());
        }
        var env = new HashMap<String, String>();
        var set = new HashMap<String, String>();
        if (has(limits, cfg.resources().resourcePriorityName())) {
            env.put(TASK_PRIORITY_ENV, text(c, cfg.resources().resourcePriorityName()));
        }
        if (!cfg.isolation().gpuCorePolicy().isEmpty()
                && !cfg.isolation().gpuCorePolicy().equals("default")) {
            env.put(CORE_POLICY_ENV, cfg.isolation().gpuCorePolicy());
        }
        boolean requested = has(limits, cfg.resources().resourceCountName());
        if (!requested
                && cfg.requests().defaultGPUNum() > 0
                && (has(limits, cfg.resources().resourceCoreName())
                        || has(limits, cfg.resources().resourceMemoryName())
                        || has(limits, pctName))) {
            set.put(
                    cfg.resources().resourceCountName(),
                    Integer.toString(cfg.requests().defaultGPUNum()));
            requested = true;
        }
        boolean countPresent = set.containsKey(cfg.resources().resourceCountName())
                || ContainerResources.read(c, cfg.resources().resourceCountName())
                        .present();
        boolean coresAbsent =
                !ContainerResources.read(c, cfg.resources().resourceCoreName()).present();
        boolean memAbsent = !ContainerResources.read(c, cfg.resources().resourceMemoryName())
                .present();
        boolean wholeCard = pct.present()
                ? pct.int64().orElse(-1) == 100
                : cfg.resources().resourceMemoryName().isEmpty() || memAbsent;
        if (countPresent && coresAbsent && wholeCard) {
            // A bare count is an exclusive whole card, as upstream's webhook makes it.
            set.put(cfg.resources().resourceCoreName(), "100");
            requested = true;
        }
        if (!requested && cfg.requests().overwriteEnv()) {
            env.put(VISIBLE_DEVICES_ENV, "none");
        }
        // The pod's runtime class, where the operator configured one (the rules apply it only if the pod has none).
        String runtimeClass = requested ? cfg.isolation().runtimeClassName() : "";
        return new Admission.Accepted(requested, set, env, Map.of(), runtimeClass);
    }

    private static Map<String, Quantity> limits(Container c) {
        return c.getResources() == null || c.getResources().getLimits() == null
                ? Map.of()
                : c.getResources().getLimits();
    }

    private static boolean has(Map<String, Quantity> limits, String name) {
        return !name.isEmpty() && limits.containsKey(name);
    }

    /** The quantity as the user wrote it, from limits else requests. */
    private static String text(Container c, String name) {
        var r = c.getResources();
        Quantity q = r.getLimits() != null && r.getLimits().containsKey(name)
                ? r.getLimits().get(name)
                : r.getRequests().get(name);
        return (q.getAmount() == null ? "" : q.getAmount()) + (q.getFormat() == null ? "" : q.getFormat());
    }
}
