package io.hami.nativebind;

import io.hami.nativebind.elf.ElfDamage;
import java.nio.file.Path;

/**
 * The library file is there but unfit to load, found before {@code dlopen} saw it: truncated, empty, not ELF, of
 * another architecture, no shared object, or without the functions the binding calls first. E.g. {@code NVML library
 * /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 is truncated: segment 1 ends at byte 23,569 but the file has 20,480
 * bytes}. Distinct from {@link LibraryNotFoundException}: the fix is a reinstall of the driver, not an install.
 */
public final class LibraryDamagedException extends NativeLibraryException {

    private final Path file;
    private final transient ElfDamage damage;

    public LibraryDamagedException(String vendor, String location, Path file, ElfDamage damage) {
        super(vendor, location, vendor + " library " + where(location, file) + " " + damage.describe());
        this.file = file;
        this.damage = damage;
    }

    /** The file that was checked (the SONAME resolved the way the linker resolves it, or the path given). */
    public Path file() {
        return file;
    }

    public ElfDamage damage() {
        return damage;
    }

    private static String where(String location, Path file) {
        return location.equals(file.toString()) ? location : location + " (" + file + ")";
    }
}
