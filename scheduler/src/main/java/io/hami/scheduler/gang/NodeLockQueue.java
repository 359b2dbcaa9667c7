package io.hami.scheduler.gang;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Gang members waiting for a node's lock, one fair line per node, in arrival order. Only the first in line tries the
 * lock: when it is told the lock was released (the node informer saw the annotation change), when it has just become
 * first, or after a fallback poll with jitter (a release the informer has not delivered). The others wait their turn
 * instead of all trying at once on every release (upstream's fixed 100 ms retry was such a herd). State is per node and
 * exists only while someone waits there; there is no lock across nodes.
 */
public final class NodeLockQueue {
    /** The fallback poll by default: a lock held for an allocation lasts about this long or more. */
    public static final Duration DEFAULT_POLL = Duration.ofMillis(500);

    private final ConcurrentHashMap<String, Line> lines = new ConcurrentHashMap<>();
    private final long pollNanos;

    /** Polls every {@link #DEFAULT_POLL}, jittered. */
    public NodeLockQueue() {
        this(DEFAULT_POLL);
    }

    /** The first in line tries again after {@code poll} (jittered between half and one and a half of it) unwoken. */
    public NodeLockQueue(Duration poll) {
        if (poll.isNegative() || poll.isZero()) {
            throw new IllegalArgumentException("the fallback poll must be positive, got " + poll);
        }
        this.pollNanos = poll.toNanos();
    }

    /** One node's line; its monitor guards the queue and the release count. */
    private static final class Line {
        final ReentrantLock lock = new ReentrantLock();
        final Condition changed = lock.newCondition();
        final ArrayDeque<Ticket> queue = new ArrayDeque<>();
        /** Releases seen on this node since the line formed. */
        long releases;
    }

    /** One waiter's place in its node's line. */
    public static final class Ticket {
        private final String node;
        private final Line line;
        private boolean tried;
        private long seenReleases;
        private long nextPollAt;

        private Ticket(String node, Line line) {
            this.node = node;
            this.line = line;
        }

        public String node() {
            return node;
        }
    }

    /** Joins the end of {@code node}'s line; {@link #leave} must follow, whatever happens. */
    public Ticket join(String node) {
        Objects.requireNonNull(node, "node");
        Ticket[] joined = new Ticket[1];
        lines.compute(node, (k, line) -> {
            Line l = line == null ? new Line() : line;
            l.lock.lock();
            try {
                joined[0] = new Ticket(node, l);
                l.queue.addLast(joined[0]);
            } finally {
                l.lock.unlock();
            }
            return l;
        });
        return joined[0];
    }

    /** Leaves the line (the lock taken, the deadline passed, or the bind gave up); the next in line is told. */
    public void leave(Ticket ticket) {
        lines.compute(ticket.node, (k, line) -> {
            if (line == null) {
                return null;
            }
            line.lock.lock();
            try {
                line.queue.remove(ticket);
                line.changed.signalAll();
                return line.queue.isEmpty() ? null : line;
            } finally {
                line.lock.unlock();
            }
        });
    }

    /** Whether anyone waits in {@code node}'s line: a newcomer then queues behind them instead of trying first. */
    public boolean waiting(String node) {
        return lines.containsKey(node);
    }

    /** How many wait in {@code node}'s line. */
    public int size(String node) {
        Line line = lines.get(node);
        if (line == null) {
            return 0;
        }
        line.lock.lock();
        try {
            return line.queue.size();
        } finally {
            line.lock.unlock();
        }
    }

    /** The lock of {@code node} was released or changed hands: the first in line tries again. */
    public void released(String node) {
        Line line = lines.get(node);
        if (line == null) {
            return;
        }
        line.lock.lock();
        try {
            line.releases++;
            line.changed.signalAll();
        } finally {
            line.lock.unlock();
        }
    }

    /**
     * Blocks until it is {@code ticket}'s turn to try the lock: it is first in line and has just become so, or a
     * release came since its last try, or its fallback poll is due. Returns false when {@code deadlineNanos} (of
     * {@link System#nanoTime}) passes first.
     */
    public boolean awaitTurn(Ticket ticket, long deadlineNanos) throws InterruptedException {
        Line line = ticket.line;
        line.lock.lock();
        try {
            while (true) {
                long now = System.nanoTime();
                long left = deadlineNanos - now;
                if (left <= 0) {
                    return false;
                }
                if (line.queue.peekFirst() != ticket) {
                    line.changed.awaitNanos(left);
                    continue;
                }
                if (!ticket.tried || line.releases != ticket.seenReleases || now - ticket.nextPollAt >= 0) {
                    ticket.tried = true;
                    ticket.seenReleases = line.releases;
                    ticket.nextPollAt = now + jitteredPoll();
                    return true;
                }
                line.changed.awaitNanos(Math.min(left, ticket.nextPollAt - now));
            }
        } finally {
            line.lock.unlock();
        }
    }

    /** Between half and one and a half of the poll, so waiters on many nodes do not poll in step. */
    private long jitteredPoll() {
        return pollNanos / 2 + ThreadLocalRandom.current().nextLong(pollNanos + 1);
    }

    /** {@code d} in nanoseconds from now, as {@link #awaitTurn} takes a deadline. */
    public static long deadline(Duration d) {
        return System.nanoTime() + TimeUnit.NANOSECONDS.convert(d);
    }
}
