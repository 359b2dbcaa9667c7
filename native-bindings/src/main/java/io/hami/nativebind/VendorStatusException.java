package io.hami.nativebind;

/** A vendor call returned an error status; carries the code and the vendor library's own text for it. */
public final class VendorStatusException extends RuntimeException {

    private final String vendor;
    private final String function;
    private final int code;
    private final String vendorMessage;

    public VendorStatusException(String vendor, String function, int code, String vendorMessage) {
        super(vendor + " " + function + " failed with " + code + ": " + vendorMessage);
        this.vendor = vendor;
        this.function = function;
        this.code = code;
        this.vendorMessage = vendorMessage;
    }

    public String vendor() {
        return vendor;
    }

    public String function() {
        return function;
    }

    /** The status code as the library returned it (e.g. {@code nvmlReturn_t}). */
    public int code() {
        return code;
    }

    /** The library's text for the code (e.g. from {@code nvmlErrorString}). */
    public String vendorMessage() {
        return vendorMessage;
    }
}
