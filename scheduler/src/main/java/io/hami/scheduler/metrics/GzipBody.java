package io.hami.scheduler.metrics;

import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * One gzip member (RFC 1952) built from independent raw deflate segments, as pigz joins its blocks: each segment
 * is compressed on its own and ends with a sync flush (on a byte boundary, not final), so segments compressed
 * long ago can be copied in next to new ones. The member ends with an empty final block, the CRC-32 of all the
 * uncompressed bytes and their length. Any gzip reader reads it as one ordinary stream.
 */
final class GzipBody {
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
    /** An empty final block with fixed Huffman codes: BFINAL 1, BTYPE 01, then the end-of-block code 0000000. */
    private static final byte[] LAST_BLOCK = {3, 0};

    private final ByteArrayOutputStream out;
    private final CRC32 crc = new CRC32();
    private final Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
    private long length;

    GzipBody(int expectedSize) {
        out = new ByteArrayOutputStream(expectedSize);
        out.writeBytes(HEADER);
    }

    /** Appends {@code text}, compressing it here. */
    void write(byte[] text) {
        writeDeflated(deflate(deflater, text, text.length));
        count(text);
    }

    /**
     * Appends a segment made by {@link #deflate}; the text it holds must be passed to {@link #count}, in order,
     * before the next segment.
     */
    void writeDeflated(byte[] deflated) {
        out.writeBytes(deflated);
    }

    /** Adds {@code text}, held by the segment last appended, to the member's CRC and length. */
    void count(byte[] text) {
        crc.update(text);
        length += text.length;
    }

    /** Ends the member and returns it; the body takes no more writes. */
    byte[] finish() {
        deflater.end();
        out.writeBytes(LAST_BLOCK);
        int c = (int) crc.getValue();
        int n = (int) length; // ISIZE is the length modulo 2^32
        out.writeBytes(new byte[] {
            (byte) c,
            (byte) (c >>> 8),
            (byte) (c >>> 16),
            (byte) (c >>> 24),
            (byte) n,
            (byte) (n >>> 8),
            (byte) (n >>> 16),
            (byte) (n >>> 24)
        });
        return out.toByteArray();
    }

    /**
     * The first {@code length} bytes of {@code text} as a raw deflate segment that ends on a byte boundary and is
     * not final; empty for no text.
     */
    static byte[] deflate(Deflater deflater, byte[] text, int length) {
        if (length == 0) {
            return new byte[0];
        }
        deflater.reset();
        deflater.setInput(text, 0, length);
        var out = new ByteArrayOutputStream(length / 4 + 64);
        var buf = new byte[Math.max(64, length / 2)];
        int n;
        // A sync flush fills the buffer when the output does not fit: call again until it does not.
        do {
            n = deflater.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
            out.write(buf, 0, n);
        } while (n == buf.length);
        return out.toByteArray();
    }
}
