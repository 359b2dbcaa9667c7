package io.hami.plugin.spi;

/** A vendor could not set up a container's devices; the message says why and goes back to the kubelet. */
public class AllocationException extends Exception {
    public AllocationException(String message) {
        super(message);
    }

    public AllocationException(String message, Throwable cause) {
        super(message, cause);
    }
}
