package io.hami.nativebind.elf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hami.nativebind.DamagedCopies;
import io.hami.nativebind.MockLibrary;
import java.io.IOException;
import java.util.List;
import java.util.OptionalInt;

/**
 * Any bytes give the ELF check a verdict, never an unchecked exception: it runs on whatever file a node has where its
 * vendor library should be. Seeds in {@code ElfReaderFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes further.
 */
class ElfReaderFuzzTest {
    private static final byte[] NVML =
            DamagedCopies.bytes(MockLibrary.builtDir().resolve("nvidia/libnvidia-ml.so.1"));
    private static final ElfReader.Expected EXPECTED =
            new ElfReader.Expected(OptionalInt.of(ElfMachine.X86_64), List.of("nvmlInit_v2", "nvmlShutdown"));

    @FuzzTest
    void anyBytesGiveAVerdict(FuzzedDataProvider data) throws IOException {
        byte[] bytes = data.consumeRemainingAsBytes();
        ElfVerdict verdict = ElfReader.inspect(ElfSource.of(bytes), EXPECTED);
        assertValid(verdict, bytes.length);
    }

    /**
     * The real library with bytes overwritten where the fuzzer says and cut where it says: reaches the tables behind
     * the header far more often than random bytes do.
     */
    @FuzzTest
    void aDamagedLibraryGivesAVerdict(FuzzedDataProvider data) throws IOException {
        byte[] bytes = NVML.clone();
        int writes = data.consumeInt(0, 16);
        for (int i = 0; i < writes; i++) {
            // Mostly the headers and tables in the first pages, sometimes anywhere.
            int at = data.consumeBoolean() ? data.consumeInt(0, 4095) : data.consumeInt(0, bytes.length - 1);
            bytes[at] = data.consumeByte();
        }
        int length = data.consumeBoolean() ? bytes.length : data.consumeInt(0, bytes.length);
        byte[] cut = DamagedCopies.truncated(bytes, length);
        assertValid(ElfReader.inspect(ElfSource.of(cut), EXPECTED), length);
    }

    private static void assertValid(ElfVerdict verdict, int length) {
        switch (verdict) {
            case ElfVerdict.Sound sound -> {
                assertThat(sound.fileSize()).isEqualTo(length);
                assertThat(sound.machine()).isEqualTo(ElfMachine.X86_64);
            }
            case ElfVerdict.Damaged damaged ->
                assertThat(damaged.damage().describe()).isNotBlank();
        }
    }
}
