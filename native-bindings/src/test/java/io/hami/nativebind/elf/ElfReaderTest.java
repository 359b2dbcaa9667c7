package io.hami.nativebind.elf;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.nativebind.DamagedCopies;
import io.hami.nativebind.MockLibrary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The ELF check on the built mock libraries and on damaged copies of them, in memory. */
class ElfReaderTest {
    private static final byte[] NVML =
            DamagedCopies.bytes(MockLibrary.builtDir().resolve("nvidia/libnvidia-ml.so.1"));
    private static final ElfReader.Expected X86_64_INIT =
            new ElfReader.Expected(OptionalInt.of(ElfMachine.X86_64), List.of("nvmlInit_v2"));

    private static ElfVerdict inspect(byte[] bytes, ElfReader.Expected expected) throws IOException {
        return ElfReader.inspect(ElfSource.of(bytes), expected);
    }

    private static ElfDamage damage(byte[] bytes) throws IOException {
        return damage(bytes, X86_64_INIT);
    }

    private static ElfDamage damage(byte[] bytes, ElfReader.Expected expected) throws IOException {
        ElfVerdict verdict = inspect(bytes, expected);
        assertThat(verdict).isInstanceOf(ElfVerdict.Damaged.class);
        return ((ElfVerdict.Damaged) verdict).damage();
    }

