package io.hami.scheduler.fit;

import io.hami.protocol.fit.Reasons;
import java.util.HashMap;

/**
 * The fit walk's denial for a node that does not fit (text {@code "2/8 CardInsufficientMemory, 6/8 CardNotHealth"}),
 * shared between nodes: it depends only on how many devices failed with each reason and how many passed, so the few
 * distinct denials of a cluster, and their texts, are built once and then reused (a node that does not fit costs no
 * allocation).
 */
final class ReasonTexts {
    /** Bits per count in a packed key; counts (and so a node's devices) up to {@link #MAX_PACKED} fit. */
    private static final int FIELD_BITS = 6;
    /** The most devices whose counts {@link #packedAdd} can hold without one field carrying into the next. */
    static final int MAX_PACKED = (1 << FIELD_BITS) - 1;
    /** Slots of the direct-mapped cache; a clash replaces the older denial, which is then built again when asked. */
    private static final int SLOTS = 512;

    private final String[] reasons;
    private final String passedReason;
    /** Immutable entries written and read without a lock: a stale or missing one only means building the text. */
    private final Entry[] cache = new Entry[SLOTS];

    private record Entry(long key, Denial denial) {}

    /**
     * @param reasons the per-device reasons, by the index {@link #packedAdd} is given
     * @param passedReason the reason counted for devices that passed when too few did
     */
    ReasonTexts(String[] reasons, String passedReason) {
        if ((reasons.length + 1) * FIELD_BITS > Long.SIZE) {
            throw new IllegalArgumentException("too many reasons to pack: " + reasons.length);
        }
        this.reasons = reasons.clone();
        this.passedReason = passedReason;
    }

    /** {@code packed} with one more device counted for reason {@code index}, or for passing when it is -1. */
    long packedAdd(long packed, int index) {
        int field = index < 0 ? reasons.length : index;
        return packed + (1L << (field * FIELD_BITS));
    }

    /** The denial of packed counts (at most {@link #MAX_PACKED} devices in all), from the cache when it is there. */
    Denial of(long packed) {
        int slot = (int) ((packed * 0x9E3779B97F4A7C15L) >>> (Long.SIZE - Integer.numberOfTrailingZeros(SLOTS)));
        Entry e = cache[slot];
        if (e != null && e.key() == packed) {
            return e.denial();
        }
        var counts = new int[reasons.length];
        int n = 0;
        for (int f = 0; f < reasons.length; f++) {
            counts[f] = field(packed, f);
            n += counts[f];
        }
        int passed = field(packed, reasons.length);
        Denial denial = denial(counts, passed, n + passed);
        cache[slot] = new Entry(packed, denial);
        return denial;
    }

    private static int field(long packed, int f) {
        return (int) (packed >>> (f * FIELD_BITS)) & MAX_PACKED;
    }

    /**
     * The denial itself: per reason with a count, and the devices that passed as {@code passedReason}, of {@code n}.
     * Its text is {@link Reasons#genReason}'s, so the one definition of the text serves.
     */
    Denial denial(int[] counts, int passed, int n) {
        var byReason = new HashMap<String, Integer>();
        for (int f = 0; f < reasons.length; f++) {
            if (counts[f] > 0) {
                byReason.put(reasons[f], counts[f]);
            }
        }
        if (passed > 0) {
            byReason.put(passedReason, passed);
        }
        return Denial.devices(byReason, n);
    }
}
