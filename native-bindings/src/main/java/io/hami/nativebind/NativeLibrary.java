package io.hami.nativebind;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One vendor library, opened by its SONAME (found the way the dynamic linker finds it: LD_LIBRARY_PATH,
 * ld.so.cache, system folders) or by an explicit path. Two paths to two copies of a library are two
 * independent libraries, each with its own state.
 */
public final class NativeLibrary {

    private final String vendor;
    private final String location;
    private final SymbolLookup lookup;

    private NativeLibrary(String vendor, String location, SymbolLookup lookup) {
        this.vendor = vendor;
        this.location = location;
        this.lookup = lookup;
    }

    /** Opens {@code soname} as given, with no name mapping, e.g. {@code libnvidia-ml.so.1}. */
    public static NativeLibrary open(String vendor, String soname) {
        try {
            return new NativeLibrary(vendor, soname, SymbolLookup.libraryLookup(soname, Arena.ofAuto()));
        } catch (IllegalArgumentException e) {
            throw new LibraryNotFoundException(vendor, soname, e.getMessage());
        }
    }

    /** Opens the library file at {@code path}. */
    public static NativeLibrary open(String vendor, Path path) {
        String location = path.toAbsolutePath().toString();
        try {
            return new NativeLibrary(vendor, location, SymbolLookup.libraryLookup(path, Arena.ofAuto()));
        } catch (IllegalArgumentException e) {
            throw new LibraryNotFoundException(vendor, location, e.getMessage());
        }
    }

    /** The vendor API's name for messages, e.g. {@code NVML}. */
    public String vendor() {
        return vendor;
    }

    /** The SONAME or absolute path it was opened from. */
    public String location() {
        return location;
    }

    public boolean has(String name) {
        return lookup.find(name).isPresent();
    }

    public Optional<MemorySegment> find(String name) {
        return lookup.find(name);
    }

    /** A function whose address is looked up on first use. */
    public Symbol symbol(String name) {
        return new Symbol(this, name);
    }

    @Override
    public String toString() {
        return vendor + " library " + location;
    }

    /** Resolves lazily so that a symbol missing from an older driver fails only when it is called. */
    public static final class Symbol {
        private final NativeLibrary library;
        private final String name;
        private MemorySegment address; // racy but idempotent: every thread resolves the same address

        private Symbol(NativeLibrary library, String name) {
            this.library = library;
            this.name = name;
        }

        public MemorySegment address() {
            MemorySegment resolved = address;
            if (resolved == null) {
                resolved = library.find(name)
                        .orElseThrow(() -> new SymbolNotFoundException(library.vendor, name, library.location));
                address = resolved;
            }
            return resolved;
        }
    }
}
