package io.hami.lab.kubescheduler;

import java.time.Duration;

/** A retry backoff that doubles from {@code initial} up to {@code max}. */
record Backoff(Duration initial, Duration max) {
    /** kube-scheduler's pod backoff: 1 s after the first failed attempt, doubling up to 10 s. */
    static final Backoff KUBE_SCHEDULER = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(10));
    /** The lab's retry of a bind that met node-lock contention (see {@link SimulatedScheduler}). */
    static final Backoff LOCK_CONTENTION = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1));

    /** The wait after {@code attempts} failed attempts (at least one). */
    Duration after(int attempts) {
        Duration d = initial;
        for (int i = 1; i < attempts && d.compareTo(max) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(max) > 0 ? max : d;
    }
}
