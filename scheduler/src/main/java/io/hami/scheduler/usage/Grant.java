package io.hami.scheduler.usage;

/**
 * What one pod (or the sum of several) holds of one device. Sums are longs so that no number of int32 grants
 * can wrap around to a negative total (which would read as free capacity).
 *
 * @param slots number of grants counted against the device's split count
 * @param mem   memory, MiB
 * @param cores cores
 */
public record Grant(long slots, long mem, long cores) {
    public static final Grant ZERO = new Grant(0, 0, 0);

    public Grant plus(Grant o) {
        return new Grant(slots + o.slots, mem + o.mem, cores + o.cores);
    }

    public Grant minus(Grant o) {
        return new Grant(slots - o.slots, mem - o.mem, cores - o.cores);
    }

    public boolean isZero() {
        return slots == 0 && mem == 0 && cores == 0;
    }
}
