package io.hami.nativebind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NativeLibraryTest {

    @Test
    void aSonameTheLinkerCannotFindIsALibraryNotFoundNamingIt() {
        assertThatThrownBy(() -> NativeLibrary.open("NVML", "libhami-absent.so.1"))
                .isInstanceOfSatisfying(LibraryNotFoundException.class, e -> {
                    assertThat(e.vendor()).isEqualTo("NVML");
                    assertThat(e.location()).isEqualTo("libhami-absent.so.1");
                    assertThat(e).hasMessageStartingWith("NVML library libhami-absent.so.1 not found: ");
                });
    }

    @Test
    void aSymbolIsLookedUpOnlyWhenUsedAndItsAbsenceNamesSymbolAndLibrary() {
        NativeLibrary libc = NativeLibrary.open("libc", "libc.so.6");
        NativeLibrary.Symbol absent = libc.symbol("hami_no_such_function");
        assertThat(libc.symbol("strlen").address().address()).isNotZero();
        assertThatThrownBy(absent::address).isInstanceOfSatisfying(SymbolNotFoundException.class, e -> {
            assertThat(e.symbol()).isEqualTo("hami_no_such_function");
            assertThat(e)
                    .hasMessage("function hami_no_such_function not found in libc library libc.so.6"
                            + " (the driver may be too old for it)");
        });
    }

    @Test
    void stringsAreDecodedWithinTheirBuffer() {
        try (Arena arena = Arena.ofConfined()) {
            var unterminated = arena.allocate(4);
            unterminated.copyFrom(MemorySegment.ofArray("abcd".getBytes(StandardCharsets.UTF_8)));
            assertThat(NativeStrings.decode(unterminated)).isEqualTo("abcd");
            assertThat(NativeStrings.decode(arena.allocateFrom("ab\0cd"))).isEqualTo("ab");
            assertThat(NativeStrings.decodePointer(arena.allocateFrom("Timeout"), "x"))
                    .isEqualTo("Timeout");
            assertThat(NativeStrings.decodePointer(MemorySegment.NULL, "none")).isEqualTo("none");
        }
    }
}
