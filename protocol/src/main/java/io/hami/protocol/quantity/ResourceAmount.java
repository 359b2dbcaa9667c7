package io.hami.protocol.quantity;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One extended resource of a container as HAMi reads it: absent, an exact int64, a valid quantity that is
 * not an int64, or text that is not a quantity. Upstream treats the last two alike ("does not parse");
 * they are kept apart so that the webhook can reject invalid quantities with a clear message.
 */
public sealed interface ResourceAmount {

    /** The container names the resource in neither its limits nor its requests. */
    record Absent() implements ResourceAmount {}

    /** The quantity is an exact int64 ({@code 16Gi}, {@code 1.5k}, {@code 4096}). */
    record Int64(long value) implements ResourceAmount {}

    /** A valid quantity that apimachinery does not report as an int64 ({@code 1.0}, {@code 1000m}, {@code 16.0Gi}). */
    record NotInt64(String quantity) implements ResourceAmount {}

    /** Text that is not a Kubernetes quantity; {@code reason} says why. */
    record Invalid(String quantity, String reason) implements ResourceAmount {}

    /** True unless {@link Absent}. */
    default boolean present() {
        return !(this instanceof Absent);
    }

    /** The value when this is an {@link Int64}, otherwise empty. */
    default OptionalLong int64() {
        return this instanceof Int64(long value) ? OptionalLong.of(value) : OptionalLong.empty();
    }

    /**
     * The value when this is an {@link Int64}, clamped into the int range; otherwise empty. Go truncates
     * such values to int32 and wraps around; clamping keeps a huge request huge.
     */
    default OptionalInt clampedInt() {
        return this instanceof Int64(long value)
                ? OptionalInt.of(Math.clamp(value, Integer.MIN_VALUE, Integer.MAX_VALUE))
                : OptionalInt.empty();
    }

    /**
     * Reads a fabric8 quantity. fabric8 splits the text it was given into amount and format without changing
     * it, so their concatenation is the original text.
     */
    static ResourceAmount of(Quantity quantity) {
        String amount = quantity.getAmount() == null ? "" : quantity.getAmount();
        String format = quantity.getFormat() == null ? "" : quantity.getFormat();
        return of(amount + format);
    }

    /** Reads {@code quantity} with {@link KubeQuantity}. */
    static ResourceAmount of(String quantity) {
        try {
            OptionalLong value = KubeQuantity.asInt64(quantity);
            return value.isPresent() ? new Int64(value.getAsLong()) : new NotInt64(quantity);
        } catch (QuantityFormatException e) {
            return new Invalid(quantity, e.getMessage());
        }
    }
}
