package io.hami.nativebind.elf;

import java.util.Locale;
import java.util.OptionalInt;

/** ELF {@code e_machine} values and the running JVM's. */
public final class ElfMachine {
    public static final int X86_64 = 62;
    public static final int AARCH64 = 183;

    private ElfMachine() {}

    /** The {@code e_machine} of libraries this JVM can load, empty on an architecture the project does not know. */
    public static OptionalInt host() {
        return of(System.getProperty("os.arch", ""));
    }

    /** {@code os.arch} to {@code e_machine}: {@code amd64}/{@code x86_64} and {@code aarch64}. */
    static OptionalInt of(String osArch) {
        return switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> OptionalInt.of(X86_64);
            case "aarch64", "arm64" -> OptionalInt.of(AARCH64);
            default -> OptionalInt.empty();
        };
    }

    /** A readable name for messages. */
    public static String name(int machine) {
        return switch (machine) {
            case X86_64 -> "x86_64";
            case AARCH64 -> "aarch64";
            case 3 -> "i386";
            case 40 -> "arm";
            case 8 -> "mips";
            case 20 -> "ppc";
            case 21 -> "ppc64";
            case 22 -> "s390";
            case 243 -> "riscv";
            default -> "machine " + machine;
        };
    }
}
