package io.hami.nativebind.elf;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/** What {@link ElfReader} found: a library fit to be loaded, or the first damage that makes it unfit. */
public sealed interface ElfVerdict {

    /**
     * A 64-bit little-endian shared object of the expected machine whose headers and loadable segments lie within
     * the file and which exports the required symbols.
     *
     * @param soname         its {@code DT_SONAME}, when it has one
     * @param dynamicSymbols how many entries its dynamic symbol table has; empty when it has no section headers to
     *                       find that table by (then the required symbols were not checked: the loader needs no
     *                       section headers, so their absence is no damage)
     */
    record Sound(long fileSize, int machine, Optional<String> soname, OptionalInt dynamicSymbols)
            implements ElfVerdict {
        public Sound {
            Objects.requireNonNull(soname, "soname");
            Objects.requireNonNull(dynamicSymbols, "dynamicSymbols");
        }
    }

    record Damaged(ElfDamage damage) implements ElfVerdict {
        public Damaged {
            Objects.requireNonNull(damage, "damage");
        }
    }
}
