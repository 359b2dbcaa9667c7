package io.hami.protocol.fit;

/**
 * What a pod may still take of one vendor's devices under its namespace's ResourceQuota (docs/upstream.md#quota,
 * upstream's {@code FitQuota}): the limit less what the namespace's other pods hold. {@link #UNLIMITED} when no quota names
 * the vendor's memory or core resource.
 *
 * @param memMiB memory, MiB
 * @param cores  cores, percent of a device
 */
public record QuotaRoom(long memMiB, long cores) {
    public static final QuotaRoom UNLIMITED = new QuotaRoom(Long.MAX_VALUE, Long.MAX_VALUE);

    /** Whether {@code memMiB} and {@code cores} in all stay within the room. */
    public boolean admits(long memMiB, long cores) {
        return memMiB <= this.memMiB && cores <= this.cores;
    }

    /** The room left once {@code memMiB} and {@code cores} are taken; an unlimited dimension stays unlimited. */
    public QuotaRoom minus(long memMiB, long cores) {
        return new QuotaRoom(
                this.memMiB == Long.MAX_VALUE ? Long.MAX_VALUE : this.memMiB - memMiB,
                this.cores == Long.MAX_VALUE ? Long.MAX_VALUE : this.cores - cores);
    }

    public boolean isUnlimited() {
        return memMiB == Long.MAX_VALUE && cores == Long.MAX_VALUE;
    }
}
