package io.hami.nativebind;

/** The library is loaded but lacks a function, typically because the driver is older than the call. */
public final class SymbolNotFoundException extends NativeLibraryException {

    private final String symbol;

    public SymbolNotFoundException(String vendor, String symbol, String location) {
        super(
                vendor,
                location,
                "function " + symbol + " not found in " + vendor + " library " + location
                        + " (the driver may be too old for it)");
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }
}
