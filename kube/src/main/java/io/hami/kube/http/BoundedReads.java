package io.hami.kube.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The request limits of one JDK HTTP server (issue 26): every exchange on its own virtual thread under a header and a
 * body deadline ({@link ReadDeadlines}), every body read whole before its handler within its endpoint's limit and the
 * server's in-flight budget ({@link BodyLimit}). Contexts must be created through {@link #serve}, which puts the body
 * limit first: a context without it would be interrupted by its header deadline while handling. Used by the
 * scheduler's extender and by every metrics port ({@link MetricsPort}).
 */
public final class BoundedReads implements AutoCloseable {
    /**
     * Largest header section accepted (request line, names, values and 32 bytes a field): kube-scheduler's, the API
     * server's and Prometheus's requests carry a few hundred bytes, a bearer token a few kB; the JDK's default, 380 KiB,
     * is what each slow client could make a server hold before its header deadline.
     */
    static final int MAX_HEADER_BYTES = 32 * 1024;

    /**
     * Connections one server keeps open at once; the JDK closes a new one past it at once, while the ones open (the
     * kept-alive connections of kube-scheduler, the API server, Prometheus) go on. Each slow client costs some tens of
     * kB until its deadline: this keeps their sum bounded, far above what the callers open.
     */
    static final int MAX_CONNECTIONS = 1000;

    private final HttpServer server;
    private final ReadDeadlines deadlines;
    private final InFlightBytes budget;

    private BoundedReads(HttpServer server, ReadDeadlines deadlines, InFlightBytes budget) {
        this.server = server;
        this.deadlines = deadlines;
        this.budget = budget;
    }

    /** Writes a refusal in the endpoint's own format (the verb's {@code Error} JSON, or text); does not close. */
    @FunctionalInterface
    public interface Refusal {
        void send(HttpExchange ex, int status, String message) throws IOException;
    }

    /** A refusal as plain text. */
    public static final Refusal TEXT = (ex, status, message) -> {
        byte[] bytes = (message + "\n").getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    };

    /**
     * Sets the JDK's JVM-wide header and connection bounds unless an operator's {@code -D} gave them. They are read once
     * per JVM, when its first JDK HTTP server starts, so every server under these limits calls this before it starts.
     */
    public static void boundHeadersAndConnections() {
        setUnlessGiven("sun.net.httpserver.maxReqHeaderSize", Integer.toString(MAX_HEADER_BYTES));
        setUnlessGiven("jdk.httpserver.maxConnections", Integer.toString(MAX_CONNECTIONS));
    }

    private static void setUnlessGiven(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    /** Runs {@code server}'s exchanges under {@code limits}; call before it starts. {@code name} names the timer. */
    public static BoundedReads on(HttpServer server, RequestLimits limits, String name) {
        var deadlines = new ReadDeadlines(limits, name);
        server.setExecutor(deadlines);
        return new BoundedReads(server, deadlines, new InFlightBytes(limits.inFlightBodyBytes()));
    }

    /** Serves {@code path} with bodies of at most {@code bodyLimit} bytes; refusals written by {@code refusal}. */
    public void serve(String path, long bodyLimit, Refusal refusal, HttpHandler handler) {
        if (bodyLimit > budget.limit()) { // such a body could never be held: every one would be answered 503
            throw new IllegalArgumentException("the body limit of " + path + ", " + bodyLimit
                    + " bytes, is above the server's in-flight body bytes, " + budget.limit());
        }
        server.createContext(path, handler).getFilters().add(new BodyLimit(path, bodyLimit, budget, refusal));
    }

    /** Bytes of request bodies held now: 0 when no request is being received or handled. */
    long heldBodyBytes() {
        return budget.held();
    }

    /** Stops the timer and interrupts what still runs; after the server has stopped. */
    @Override
    public void close() {
        deadlines.close();
    }
}
