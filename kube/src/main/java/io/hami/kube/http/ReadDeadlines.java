package io.hami.kube.http;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The executor of one JDK HTTP server, which puts a deadline on reading each request.
 *
 * <p>Why here: the JDK server's dispatcher thread only accepts and waits for a connection's first byte; the request
 * line, the headers (and a TLS handshake) are read by the exchange task it hands to this executor, and the body by the
 * handler after it, both with blocking reads and no timeout. Its own {@code sun.net.httpserver.maxReqTime} is one
 * JVM-wide value fixed by whichever server starts first (in tests, often the embedded API server), for headers and body
 * together. So each exchange runs on its own virtual thread (a slow client parks a virtual thread, never one of a
 * bounded pool that valid calls would queue behind), and a timer interrupts the thread when a phase overruns: a
 * blocking channel read that is interrupted closes its channel, which ends the request and frees the connection.
 * {@link BodyLimit}, first on every context, moves a request from its header deadline to its body deadline and ends
 * the body deadline once the body is read; the handler then runs without one.
 */
final class ReadDeadlines implements Executor, AutoCloseable {
    /** The read of the exchange running on this thread. */
    static final ScopedValue<Reading> CURRENT = ScopedValue.newInstance();

    private final RequestLimits limits;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledThreadPoolExecutor timer;

    ReadDeadlines(RequestLimits limits, String name) {
        this.limits = limits;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            var t = new Thread(r, name + "-read-deadlines");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true); // most deadlines are cancelled: keep the queue to the live ones
    }

    RequestLimits limits() {
        return limits;
    }

    /** Runs one exchange; its headers must be read within the header timeout from now (its first byte has arrived). */
    @Override
    public void execute(Runnable exchange) {
        threads.execute(() -> {
            var reading = new Reading(Thread.currentThread());
            reading.arm(Phase.HEADERS, limits.headerTimeout());
            try {
                ScopedValue.where(CURRENT, reading).run(exchange);
            } finally {
                reading.finish();
            }
        });
    }

    @Override
    public void close() {
        timer.shutdownNow();
        threads.shutdownNow();
    }

    enum Phase {
        HEADERS,
        BODY
    }

    /** The read of one request: which phase it is in and whether that phase overran its deadline. */
    final class Reading {
        private final Thread thread;
        private ScheduledFuture<?> deadline;
        private int generation;
        private Phase expired;

        Reading(Thread thread) {
            this.thread = thread;
        }

        /**
         * The headers are in: the body has the body timeout from now. False when the headers already overran; the
         * interrupt is then cleared so the refusal can still be written if the channel is open.
         */
        synchronized boolean startBody() {
            if (expired != null) {
                Thread.interrupted();
                return false;
            }
            arm(Phase.BODY, limits.bodyTimeout());
            return true;
        }

        /**
         * Ends the deadline (on the reading thread itself). True when no phase overran; false when one did, whose
         * interrupt is then cleared here so it cannot reach the handler's later work.
         */
        synchronized boolean finish() {
            cancel();
            generation++;
            if (expired != null) {
                Thread.interrupted(); // set under this lock in expire(), so it is set by now
                return false;
            }
            return true;
        }

        /** The phase that overran, or null. */
        synchronized Phase expired() {
            return expired;
        }

        private synchronized void arm(Phase phase, Duration timeout) {
            cancel();
            int armed = ++generation;
            deadline = timer.schedule(() -> expire(armed, phase), timeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        private synchronized void expire(int armed, Phase phase) {
            if (armed == generation && expired == null) {
                expired = phase;
                thread.interrupt();
            }
        }

        private void cancel() {
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        }
    }
}
