package io.hami.scheduler.quota;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.quantity.KubeQuantity;
import io.hami.protocol.quantity.QuantityFormatException;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.UsageIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device limits of the cluster's ResourceQuotas (docs/upstream.md#quota): {@code spec.hard} keys
 * {@code limits.<memory resource>} and {@code limits.<core resource>} of a vendor. Several quotas in one namespace
 * all apply, so the smallest limit counts. A limit of 0 is a limit.
 */
public final class QuotaBook {
    private static final Logger LOG = LoggerFactory.getLogger(QuotaBook.class);
    private static final String PREFIX = "limits.";

    private final DeviceBackends backends;
    private final UsageIndex index;
    /** Namespace to quota name to resource to limit, in the resource's own units. */
    private final ConcurrentHashMap<String, Map<String, Map<String, Long>>> limits = new ConcurrentHashMap<>();

    public QuotaBook(DeviceBackends backends, UsageIndex index) {
        this.backends = backends;
        this.index = index;
    }

    /** One limit as a quota sets it, and what the namespace's pods hold of it (both in the resource's units). */
    public record Line(String namespace, String resource, long limit, long used) {}

    public void put(ResourceQuota quota) {
        String ns = quota.getMetadata().getNamespace();
        String name = quota.getMetadata().getName();
        Map<String, Quantity> hard = quota.getSpec() == null || quota.getSpec().getHard() == null
                ? Map.of()
                : quota.getSpec().getHard();
        var ours = new TreeMap<String, Long>();
        for (DeviceBackend b : backends.all()) {
            for (String resource : List.of(b.resources().memory(), b.resources().cores())) {
                Quantity q = hard.get(PREFIX + resource);
                if (q == null) {
                    continue;
                }
                String text = q.getAmount() + (q.getFormat() == null ? "" : q.getFormat());
                try {
                    OptionalLong value = KubeQuantity.asInt64(text);
                    if (value.isPresent()) {
                        ours.put(resource, value.getAsLong());
                    } else {
                        LOG.warn(
                                "ResourceQuota {}/{}: {}{} = {} is not a whole number; ignored",
                                ns,
                                name,
                                PREFIX,
                                resource,
                                text);
                    }
                } catch (QuantityFormatException e) {
                    LOG.warn(
                            "ResourceQuota {}/{}: {}{} = {}: {}; ignored",
                            ns,
                            name,
                            PREFIX,
                            resource,
                            text,
                            e.getMessage());
                }
            }
        }
        limits.compute(ns, (k, byName) -> {
            var next = byName == null ? new HashMap<String, Map<String, Long>>() : new HashMap<>(byName);
            if (ours.isEmpty()) {
                next.remove(name);
            } else {
                next.put(name, Map.copyOf(ours));
            }
            return next.isEmpty() ? null : Map.copyOf(next);
        });
    }

    public void remove(ResourceQuota quota) {
        limits.computeIfPresent(quota.getMetadata().getNamespace(), (k, byName) -> {
            var next = new HashMap<>(byName);
            next.remove(quota.getMetadata().getName());
            return next.isEmpty() ? null : Map.copyOf(next);
        });
    }

    /** Whether any quota of {@code namespace} limits a device resource. */
    public boolean limits(String namespace) {
        return limits.containsKey(namespace);
    }

    /**
     * Per vendor keyword, what pod {@code podKey} of {@code namespace} may take, given what the namespace's other
     * pods hold, in MiB and cores; vendors without a limit are left out (unlimited).
     */
    public Map<String, QuotaRoom> rooms(String namespace, String podKey) {
        var byName = limits.get(namespace);
        if (byName == null) {
            return Map.of();
        }
        Map<String, Grant> used = index.namespaceUsage(namespace, podKey);
        var rooms = new HashMap<String, QuotaRoom>();
        for (DeviceBackend b : backends.all()) {
            OptionalLong mem = smallest(byName, b.resources().memory());
            OptionalLong cores = smallest(byName, b.resources().cores());
            if (mem.isEmpty() && cores.isEmpty()) {
                continue;
            }
            Grant held = used.getOrDefault(b.vendor(), Grant.ZERO);
            rooms.put(
                    b.vendor(),
                    new QuotaRoom(
                            mem.isEmpty()
                                    ? Long.MAX_VALUE
                                    : saturatedTimes(mem.getAsLong(), b.memoryUnitMiB()) - held.mem(),
                            cores.isEmpty() ? Long.MAX_VALUE : cores.getAsLong() - held.cores()));
        }
        return Map.copyOf(rooms);
    }

    /** Every limit with what is used of it, sorted by namespace and resource: for metrics and tools. */
    public List<Line> lines() {
        var out = new ArrayList<Line>();
        new TreeMap<>(limits).forEach((ns, byName) -> {
            Map<String, Grant> used = index.namespaceUsage(ns, null);
            for (DeviceBackend b : backends.all()) {
                Grant held = used.getOrDefault(b.vendor(), Grant.ZERO);
                smallest(byName, b.resources().memory())
                        .ifPresent(limit -> out.add(
                                new Line(ns, b.resources().memory(), limit, ceilDiv(held.mem(), b.memoryUnitMiB()))));
                smallest(byName, b.resources().cores())
                        .ifPresent(limit -> out.add(new Line(ns, b.resources().cores(), limit, held.cores())));
            }
        });
        out.sort(Comparator.comparing(Line::namespace).thenComparing(Line::resource));
        return out;
    }

    private static OptionalLong smallest(Map<String, Map<String, Long>> byName, String resource) {
        return byName.values().stream()
                .filter(m -> m.containsKey(resource))
                .mapToLong(m -> m.get(resource))
                .min();
    }

    private static long saturatedTimes(long units, int unitMiB) {
        try {
            return Math.multiplyExact(units, (long) unitMiB);
        } catch (ArithmeticException e) {
            return units < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static long ceilDiv(long mib, int unitMiB) {
        return Math.ceilDiv(mib, (long) Math.max(unitMiB, 1));
    }
}
