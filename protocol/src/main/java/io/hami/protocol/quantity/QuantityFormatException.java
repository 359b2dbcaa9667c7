package io.hami.protocol.quantity;

/**
 * A string that is not a Kubernetes quantity at all, as opposed to a valid quantity that is not an exact
 * int64 ({@link KubeQuantity#asInt64} then answers empty). The message quotes the input and gives
 * apimachinery's reason, for example {@code invalid quantity "1x": quantities must match the regular expression ...}.
 */
public final class QuantityFormatException extends Exception {
    public QuantityFormatException(String quantity, String reason) {
        super("invalid quantity \"" + quantity + "\": " + reason);
    }
}
