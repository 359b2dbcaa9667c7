package io.hami.nativebind.elf;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * The bytes of a file as {@link ElfReader} reads them: a known size and positional reads of bounded ranges, so that
 * only the headers and tables the check needs are ever in memory, never a whole (possibly huge) library.
 */
public interface ElfSource {

    /** The number of bytes. */
    long size() throws IOException;

    /**
     * Exactly {@code length} bytes from {@code offset}, little-endian; the caller keeps {@code offset + length}
     * within {@link #size()}.
     *
     * @throws IOException also when the bytes are no longer there (the file shrank while it was read)
     */
    ByteBuffer read(long offset, int length) throws IOException;

    /**
     * Reads {@code channel} with positional reads, never a mapping: a mapping of a file that shrinks under it
     * faults (SIGBUS), which is exactly what this check exists to avoid.
     */
    static ElfSource of(FileChannel channel) {
        return new ElfSource() {
            @Override
            public long size() throws IOException {
                return channel.size();
            }

            @Override
            public ByteBuffer read(long offset, int length) throws IOException {
                ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer, offset + buffer.position()) < 0) {
                        throw new EOFException("the file ended at byte " + (offset + buffer.position())
                                + " while it was read (it changed)");
                    }
                }
                return buffer.flip();
            }
        };
    }

    /** The bytes of an array (tests and the fuzz target). */
    static ElfSource of(byte[] bytes) {
        return new ElfSource() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public ByteBuffer read(long offset, int length) {
                return ByteBuffer.wrap(bytes, Math.toIntExact(offset), length)
                        .slice()
                        .order(ByteOrder.LITTLE_ENDIAN);
            }
        };
    }
}
