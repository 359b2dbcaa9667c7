package io.hami.nativebind;

/** The library could not be loaded, e.g. {@code NVML library libnvidia-ml.so.1 not found: ...}. */
public final class LibraryNotFoundException extends NativeLibraryException {

    public LibraryNotFoundException(String vendor, String location, String cause) {
        super(vendor, location, vendor + " library " + location + " not found: " + cause);
    }
}
