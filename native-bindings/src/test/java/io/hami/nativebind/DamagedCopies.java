package io.hami.nativebind;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Damaged copies of a built mock library, as a broken driver install leaves them: cut short, empty, overwritten,
 * built for another machine, or missing a function. Each writes a new file and leaves the original alone.
 */
public final class DamagedCopies {
    /** What issue 26 saw: a library cut to 20 kB made the loader fault (SIGBUS) and the JVM exit with 134. */
    public static final int TRUNCATED_SIZE = 20 * 1024;

    private DamagedCopies() {}

    public static byte[] bytes(Path library) {
        try {
            return Files.readAllBytes(library);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Path write(Path target, byte[] bytes) {
        try {
            Files.createDirectories(target.getParent());
            return Files.write(target, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] truncated(byte[] library, int size) {
        return Arrays.copyOf(library, size);
    }

    /** As many bytes as the library, none of them ELF. */
    public static byte[] garbage(byte[] library) {
        byte[] noise = new byte[library.length];
        new java.util.Random(26).nextBytes(noise);
        noise[0] = 'g'; // never the ELF magic by chance
        return noise;
    }

    /** The library with {@code e_machine} (offset 18) set to {@code machine}. */
    public static byte[] withMachine(byte[] library, int machine) {
        byte[] copy = library.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putShort(18, (short) machine);
        return copy;
    }

    /**
     * The library with every {@code name} followed by NUL renamed (its last character changed), so that no symbol
     * of that name is left in its dynamic symbol table, as in a library that lacks the function.
     */
    public static byte[] withoutSymbol(byte[] library, String name) {
        byte[] copy = library.clone();
        byte[] needle = (name + '\0').getBytes(StandardCharsets.US_ASCII);
        int renamed = 0;
        for (int i = 0; i + needle.length <= copy.length; i++) {
            if (Arrays.equals(copy, i, i + needle.length, needle, 0, needle.length) && (i == 0 || copy[i - 1] == 0)) {
                copy[i + needle.length - 2] = (byte) '#';
                renamed++;
            }
        }
        if (renamed == 0) {
            throw new IllegalArgumentException(name + " is not in the library");
        }
        return copy;
    }
}
