package io.hami.protocol.spi;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.quantity.QuantityLimit;
import java.time.Instant;
import java.util.List;

/**
 * One vendor's scheduler-side rules (design D1 to D3: docs/design.md#d1, docs/design.md#d2,
 * docs/design.md#d3). Instances are made by a {@link DeviceBackendFactory} found with
 * {@link java.util.ServiceLoader}; the scheduler depends on this interface, never on a vendor's classes. On the
 * node, the plugin finds a vendor through its own SPI ({@code VendorPluginFactory}), whose plugins carry their
 * backend for its type keyword and annotation keys.
 * Every method is a pure function of its arguments and the configuration the backend was made with.
 */
public interface DeviceBackend {

    /** The type keyword written in pod device strings: {@code NVIDIA}, {@code MLU}, {@code Mthreads}, {@code HCU}. */
    String vendor();

    /** The annotation keys this vendor owns. */
    VendorKeys keys();

    /**
     * Node annotations this vendor reads besides its register and handshake (NVIDIA's {@code hami.io/node-nvidia-score}),
     * each with the codec {@code hami annotation} converts it with. None by default.
     */
    default java.util.Map<String, io.hami.protocol.codec.AnnotationCodec> nodeAnnotations() {
        return java.util.Map.of();
    }

    /** The extended-resource names this vendor reads, as configured. */
    ResourceNames resources();

    /** The node's devices of this vendor, from its register annotation or its Capacity. */
    Discovery discover(Node node);

    /**
     * What {@code container} asks of this vendor, with defaults, unit factors and percentages applied.
     * A container that asks nothing valid of this vendor gets an empty request ({@link ContainerRequest#isEmpty()}).
     */
    ContainerRequest request(Container container);

    /**
     * Fits one container's request on one node's devices of this vendor. {@code devices} is already
     * sorted by the device policy; like upstream, the walk starts from the <em>last</em> element.
     */
    FitResult fit(List<DeviceUsage> devices, ContainerRequest request, FitContext context);

    /**
     * The rules {@link #fit} walks with, when {@link #fit} answers as {@link io.hami.protocol.fit.FitWalk} over them
     * (fits, or the same reasons; it may grant other devices that fit, as NVIDIA's topology-aware policy does):
     * filter may then decide a node without the walk, with the same answer. Empty (the default): filter always calls
     * {@link #fit}.
     */
    default java.util.Optional<io.hami.protocol.fit.FitRules> fitRules() {
        return java.util.Optional.empty();
    }

    /**
     * The webhook's rule for one container. By default (Cambricon, Hygon) a container asks for this vendor
     * when its count resource is in its limits, and nothing is filled in.
     */
    default Admission admit(Container container) {
        var limits = container.getResources() == null
                ? null
                : container.getResources().getLimits();
        boolean requested = limits != null && limits.containsKey(resources().count());
        return requested
                ? new Admission.Accepted(true, java.util.Map.of(), java.util.Map.of(), java.util.Map.of())
                : Admission.NOT_REQUESTED;
    }

    /**
     * MiB in one unit of the memory resource (NVIDIA and Hygon: the memory factor; Cambricon 256; Moore Threads
     * 512): a ResourceQuota's {@code limits.<memory resource>} counts in these units.
     */
    default int memoryUnitMiB() {
        return 1;
    }

    /**
     * Whether the pod asks for NUMA-aligned devices (NVIDIA's {@code nvidia.com/numa-bind}); when any vendor
     * says so, every vendor's device list is ordered NUMA first, as upstream does.
     */
    default boolean numaBind(java.util.Map<String, String> podAnnotations) {
        return false;
    }

    /**
     * The amounts of each resource this vendor can represent: counts, memory (after its unit) and cores as int32.
     * Anything else (negative, overflowing, not a whole number) is refused, never wrapped or read as no request, as
     * upstream's reading would (docs/upstream.md#lenient-inputs). Cores above a whole device (100) are representable:
     * the fit grants 100, as upstream's does. A memory percentage is not limited here: requests clamp it as upstream's
     * do, and only the vendor's webhook rule refuses one outside 0..100, as upstream's webhook does.
     */
    default List<QuantityLimit> quantityLimits() {
        var r = resources();
        int unit = Math.max(memoryUnitMiB(), 1);
        var limits = new java.util.ArrayList<QuantityLimit>();
        limits.add(new QuantityLimit(r.count(), Integer.MAX_VALUE, "devices"));
        limits.add(new QuantityLimit(
                r.memory(), Integer.MAX_VALUE / unit, unit == 1 ? "MiB" : "units of " + unit + " MiB"));
        limits.add(new QuantityLimit(r.cores(), Integer.MAX_VALUE, "percent of a device; above 100 counts as 100"));
        return limits.stream().filter(l -> !l.resource().isEmpty()).toList();
    }

    /**
     * Why {@code container} asks this vendor for an amount it cannot represent (see {@link #quantityLimits()}), or
     * empty. The webhook refuses such a pod and filter finds no node for it.
     */
    default java.util.Optional<String> unrepresentable(Container container) {
        for (QuantityLimit limit : quantityLimits()) {
            var why = limit.refusal(container, vendor());
            if (why.isPresent()) {
                return why;
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * The design D3 handshake/health rule for one node at {@code now}. {@code previous} is what this rule
     * returned for the node last time ({@link HealthMemory#NONE} at first).
     */
    HealthVerdict checkHealth(Node node, Instant now, HealthMemory previous);
}
