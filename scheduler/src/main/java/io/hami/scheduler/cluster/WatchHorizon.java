package io.hami.scheduler.cluster;

import java.time.Duration;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How far an informer has handed every change over: the highest resourceVersion up to which each change of the
 * watched objects has been through the handler. A watch delivers changes in resourceVersion order, so each watched
 * change moves the horizon to its own version; a list hands its objects over in any order, so only its end moves it
 * (to the list's version). A resourceVersion that is not a number never moves it (the API server's are numbers, but
 * Kubernetes calls them opaque: a caller then learns nothing and takes its slower path).
 */
public final class WatchHorizon {
    /** {@link System#nanoTime}, or a test's clock: what the lag is measured on (waits still take real time). */
    private final LongSupplier nanoTime;

    private long upTo = -1;
    private boolean listing = true;
    /** Waiters by the version they wait for: a change wakes only those it lets through, not every waiting bind. */
    private final PriorityQueue<Waiter> waiters = new PriorityQueue<>(Comparator.comparingLong(Waiter::target));
    /** How long waiters have recently waited for their version (moving average, ns), those that gave up included. */
    private long lagNanos;

    private record Waiter(long target, long since, CountDownLatch reached) {}

    public WatchHorizon() {
        this(System::nanoTime);
    }

    WatchHorizon(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    synchronized void listStarted() {
        listing = true;
    }

    /** The list at {@code resourceVersion} has been handed over whole. */
    synchronized void listed(String resourceVersion) {
        listing = false;
        advance(number(resourceVersion));
    }

    /** One change, at {@code resourceVersion}, has been through the handler. */
    synchronized void handled(String resourceVersion) {
        if (!listing) {
            advance(number(resourceVersion));
        }
    }

    /**
     * Waits up to {@code max} until every change up to {@code resourceVersion} has been handed over; false when that
     * did not happen in time, the version is not a number, or the thread was interrupted. While the informer lags by
     * more than {@code max} (a burst of changes it is still working through), it answers false at once: the caller's
     * slower path is then the quicker one. Every call still measures the lag, so waiting resumes once it shrinks.
     */
    public boolean reached(String resourceVersion, Duration max) {
        long target = number(resourceVersion);
        if (target < 0) {
            return false;
        }
        Waiter waiter;
        synchronized (this) {
            if (upTo >= target) {
                return true;
            }
            waiter = new Waiter(target, nanoTime.getAsLong(), new CountDownLatch(1));
            waiters.add(waiter);
            if (lagNanos > max.toNanos()) {
                return false;
            }
        }
        try {
            return waiter.reached().await(max.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** How long the informer has recently taken to hand a change over to waiters for it (a moving average). */
    public synchronized Duration lag() {
        return Duration.ofNanos(lagNanos);
    }

    private void advance(long version) {
        if (version <= upTo) {
            return;
        }
        upTo = version;
        long now = nanoTime.getAsLong();
        while (!waiters.isEmpty() && waiters.peek().target() <= upTo) {
            Waiter waiter = waiters.poll();
            long waited = now - waiter.since();
            lagNanos = lagNanos == 0 ? waited : (7 * lagNanos + waited) / 8;
            waiter.reached().countDown();
        }
    }

    private static long number(String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isEmpty() || resourceVersion.length() > 18) {
            return -1;
        }
        for (int i = 0; i < resourceVersion.length(); i++) {
            if (resourceVersion.charAt(i) < '0' || resourceVersion.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(resourceVersion);
    }
}
