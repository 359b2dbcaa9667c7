package io.hami.kube.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First on every context: reads the whole request body, within the body deadline ({@link ReadDeadlines}), the
 * endpoint's size limit and the server's {@link InFlightBytes}, before the handler sees it. A declared length over the
 * limit is answered 413 before a byte is read; a chunked body is cut off with 413 at the limit; a body the budget
 * cannot hold is answered 503; a body that does not arrive in time has its connection closed. The handler reads the
 * body from memory, so a slow client never holds a handler's parser or its partly built objects.
 */
final class BodyLimit extends Filter {
    private static final Logger LOG = LoggerFactory.getLogger(BodyLimit.class);

    /** The first piece of a body; later ones double with what arrived, so the memory held is at most twice that. */
    static final int FIRST_PIECE = 8 * 1024;

    private static final int LARGEST_PIECE = 1024 * 1024;

    /**
     * Of a refused body, at most this much is read and dropped after the answer, so a client still sending it reads
     * the 413 instead of a reset; a larger declared body is not read at all.
     */
    static final long DRAIN = 16L * 1024 * 1024;

    private final String endpoint;
    private final long limit;
    private final InFlightBytes budget;
    private final BoundedReads.Refusal refusal;

    BodyLimit(String endpoint, long limit, InFlightBytes budget, BoundedReads.Refusal refusal) {
        this.endpoint = endpoint;
        this.limit = limit;
        this.budget = budget;
        this.refusal = refusal;
    }

    @Override
    public String description() {
        return "request body of " + endpoint + ": at most " + limit + " bytes, read within the body deadline";
    }

    @Override
    public void doFilter(HttpExchange ex, Chain chain) throws IOException {
        ReadDeadlines.Reading reading = ReadDeadlines.CURRENT.isBound() ? ReadDeadlines.CURRENT.get() : null;
        if (reading != null && !reading.startBody()) {
            refuse(ex, 408, "request headers not received within the header timeout", 0);
            return;
        }
        long declared = declaredLength(ex);
        Received received;
        try {
            received = declared > limit
                    ? new Received.TooLarge(declared)
                    : declared == 0 ? Received.Body.EMPTY : read(ex.getRequestBody(), declared, limit, budget);
        } catch (IOException e) {
            if (reading != null && reading.expired() != null) {
                LOG.debug(
                        "{} {}: body not received within the body timeout, connection closed",
                        ex.getRequestMethod(),
                        endpoint);
                ex.close();
                return;
            }
            throw e;
        }
        switch (received) {
            case Received.TooLarge t ->
                refuse(
                        ex,
                        413,
                        "request body " + (t.declared() >= 0 ? "of " + t.declared() + " bytes " : "") + "exceeds "
                                + limit + " bytes, the limit of " + endpoint,
                        t.declared() < 0 || t.declared() <= DRAIN ? DRAIN : 0);
            case Received.Busy b -> {
                ex.getResponseHeaders().set("Retry-After", "1");
                refuse(
                        ex,
                        503,
                        "busy: request bodies being received or handled hold " + budget.limit()
                                + " bytes, this server's limit; retry",
                        0);
            }
            case Received.Body body -> {
                try {
                    if (reading != null && !reading.finish()) {
                        ex.close(); // the deadline struck as the last byte came; its interrupt closed the channel
                        return;
                    }
                    if (!body.pieces().isEmpty()) {
                        ex.setStreams(body.stream(), null);
                    }
                    chain.doFilter(ex);
                } finally {
                    budget.give(body.held());
                }
            }
        }
    }

    /** What reading a body came to. */
    sealed interface Received {
        /** The whole body, held in pieces that count {@code held} bytes against the budget. */
        record Body(List<byte[]> pieces, int lastLength, long held) implements Received {
            /** No body: the exchange's own stream is already at its end. */
            static final Body EMPTY = new Body(List.of(), 0, 0);

            InputStream stream() {
                var streams = new ArrayList<InputStream>(pieces.size());
                for (int i = 0; i < pieces.size(); i++) {
                    byte[] p = pieces.get(i);
                    streams.add(new ByteArrayInputStream(p, 0, i == pieces.size() - 1 ? lastLength : p.length));
                }
                return streams.size() == 1
                        ? streams.getFirst()
                        : new SequenceInputStream(Collections.enumeration(streams));
            }
        }

        /** Over the limit: as declared ({@code declared} ≥ 0) or as sent in chunks ({@code declared} = -1). */
        record TooLarge(long declared) implements Received {}

        /** The budget cannot hold this body now. */
        record Busy() implements Received {}
    }

    /** The Content-Length (the JDK has refused a malformed or conflicting one), -1 when chunked, 0 when none. */
    static long declaredLength(HttpExchange ex) {
        String length = ex.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            return Long.parseLong(length.trim());
        }
        return ex.getRequestHeaders().containsKey("Transfer-Encoding") ? -1 : 0;
    }

    /**
     * Reads {@code in} to its end, at most {@code limit} bytes, taking from {@code budget} as pieces are allocated
     * (first {@link #FIRST_PIECE}, or the declared length when smaller, then as much as arrived so far), and giving
     * back what it took unless it returns the body. {@code declared}: the Content-Length, or -1.
     */
    static Received read(InputStream in, long declared, long limit, InFlightBytes budget) throws IOException {
        var pieces = new ArrayList<byte[]>();
        long size = 0;
        long held = 0;
        boolean done = false;
        try {
            byte[] piece = null;
            int at = 0;
            while (true) {
                if (piece == null || at == piece.length) {
                    // a declared body fits its first piece with room for the end-of-body read; not more is taken for
                    // it before its bytes arrive, so a client that declares much and sends little holds little
                    long first = declared >= 0 ? Math.min(FIRST_PIECE, declared + 1) : FIRST_PIECE;
                    int next = Math.clamp(Math.max(first, size), 1, LARGEST_PIECE);
                    if (!budget.tryTake(next)) {
                        return new Received.Busy();
                    }
                    held += next;
                    piece = new byte[next];
                    pieces.add(piece);
                    at = 0;
                }
                // One byte past the limit tells a body over it from one of exactly the limit.
                int n = in.read(piece, at, (int) Math.min(piece.length - at, limit + 1 - size));
                if (n < 0) {
                    done = true;
                    return new Received.Body(pieces, at, held);
                }
                at += n;
                size += n;
                if (size > limit) {
                    return new Received.TooLarge(-1);
                }
            }
        } finally {
            if (!done) {
                budget.give(held);
            }
        }
    }

    /**
     * Answers {@code status} and closes the connection; first reads and drops up to {@code drain} bytes of the body
     * (within the body deadline) so that a client still sending it can read the answer.
     */
    private void refuse(HttpExchange ex, int status, String message, long drain) throws IOException {
        try (ex) {
            ex.getResponseHeaders().set("Connection", "close");
            refusal.send(ex, status, message);
            ex.getResponseBody().flush();
            if (drain > 0) {
                ex.getRequestBody().skip(drain);
            }
        } catch (IOException e) {
            LOG.debug(
                    "{} {}: client gone before the {} answer: {}",
                    ex.getRequestMethod(),
                    endpoint,
                    status,
                    e.toString());
        }
    }
}
