package io.hami.nativebind;

/**
 * The vendor library or one of its functions is not there or not usable: a node without the driver, a damaged driver
 * install, or an older driver.
 */
public abstract sealed class NativeLibraryException extends RuntimeException
        permits LibraryNotFoundException, LibraryDamagedException, SymbolNotFoundException {

    private final String vendor;
    private final String location;

    NativeLibraryException(String vendor, String location, String message) {
        super(message);
        this.vendor = vendor;
        this.location = location;
    }

    public String vendor() {
        return vendor;
    }

    /** The SONAME or path the library was (to be) loaded from. */
    public String location() {
        return location;
    }
}
