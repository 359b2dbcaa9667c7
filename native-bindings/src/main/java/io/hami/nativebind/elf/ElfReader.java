package io.hami.nativebind.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Checks that bytes are a shared library this JVM can load before the dynamic linker sees them. The linker maps
 * each {@code PT_LOAD} segment with {@code mmap} and touches it: a segment that runs past the end of a truncated
 * file faults (SIGBUS) inside {@code dlopen} and takes the JVM down with it, which no Java code can catch. Reads
 * the ELF header, the program header table, the section header table, and the dynamic symbol and string tables
 * only, each within the file and in bounded chunks. Pure: the same bytes always give the same verdict, and any
 * bytes give a verdict (or the source's own {@link IOException}), never another exception.
 */
public final class ElfReader {
    static final int EHDR_SIZE = 64;
    static final int PHDR_SIZE = 56;
    static final int SHDR_SIZE = 64;
    static final int SYM_SIZE = 24;
    static final int DYN_SIZE = 16;

    private static final int PT_LOAD = 1;
    private static final int ET_DYN = 3;
    private static final int SHT_STRTAB = 3;
    private static final int SHT_DYNAMIC = 6;
    private static final int SHT_DYNSYM = 11;
    private static final long DT_NULL = 0;
    private static final long DT_SONAME = 14;
    private static final int STB_LOCAL = 0;

    /** Bytes of table entries read at once. */
    private static final int CHUNK = 64 * 1024;
    /** A string table up to this size is read whole, a larger one string by string. */
    private static final long STRINGS_IN_MEMORY = 16L << 20;
    /** The longest SONAME read; a real one is a few dozen bytes. */
    private static final int MAX_NAME = 4096;

    /**
     * What the caller needs of the library.
     *
     * @param machine the {@code e_machine} it must have, empty to accept any
     * @param symbols functions its dynamic symbol table must define
     */
    public record Expected(OptionalInt machine, List<String> symbols) {
        public Expected {
            Objects.requireNonNull(machine, "machine");
            symbols = List.copyOf(symbols);
        }

        /** The running JVM's machine and {@code symbols}. */
        public static Expected forThisJvm(List<String> symbols) {
            return new Expected(ElfMachine.host(), symbols);
        }
    }

    private ElfReader() {}

    public static ElfVerdict inspect(ElfSource source, Expected expected) throws IOException {
        try {
            return read(source, expected);
        } catch (Damage d) {
            return new ElfVerdict.Damaged(d.damage);
        }
    }

    private static ElfVerdict read(ElfSource src, Expected expected) throws IOException, Damage {
        long size = src.size();
        if (size <= 0) {
            throw new Damage(new ElfDamage.Empty());
        }
        ByteBuffer eh = src.read(0, (int) Math.min(size, EHDR_SIZE));
        byte[] head = new byte[Math.min(8, eh.limit())];
        eh.get(0, head);
        if (size < 4 || eh.getInt(0) != 0x464c457f) { // "\177ELF" read little-endian
            throw new Damage(ElfDamage.NotElf.of(head));
        }
        if (size < 16) {
            throw new Damage(new ElfDamage.Truncated("the ELF identification", 16, size));
        }
        int elfClass = u8(eh, 4);
        if (elfClass != 2) {
            throw new Damage(new ElfDamage.WrongClass(elfClass));
        }
        int data = u8(eh, 5);
        if (data != 1) {
            throw new Damage(new ElfDamage.WrongByteOrder(data));
        }
        if (u8(eh, 6) != 1) {
            throw new Damage(new ElfDamage.Malformed("its ELF version (EI_VERSION) is " + u8(eh, 6) + ", not 1"));
        }
        if (size < EHDR_SIZE) {
            throw new Damage(new ElfDamage.Truncated("the ELF header", EHDR_SIZE, size));
        }
        int type = u16(eh, 16);
        int machine = u16(eh, 18);
        long phoff = eh.getLong(32);
        long shoff = eh.getLong(40);
        int phentsize = u16(eh, 54);
        int phnum = u16(eh, 56);
        int shentsize = u16(eh, 58);
        int shnum = u16(eh, 60);
        // The machine before the type: the linker skips another architecture's file while searching, whatever it is.
        if (expected.machine().isPresent() && machine != expected.machine().getAsInt()) {
            throw new Damage(
                    new ElfDamage.WrongMachine(machine, expected.machine().getAsInt()));
        }
        if (type != ET_DYN) {
            throw new Damage(new ElfDamage.NotSharedObject(type));
        }
        checkSegments(src, size, phoff, phentsize, phnum);
        if (shoff == 0) {
            // Stripped of section headers (sstrip): loadable, but the dynamic symbols cannot be found by section.
            return new ElfVerdict.Sound(size, machine, Optional.empty(), OptionalInt.empty());
        }
        SectionTable sections = sectionTable(src, size, shoff, shentsize, shnum);
        long symbols = 0;
        List<String> missing = new ArrayList<>(expected.symbols());
        if (sections.dynsym.isPresent()) {
            Section table = sections.dynsym.get();
            if (table.entsize != SYM_SIZE) {
                throw new Damage(new ElfDamage.Malformed("its dynamic symbol table (section " + table.index
                        + ") has entries of " + table.entsize + " bytes, not " + SYM_SIZE));
            }
            symbols = table.size / SYM_SIZE;
            missing = missingSymbols(src, table, strings(src, size, sections, table), missing);
        }
        Optional<String> soname = Optional.empty();
        if (sections.dynamic.isPresent()) {
            Section dynamic = sections.dynamic.get();
            soname = soname(src, dynamic, strings(src, size, sections, dynamic));
        }
        if (!missing.isEmpty()) {
            throw new Damage(new ElfDamage.MissingSymbols(missing));
        }
        return new ElfVerdict.Sound(size, machine, soname, OptionalInt.of((int) Math.min(symbols, Integer.MAX_VALUE)));
    }

    /** The program header table and every loadable segment's bytes lie within the file. */
    private static void checkSegments(ElfSource src, long size, long phoff, int phentsize, int phnum)
            throws IOException, Damage {
        if (phnum == 0) {
            throw new Damage(new ElfDamage.Malformed("it has no program headers, so nothing to load"));
        }
        if (phentsize != PHDR_SIZE) {
            throw new Damage(new ElfDamage.Malformed(
                    "its program header entries are " + phentsize + " bytes, not " + PHDR_SIZE));
        }
        long tableEnd = end(phoff, (long) phnum * PHDR_SIZE);
        if (tableEnd > size) {
            throw new Damage(new ElfDamage.Truncated("the program header table", tableEnd, size));
        }
        ByteBuffer ph = src.read(phoff, phnum * PHDR_SIZE);
        boolean loads = false;
        for (int i = 0; i < phnum; i++) {
            int at = i * PHDR_SIZE;
            if (ph.getInt(at) != PT_LOAD) {
                continue;
            }
            loads = true;
            long fileSize = ph.getLong(at + 32);
            long segmentEnd = end(ph.getLong(at + 8), fileSize);
            // This is the check that matters: dlopen maps [p_offset, p_offset + p_filesz) and faults past EOF.
            if (fileSize != 0 && segmentEnd > size) {
                throw new Damage(new ElfDamage.Truncated("segment " + i, segmentEnd, size));
            }
        }
        if (!loads) {
            throw new Damage(new ElfDamage.Malformed("it has no loadable (PT_LOAD) segment"));
        }
    }

    /**
     * The section header table lies within the file; finds the dynamic symbol table and the dynamic section in it,
     * each checked to lie within the file.
     */
    private static SectionTable sectionTable(ElfSource src, long size, long shoff, int shentsize, int shnum)
            throws IOException, Damage {
        if (shentsize != SHDR_SIZE) {
            throw new Damage(new ElfDamage.Malformed(
                    "its section header entries are " + shentsize + " bytes, not " + SHDR_SIZE));
        }
        long first = end(shoff, SHDR_SIZE);
        if (first > size) {
            throw new Damage(new ElfDamage.Truncated("the section header table", first, size));
        }
        // e_shnum 0 with a table: extended numbering, the count is section 0's sh_size.
        long count = shnum != 0 ? shnum : src.read(shoff, SHDR_SIZE).getLong(32);
        long tableEnd = end(shoff, times(count, SHDR_SIZE));
        if (tableEnd > size) {
            throw new Damage(new ElfDamage.Truncated("the section header table", tableEnd, size));
        }
        Section[] found = new Section[2]; // dynsym, dynamic: the first of each
        walk(src, shoff, count, SHDR_SIZE, (index, chunk, at) -> {
            int type = chunk.getInt(at + 4);
            int slot = type == SHT_DYNSYM ? 0 : type == SHT_DYNAMIC ? 1 : -1;
            if (slot >= 0 && found[slot] == null) {
                found[slot] = section(index, chunk, at);
            }
            return found[0] == null || found[1] == null;
        });
        if (found[0] != null) {
            within(found[0], size, "the dynamic symbol table");
        }
        if (found[1] != null) {
            within(found[1], size, "the dynamic section");
        }
        return new SectionTable(shoff, count, Optional.ofNullable(found[0]), Optional.ofNullable(found[1]));
    }

    /** The string table {@code owner}'s {@code sh_link} names. */
    private static Strings strings(ElfSource src, long size, SectionTable sections, Section owner)
            throws IOException, Damage {
        long link = owner.link;
        long count = sections.count;
        if (link <= 0 || link >= count) {
            throw new Damage(new ElfDamage.Malformed(
                    "section " + owner.index + " links to string table section " + link + " of " + count));
        }
        Section table = section(link, src.read(sections.offset + link * SHDR_SIZE, SHDR_SIZE), 0);
        if (table.type != SHT_STRTAB) {
            throw new Damage(new ElfDamage.Malformed("section " + owner.index + " links to section " + link
                    + " of type " + table.type + ", not a string table (" + SHT_STRTAB + ")"));
        }
        within(table, size, "the dynamic string table");
        return table.size <= STRINGS_IN_MEMORY
                ? new Strings(src, table, src.read(table.offset, (int) table.size))
                : new Strings(src, table, null);
    }

    /** {@code wanted} less the names a global or weak defined symbol of {@code table} has. */
    private static List<String> missingSymbols(ElfSource src, Section table, Strings names, List<String> wanted)
            throws IOException, Damage {
        Map<String, byte[]> left = new LinkedHashMap<>();
        for (String name : wanted) {
            left.put(name, (name + '\0').getBytes(StandardCharsets.UTF_8));
        }
        if (left.isEmpty()) {
            return List.of();
        }
        walk(src, table.offset, table.size / SYM_SIZE, SYM_SIZE, (index, chunk, at) -> {
            long name = Integer.toUnsignedLong(chunk.getInt(at));
            int bind = u8(chunk, at + 4) >>> 4;
            int shndx = u16(chunk, at + 6);
            if (shndx != 0 && bind != STB_LOCAL) {
                for (var it = left.values().iterator(); it.hasNext(); ) {
                    if (names.equalsAt(name, it.next())) {
                        it.remove();
                    }
                }
            }
            return !left.isEmpty();
        });
        return List.copyOf(left.keySet());
    }

    /** {@code DT_SONAME} of the dynamic section, read up to {@code DT_NULL}. */
    private static Optional<String> soname(ElfSource src, Section dynamic, Strings names) throws IOException, Damage {
        long[] offset = {-1};
        walk(src, dynamic.offset, dynamic.size / DYN_SIZE, DYN_SIZE, (index, chunk, at) -> {
            long tag = chunk.getLong(at);
            if (tag == DT_SONAME) {
                offset[0] = chunk.getLong(at + 8);
            }
            return tag != DT_NULL && tag != DT_SONAME;
        });
        return offset[0] < 0 ? Optional.empty() : Optional.of(names.stringAt(offset[0], "DT_SONAME"));
    }

    private static void within(Section s, long size, String what) throws Damage {
        long sectionEnd = end(s.offset, s.size);
        if (sectionEnd > size) {
            throw new Damage(new ElfDamage.Truncated(what + " (section " + s.index + ")", sectionEnd, size));
        }
    }

    /** Elf64_Shdr at {@code at}. */
    private static Section section(long index, ByteBuffer b, int at) {
        return new Section(
                index,
                b.getInt(at + 4),
                b.getLong(at + 24),
                b.getLong(at + 32),
                Integer.toUnsignedLong(b.getInt(at + 40)),
                b.getLong(at + 56));
    }

    /** Calls {@code visitor} per entry of a table the caller has checked to lie within the file, chunk by chunk. */
    private static void walk(ElfSource src, long offset, long count, int entry, Visitor visitor)
            throws IOException, Damage {
        int perChunk = CHUNK / entry;
        for (long first = 0; first < count; first += perChunk) {
            int n = (int) Math.min(perChunk, count - first);
            ByteBuffer chunk = src.read(offset + first * entry, n * entry);
            for (int i = 0; i < n; i++) {
                if (!visitor.visit(first + i, chunk, i * entry)) {
                    return;
                }
            }
        }
    }

    /** {@code offset + length} of unsigned 64-bit values, {@link Long#MAX_VALUE} when past 63 bits. */
    static long end(long offset, long length) {
        long sum = offset + length;
        return offset < 0 || length < 0 || sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long times(long count, int size) {
        return count < 0 || count > Long.MAX_VALUE / size ? -1 : count * size;
    }

    private static int u8(ByteBuffer b, int at) {
        return Byte.toUnsignedInt(b.get(at));
    }

    private static int u16(ByteBuffer b, int at) {
        return Short.toUnsignedInt(b.getShort(at));
    }

    /** One entry of a table; returns whether to go on. */
    @FunctionalInterface
    private interface Visitor {
        boolean visit(long index, ByteBuffer chunk, int at) throws IOException, Damage;
    }

    /** Where the section header table is, and the two sections the check reads. */
    private record SectionTable(long offset, long count, Optional<Section> dynsym, Optional<Section> dynamic) {}

    /** The fields of a section header the check uses. */
    private record Section(long index, int type, long offset, long size, long link, long entsize) {}

    /** A string table within the file, held in memory when small (every real one), else read per string. */
    private record Strings(ElfSource src, Section table, ByteBuffer bytes) {
        boolean equalsAt(long offset, byte[] nameWithNul) throws IOException {
            if (offset < 0 || offset > table.size - nameWithNul.length) {
                return false;
            }
            ByteBuffer b = bytes != null ? bytes : src.read(table.offset + offset, nameWithNul.length);
            int base = bytes != null ? (int) offset : 0;
            for (int i = 0; i < nameWithNul.length; i++) {
                if (b.get(base + i) != nameWithNul[i]) {
                    return false;
                }
            }
            return true;
        }

        String stringAt(long offset, String what) throws IOException, Damage {
            if (offset < 0 || offset >= table.size) {
                throw new Damage(new ElfDamage.Malformed(what + " points to byte " + Long.toUnsignedString(offset)
                        + " of a string table of " + table.size + " bytes"));
            }
            int length = (int) Math.min(MAX_NAME, table.size - offset);
            ByteBuffer b = bytes != null ? bytes.slice((int) offset, length) : src.read(table.offset + offset, length);
            for (int i = 0; i < length; i++) {
                if (b.get(i) == 0) {
                    byte[] name = new byte[i];
                    b.get(0, name);
                    return new String(name, StandardCharsets.UTF_8);
                }
            }
            throw new Damage(new ElfDamage.Malformed(
                    what + " at byte " + offset + " of its string table has no end" + " within " + length + " bytes"));
        }
    }

    /** Ends the reading at the first damage; never leaves this class. */
    private static final class Damage extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient ElfDamage damage;

        Damage(ElfDamage damage) {
            super(null, null, false, false);
            this.damage = damage;
        }
    }
}