    private static ByteBuffer le(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void everyBuiltMockIsASoundLibraryWithItsSoname() throws IOException {
        record Built(String file, String soname, String symbol) {}
        for (Built b : List.of(
                new Built("nvidia/libnvidia-ml.so.1", "libnvidia-ml.so.1", "nvmlInit_v2"),
                new Built("cambricon/libcndev.so", "libcndev.so", "cndevInit"),
                new Built("mthreads/libmtml.so.2", "libmtml.so.2", "mtmlLibraryInit"),
                new Built("hygon/librocm_smi64.so.2", "librocm_smi64.so.2", "rsmi_init"),
                new Built("hygon/libhydmi.so.1", "libhydmi.so.1", "dmiGetDeviceCount"))) {
            byte[] bytes = DamagedCopies.bytes(MockLibrary.builtDir().resolve(b.file));
            ElfVerdict verdict = inspect(bytes, new ElfReader.Expected(ElfMachine.host(), List.of(b.symbol)));
            assertThat(verdict).as(b.file).isInstanceOfSatisfying(ElfVerdict.Sound.class, sound -> {
                assertThat(sound.soname()).contains(b.soname);
                assertThat(sound.fileSize()).isEqualTo(bytes.length);
                assertThat(sound.dynamicSymbols().getAsInt()).isGreaterThan(5);
            });
        }
    }

    @Test
    void aLibraryCutTo20kBIsTruncatedAtTheFirstSegmentPastTheEnd() throws IOException {
        byte[] cut = DamagedCopies.truncated(NVML, DamagedCopies.TRUNCATED_SIZE);
        ElfDamage damage = damage(cut);
        // The first PT_LOAD whose file range passes 20,480, read here independently of the reader.
        ByteBuffer b = le(NVML);
        long phoff = b.getLong(32);
        int expectedIndex = -1;
        long expectedEnd = 0;
        for (int i = 0; i < Short.toUnsignedInt(b.getShort(56)); i++) {
            int at = (int) phoff + i * 56;
            long end = b.getLong(at + 8) + b.getLong(at + 32);
            if (b.getInt(at) == 1 && end > cut.length) {
                expectedIndex = i;
                expectedEnd = end;
                break;
            }
        }
        assertThat(expectedIndex)
                .as("the mock is larger than 20 kB in its segments")
                .isNotNegative();
        assertThat(damage).isEqualTo(new ElfDamage.Truncated("segment " + expectedIndex, expectedEnd, 20_480));
        assertThat(damage.describe())
                .matches("is truncated: segment \\d+ ends at byte \\d{2},\\d{3} but the file has 20,480 bytes");
    }

    @Test
    void aLibraryLackingOnlyItsSectionHeadersAtTheEndIsTruncatedThere() throws IOException {
        byte[] cut = DamagedCopies.truncated(NVML, NVML.length - 100);
        ByteBuffer b = le(NVML);
        long tableEnd = b.getLong(40) + 64L * Short.toUnsignedInt(b.getShort(60));
        assertThat(damage(cut))
                .isEqualTo(new ElfDamage.Truncated("the section header table", tableEnd, NVML.length - 100));
    }

    @Test
    void emptyGarbageAndShortFilesAreNamedForWhatTheyAre() throws IOException {
        assertThat(damage(new byte[0])).isEqualTo(new ElfDamage.Empty());
        assertThat(damage(new byte[0]).describe()).isEqualTo("is empty (0 bytes)");
        ElfDamage garbage = damage(DamagedCopies.garbage(NVML));
        assertThat(garbage).isInstanceOf(ElfDamage.NotElf.class);
        assertThat(garbage.describe())
                .matches("is not an ELF file: it starts with 67( [0-9a-f]{2}){7}, not 7f 45 4c 46");
        assertThat(damage("INPUT(-lc)\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                        .describe())
                .isEqualTo("is not an ELF file: it starts with 49 4e 50 55 54 28 2d 6c, not 7f 45 4c 46");
        assertThat(damage(DamagedCopies.truncated(NVML, 3))).isEqualTo(new ElfDamage.NotElf("7f 45 4c"));
        assertThat(damage(DamagedCopies.truncated(NVML, 10)))
                .isEqualTo(new ElfDamage.Truncated("the ELF identification", 16, 10));
        assertThat(damage(DamagedCopies.truncated(NVML, 40)))
                .isEqualTo(new ElfDamage.Truncated("the ELF header", 64, 40));
    }

    @Test
    void anotherMachineClassByteOrderOrTypeIsNamed() throws IOException {
        ElfDamage arm = damage(DamagedCopies.withMachine(NVML, ElfMachine.AARCH64));
        assertThat(arm).isEqualTo(new ElfDamage.WrongMachine(183, 62));
        assertThat(arm.describe())
                .isEqualTo("is built for aarch64 (e_machine 183), but this JVM runs on x86_64 (e_machine 62)");
        assertThat(arm.skippedBySearch()).isTrue();
        assertThat(inspect(
                        DamagedCopies.withMachine(NVML, ElfMachine.AARCH64),
                        new ElfReader.Expected(OptionalInt.of(ElfMachine.AARCH64), List.of("nvmlInit_v2"))))
                .isInstanceOf(ElfVerdict.Sound.class);

        byte[] elf32 = NVML.clone();
        elf32[4] = 1;
        assertThat(damage(elf32).describe())
                .isEqualTo("is a 32-bit ELF file (EI_CLASS 1); this JVM loads only 64-bit (ELFCLASS64) libraries");
        byte[] bigEndian = NVML.clone();
        bigEndian[5] = 2;
        assertThat(damage(bigEndian).describe())
                .isEqualTo("is a big-endian ELF file (EI_DATA 2); this JVM loads only little-endian libraries");
        byte[] executable = NVML.clone();
        le(executable).putShort(16, (short) 2);
        ElfDamage exec = damage(executable);
        assertThat(exec.describe())
                .isEqualTo("is not a shared library: its e_type is 2 (an executable), not 3 (ET_DYN)");
        assertThat(exec.skippedBySearch()).isFalse();
    }

    @Test
    void aMissingRequiredFunctionIsNamedAndOthersAreNotRequired() throws IOException {
        byte[] withoutInit = DamagedCopies.withoutSymbol(NVML, "nvmlInit_v2");
        ElfDamage damage = damage(
                withoutInit,
                new ElfReader.Expected(OptionalInt.of(62), List.of("nvmlInit_v2", "nvmlShutdown", "nvmlNoSuchCall")));
        assertThat(damage).isEqualTo(new ElfDamage.MissingSymbols(List.of("nvmlInit_v2", "nvmlNoSuchCall")));
        assertThat(damage.describe())
                .isEqualTo("lacks the required functions nvmlInit_v2, nvmlNoSuchCall in its dynamic symbol table"
                        + " (not this vendor's library, or a driver too old for it)");
        assertThat(inspect(withoutInit, new ElfReader.Expected(OptionalInt.empty(), List.of())))
                .isInstanceOf(ElfVerdict.Sound.class);
    }

    @Test
    void theLegacyMockLacksTheFunctionItsOlderDriverLacks() throws IOException {
        byte[] legacy = DamagedCopies.bytes(MockLibrary.builtDir().resolve("legacy/nvidia/libnvidia-ml.so.1"));
        assertThat(damage(legacy, new ElfReader.Expected(OptionalInt.empty(), List.of("nvmlDeviceGetMemoryInfo_v2"))))
                .isEqualTo(new ElfDamage.MissingSymbols(List.of("nvmlDeviceGetMemoryInfo_v2")));
        assertThat(inspect(legacy, X86_64_INIT)).isInstanceOf(ElfVerdict.Sound.class);
    }

    @Test
    void inconsistentHeadersAreMalformedOrTruncatedNeverAnException() throws IOException {
        byte[] entries = NVML.clone();
        le(entries).putShort(54, (short) 32);
        assertThat(damage(entries).describe())
                .isEqualTo("is malformed: its program header entries are 32 bytes, not 56");

        byte[] farTable = NVML.clone();
        le(farTable).putLong(32, -8); // e_phoff 0xfffffffffffffff8
        assertThat(damage(farTable).describe())
                .isEqualTo("is truncated: the program header table ends beyond byte 9,223,372,036,854,775,807"
                        + " but the file has " + String.format(java.util.Locale.ROOT, "%,d", NVML.length) + " bytes");

        byte[] noHeaders = NVML.clone();
        le(noHeaders).putShort(56, (short) 0);
        assertThat(damage(noHeaders).describe())
                .isEqualTo("is malformed: it has no program headers, so nothing to load");
    }

    @Test
    void withoutSectionHeadersTheLibraryLoadsAndItsSymbolsAreNotChecked() throws IOException {
        byte[] stripped = NVML.clone();
        le(stripped).putLong(40, 0).putShort(60, (short) 0);
        assertThat(inspect(stripped, X86_64_INIT))
                .isEqualTo(new ElfVerdict.Sound(NVML.length, 62, Optional.empty(), OptionalInt.empty()));
    }
}
