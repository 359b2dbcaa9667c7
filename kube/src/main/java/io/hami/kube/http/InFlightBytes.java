package io.hami.kube.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Request-body bytes one server holds over all its requests at once, up to a limit: what bounds the memory of many
 * concurrent bodies, each already bounded by its endpoint's limit. Bytes are taken as they arrive, not as declared, so
 * clients that trickle or stop hold almost none of it and cannot keep valid calls out.
 */
final class InFlightBytes {
    private final long limit;
    private final AtomicLong held = new AtomicLong();

    InFlightBytes(long limit) {
        this.limit = limit;
    }

    long limit() {
        return limit;
    }

    /** Takes {@code n} bytes if that stays within the limit. */
    boolean tryTake(long n) {
        long now;
        do {
            now = held.get();
            if (now + n > limit) {
                return false;
            }
        } while (!held.compareAndSet(now, now + n));
        return true;
    }

    void give(long n) {
        held.addAndGet(-n);
    }

    long held() {
        return held.get();
    }
}
