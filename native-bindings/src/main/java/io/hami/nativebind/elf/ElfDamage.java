package io.hami.nativebind.elf;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What makes a file unfit to be loaded as a vendor library. {@link #describe()} completes a sentence that starts with
 * the library's name, e.g. {@code "is truncated: segment 1 ends at byte 23,569 but the file has 20,480 bytes"}.
 */
public sealed interface ElfDamage {

    /** The rest of the sentence after the library's name. */
    String describe();

    /**
     * Whether the dynamic linker would pass over this file and keep searching its path for the name, as it does for
     * a library of another architecture; any other damage is a file it would load (and may crash on).
     */
    default boolean skippedBySearch() {
        return false;
    }

    /** A directory, device, socket or other non-regular file at the library's path. */
    record NotRegularFile(String kind) implements ElfDamage {
        @Override
        public String describe() {
            return "is not a regular file (" + kind + ")";
        }
    }

    /** The file is there but cannot be read. */
    record Unreadable(String reason) implements ElfDamage {
        @Override
        public String describe() {
            return "cannot be read: " + reason;
        }
    }

    record Empty() implements ElfDamage {
        @Override
        public String describe() {
            return "is empty (0 bytes)";
        }
    }

    /** The file does not start with the ELF magic; {@code head} is its first bytes in hex. */
    record NotElf(String head) implements ElfDamage {
        @Override
        public String describe() {
            return "is not an ELF file: it starts with " + head + ", not 7f 45 4c 46";
        }

        static NotElf of(byte[] head) {
            return new NotElf(HexFormat.ofDelimiter(" ").formatHex(head));
        }
    }

    /** {@code EI_CLASS} other than ELFCLASS64 (1 is a 32-bit library). */
    record WrongClass(int elfClass) implements ElfDamage {
        @Override
        public String describe() {
            return (elfClass == 1
                            ? "is a 32-bit ELF file (EI_CLASS 1)"
                            : "has an unknown ELF class (EI_CLASS " + elfClass + ")")
                    + "; this JVM loads only 64-bit (ELFCLASS64) libraries";
        }

        @Override
        public boolean skippedBySearch() {
            return true;
        }
    }

    /** {@code EI_DATA} other than little-endian. */
    record WrongByteOrder(int data) implements ElfDamage {
        @Override
        public String describe() {
            return (data == 2
                            ? "is a big-endian ELF file (EI_DATA 2)"
                            : "has an unknown byte order (EI_DATA " + data + ")")
                    + "; this JVM loads only little-endian libraries";
        }

        @Override
        public boolean skippedBySearch() {
            return true;
        }
    }

    /** {@code e_machine} of another architecture than the running JVM's. */
    record WrongMachine(int machine, int expected) implements ElfDamage {
        @Override
        public String describe() {
            return "is built for " + ElfMachine.name(machine) + " (e_machine " + machine + "), but this JVM runs on "
                    + ElfMachine.name(expected) + " (e_machine " + expected + ")";
        }

        @Override
        public boolean skippedBySearch() {
            return true;
        }
    }

    /** {@code e_type} other than ET_DYN: an executable, an object file, a core dump. */
    record NotSharedObject(int type) implements ElfDamage {
        @Override
        public String describe() {
            return "is not a shared library: its e_type is " + type + typeName(type) + ", not 3 (ET_DYN)";
        }

        private static String typeName(int type) {
            return switch (type) {
                case 1 -> " (a relocatable object file)";
                case 2 -> " (an executable)";
                case 4 -> " (a core dump)";
                default -> "";
            };
        }
    }

    /**
     * A part the loader or this check reads ends past the end of the file; {@code end} is {@link Long#MAX_VALUE} when
     * the offsets overflow 63 bits.
     */
    record Truncated(String part, long end, long fileSize) implements ElfDamage {
        @Override
        public String describe() {
            String where = end == Long.MAX_VALUE
                    ? "ends beyond byte " + number(Long.MAX_VALUE)
                    : "ends at byte " + number(end);
            return "is truncated: " + part + " " + where + " but the file has " + number(fileSize) + " bytes";
        }
    }

    /** The headers contradict themselves or the ELF format. */
    record Malformed(String detail) implements ElfDamage {
        @Override
        public String describe() {
            return "is malformed: " + detail;
        }
    }

    /** Functions the binding calls first are not in the dynamic symbol table. */
    record MissingSymbols(List<String> names) implements ElfDamage {
        public MissingSymbols {
            names = List.copyOf(Objects.requireNonNull(names, "names"));
        }

        @Override
        public String describe() {
            return "lacks the required function" + (names.size() == 1 ? " " : "s ") + String.join(", ", names)
                    + " in its dynamic symbol table (not this vendor's library, or a driver too old for it)";
        }
    }

    private static String number(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
