package io.hami.scheduler.preempt;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What kube-scheduler's resource fit counts of a pod or a node: a pod's requests as the larger of its app containers'
 * sum and its largest init container (a limit stands in for a missing request, as the API server defaults it), plus one
 * {@code pods}; a node's allocatable. Amounts whose quantity cannot be read are left out.
 */
final class KubeRequests {
    static final String PODS = "pods";

    private KubeRequests() {}

    static Map<String, BigDecimal> of(Pod pod) {
        var sum = new HashMap<String, BigDecimal>();
        var spec = pod.getSpec();
        if (spec != null) {
            for (Container c : list(spec.getContainers())) {
                container(c).forEach((r, q) -> sum.merge(r, q, BigDecimal::add));
            }
            for (Container c : list(spec.getInitContainers())) {
                container(c).forEach((r, q) -> sum.merge(r, q, BigDecimal::max));
            }
        }
        sum.put(PODS, BigDecimal.ONE);
        return sum;
    }

    static Map<String, BigDecimal> amounts(Map<String, Quantity> quantities) {
        var out = new HashMap<String, BigDecimal>();
        if (quantities != null) {
            quantities.forEach((r, q) -> {
                BigDecimal amount = amount(q);
                if (amount != null) {
                    out.put(r, amount);
                }
            });
        }
        return out;
    }

    private static Map<String, BigDecimal> container(Container c) {
        var resources = c.getResources();
        if (resources == null) {
            return Map.of();
        }
        var out = amounts(resources.getLimits());
        out.putAll(amounts(resources.getRequests()));
        return out;
    }

    private static BigDecimal amount(Quantity q) {
        if (q == null) {
            return null;
        }
        try {
            return q.getNumericalAmount();
        } catch (IllegalArgumentException | ArithmeticException e) {
            return null;
        }
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
