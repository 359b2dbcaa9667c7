package io.hami.nativebind;

import io.hami.nativebind.elf.ElfDamage;
import io.hami.nativebind.elf.ElfReader;
import io.hami.nativebind.elf.ElfVerdict;
import io.hami.nativebind.elf.LibraryFiles;
import io.hami.nativebind.elf.LibrarySearch;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One vendor library, opened by its SONAME (found the way the dynamic linker finds it: LD_LIBRARY_PATH,
 * ld.so.cache, system folders) or by an explicit path. Two paths to two copies of a library are two
 * independent libraries, each with its own state.
 *
 * <p>The file is checked before {@code dlopen} sees it ({@link ElfReader}): a truncated library makes the loader
 * fault (SIGBUS) and kills the JVM, which no exception handler survives, and an empty or garbage file would only be
 * "not found". Such a file is a {@link LibraryDamagedException} naming what is wrong and where.
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
        return open(vendor, soname, List.of());
    }

    /**
     * Opens {@code soname}, whose file must define {@code required} (the functions the binding calls first), e.g.
     * {@code nvmlInit_v2}. The file the linker would pick is checked and then loaded by its path, so that the
     * file checked is the file loaded; a name the search does not find goes to {@code dlopen} as it is.
     */
    public static NativeLibrary open(String vendor, String soname, List<String> required) {
        ElfReader.Expected expected = ElfReader.Expected.forThisJvm(required);
        Optional<Path> file = Optional.empty();
        Optional<LibraryDamagedException> skipped = Optional.empty();
        for (Path candidate : LibrarySearch.candidates(soname)) {
            Optional<ElfVerdict> verdict = LibraryFiles.inspect(candidate, expected);
            if (verdict.orElse(null) instanceof ElfVerdict.Damaged(ElfDamage damage)) {
                LibraryDamagedException damaged = new LibraryDamagedException(vendor, soname, candidate, damage);
                if (!damage.skippedBySearch()) {
                    throw damaged;
                }
                // Another architecture's copy: the linker passes over it and keeps searching, so do we.
                skipped = skipped.or(() -> Optional.of(damaged));
            } else if (verdict.isPresent()) {
                file = Optional.of(candidate);
                break;
            }
        }
        if (file.isEmpty() && skipped.isPresent()) {
            throw skipped.get();
        }
        try {
            SymbolLookup lookup = file.isPresent()
                    ? SymbolLookup.libraryLookup(file.get(), Arena.ofAuto())
                    : SymbolLookup.libraryLookup(soname, Arena.ofAuto());
            return new NativeLibrary(vendor, soname, lookup);
        } catch (IllegalArgumentException e) {
            throw new LibraryNotFoundException(vendor, soname, e.getMessage());
        }
    }

    /** Opens the library file at {@code path}. */
    public static NativeLibrary open(String vendor, Path path) {
        return open(vendor, path, List.of());
    }

    /** Opens the library file at {@code path}, which must define {@code required}. */
    public static NativeLibrary open(String vendor, Path path, List<String> required) {
        Path absolute = path.toAbsolutePath();
        String location = absolute.toString();
        if (LibraryFiles.inspect(absolute, ElfReader.Expected.forThisJvm(required))
                        .orElse(null)
                instanceof ElfVerdict.Damaged(ElfDamage damage)) {
            throw new LibraryDamagedException(vendor, location, absolute, damage);
        }
        try {
            return new NativeLibrary(vendor, location, SymbolLookup.libraryLookup(absolute, Arena.ofAuto()));
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
