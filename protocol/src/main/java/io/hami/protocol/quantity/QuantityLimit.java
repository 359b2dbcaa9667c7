package io.hami.protocol.quantity;

import io.fabric8.kubernetes.api.model.Container;
import java.util.Objects;
import java.util.Optional;

/**
 * The amounts of one resource a vendor can represent: a whole number from 0 to {@code max}. Anything else must
 * be refused, never read as "no request": a pod the scheduler takes for one without devices would be bound
 * without a grant while the kubelet still hands it devices.
 *
 * @param resource the resource name, for example {@code nvidia.com/gpumem}
 * @param max      the largest amount
 * @param unit     what one unit of the amount is, for the message ({@code devices}, {@code MiB}, ...)
 */
public record QuantityLimit(String resource, long max, String unit) {
    public QuantityLimit {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(unit, "unit");
    }

    /** Why {@code container}'s amount of the resource (limits, else requests) is refused, or empty when it fits. */
    public Optional<String> refusal(Container container, String vendor) {
        if (resource.isEmpty()) {
            return Optional.empty();
        }
        String where = "container " + container.getName() + ": " + resource + " ";
        String want = vendor + " takes a whole number from 0 to " + max + " (" + unit + ")";
        return switch (ContainerResources.read(container, resource)) {
            case ResourceAmount.Absent a -> Optional.empty();
            case ResourceAmount.Invalid i -> Optional.of(where + quoted(i.quantity()) + " is not a quantity; " + want);
            case ResourceAmount.NotInt64 n ->
                Optional.of(where + quoted(n.quantity()) + " is not a whole number; " + want);
            case ResourceAmount.Int64 v when v.value() >= 0 && v.value() <= max -> Optional.empty();
            case ResourceAmount.Int64 v ->
                Optional.of(where + quoted(written(container)) + shown(v.value(), written(container))
                        + " is out of range; " + want);
        };
    }

    /** The quantity as the pod spells it (limits, else requests). */
    private String written(Container container) {
        var r = container.getResources();
        var q = r.getLimits() != null && r.getLimits().containsKey(resource)
                ? r.getLimits().get(resource)
                : r.getRequests().get(resource);
        return (q.getAmount() == null ? "" : q.getAmount()) + (q.getFormat() == null ? "" : q.getFormat());
    }

    private static String shown(long value, String written) {
        return Long.toString(value).equals(written) ? "" : " (" + value + ")";
    }

    private static String quoted(String quantity) {
        return "\"" + quantity + "\"";
    }
}
