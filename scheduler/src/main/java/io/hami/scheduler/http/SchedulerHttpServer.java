package io.hami.scheduler.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.hami.kube.http.BoundedReads;
import io.hami.kube.http.RequestLimits;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.ExtenderJson;
import io.hami.scheduler.extender.FilterResult;
import io.hami.scheduler.preempt.PreemptionArgs;
import io.hami.scheduler.preempt.PreemptionResult;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's HTTP(S) endpoints (design D6, docs/design.md#d6): {@code POST /filter}, {@code /prioritize}, {@code /bind},
 * {@code /preempt}, {@code /webhook}, and {@code GET /healthz}, {@code /readyz}. Bad bodies get a clear {@code Error}
 * and touch nothing.
 */
public final class SchedulerHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerHttpServer.class);

    /** The operations behind the endpoints; {@code preempt} null: no {@code /preempt}. */
    public record Routes(
            Function<ExtenderArgs, FilterResult> filter,
            Function<ExtenderArgs, List<io.hami.scheduler.extender.HostPriority>> prioritize,
            Function<BindingArgs, BindingResult> bind,
            HttpHandler webhook,
            BooleanSupplier ready,
            Function<PreemptionArgs, PreemptionResult.Reply> preempt) {
        /** Without {@code /preempt}. */
        public Routes(
                Function<ExtenderArgs, FilterResult> filter,
                Function<ExtenderArgs, List<io.hami.scheduler.extender.HostPriority>> prioritize,
                Function<BindingArgs, BindingResult> bind,
                HttpHandler webhook,
                BooleanSupplier ready) {
            this(filter, prioritize, bind, webhook, ready, null);
        }
    }

    private final HttpServer server;
    private final BoundedReads reads;

    private SchedulerHttpServer(HttpServer server, BoundedReads reads) {
        this.server = server;
        this.reads = reads;
    }

    /** Seconds an idle kept-alive connection stays open: longer than Go's 90 s idle timeout in kube-scheduler's client. */
    static final long IDLE_SECONDS = 120;

    /**
     * The JDK server closes a connection idle for 30 s. kube-scheduler's client keeps its connections 90 s and does not
     * resend a POST that met a connection closed under it, so a filter or bind sent just as the server closed would
     * fail the pod's cycle. Here the client always closes first. An operator's own {@code -D} setting stands. Read once
     * per JVM, when the first JDK HTTP server starts (this one starts before the metrics server).
     */
    static void keepIdleConnectionsLongerThanClients() {
        if (System.getProperty("sun.net.httpserver.idleInterval") == null) {
            System.setProperty("sun.net.httpserver.idleInterval", Long.toString(IDLE_SECONDS));
        }
    }

    /** Largest /filter, /prioritize, /preempt and /webhook body: {@link ExtenderJson#MAX_BODY}, see the README. */
    static final long EXTENDER_BODY = ExtenderJson.MAX_BODY;

    /** Largest /bind body: ExtenderBindingArgs is four names and a UID, under 1 kB. */
    static final long BIND_BODY = 64 * 1024;

    /** Largest body of a GET endpoint, which reads none. */
    static final long NO_BODY = 16 * 1024;

    /** {@link #start(InetSocketAddress, Path, Path, Routes, RequestLimits)} with {@link RequestLimits#DEFAULTS}. */
    public static SchedulerHttpServer start(InetSocketAddress address, Path cert, Path key, Routes routes)
            throws IOException, GeneralSecurityException {
        return start(address, cert, key, routes, RequestLimits.DEFAULTS);
    }

    /**
     * Starts serving on {@code address}; with a certificate and key, over TLS, re-reading both files when
     * they change. Requests are read within {@code limits}.
     */
    public static SchedulerHttpServer start(
            InetSocketAddress address, Path cert, Path key, Routes routes, RequestLimits limits)
            throws IOException, GeneralSecurityException {
        // Without TCP_NODELAY a large filter answer waits ~40 ms for the client's delayed ACK.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        keepIdleConnectionsLongerThanClients();
        BoundedReads.boundHeadersAndConnections();
        HttpServer server;
        if (cert != null && key != null) {
            var https = HttpsServer.create(address, 0);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(new KeyManager[] {new ReloadingKeyManager(cert, key)}, null, new SecureRandom());
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        } else {
            server = HttpServer.create(address, 0);
        }
        var reads = BoundedReads.on(server, limits, "extender");
        reads.serve(
                "/filter",
                EXTENDER_BODY,
                refusal(FilterResult::error),
                post(ExtenderArgs.class, args -> reply(200, routes.filter().apply(args)), FilterResult::error));
        reads.serve(
                "/prioritize",
                EXTENDER_BODY,
                refusal(ErrorBody::new),
                post(ExtenderArgs.class, args -> reply(200, routes.prioritize().apply(args)), ErrorBody::new));
        reads.serve(
                "/bind",
                BIND_BODY,
                refusal(BindingResult::new),
                post(BindingArgs.class, args -> reply(200, routes.bind().apply(args)), BindingResult::new));
        if (routes.preempt() != null) {
            reads.serve(
                    "/preempt",
                    EXTENDER_BODY,
                    refusal(PreemptionResult::error),
                    post(
                            PreemptionArgs.class,
                            args -> {
                                var answer = routes.preempt().apply(args);
                                return reply(answer.status(), answer.body());
                            },
                            PreemptionResult::error));
        }
        reads.serve("/webhook", EXTENDER_BODY, BoundedReads.TEXT, routes.webhook());
        reads.serve("/healthz", NO_BODY, BoundedReads.TEXT, ex -> text(ex, 200, "ok"));
        reads.serve("/readyz", NO_BODY, BoundedReads.TEXT, ex -> {
            boolean ready = routes.ready().getAsBoolean();
            text(
                    ex,
                    ready ? 200 : 503,
                    ready
                            ? "ok"
                            : "not ready: not the leader, or the informers have not listed the cluster yet or their watch is down");
        });
        server.start();
        LOG.info(
                "serving extender on {}://{}, requests read within {} (headers) and {} (body)",
                cert != null ? "https" : "http",
                server.getAddress(),
                limits.headerTimeout(),
                limits.bodyTimeout());
        return new SchedulerHttpServer(server, reads);
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(1);
        reads.close();
    }

    /** A body the endpoint cannot use. */
    private record ErrorBody(
            @com.fasterxml.jackson.annotation.JsonProperty("Error")
            String error) {}

    /** What a verb answers: a status and the value written as JSON. */
    private record Reply(int status, Object body) {}

    private static Reply reply(int status, Object body) {
        return new Reply(status, body);
    }

    /** A refusal of the body limits, written as the verb's own result type carrying {@code Error}. */
    private static BoundedReads.Refusal refusal(Function<String, Object> error) {
        return (ex, status, message) -> json(ex, status, error.apply(message));
    }

    /** POST only; a bad body is answered with the verb's own result type carrying {@code Error}. */
    private static <T> HttpHandler post(Class<T> type, Function<T, Reply> verb, Function<String, Object> error) {
        return ex -> {
            try (ex) {
                if (!"POST".equals(ex.getRequestMethod())) {
                    ex.getResponseHeaders().set("Allow", "POST");
                    json(ex, 405, error.apply("method " + ex.getRequestMethod() + " not allowed, use POST"));
                    return;
                }
                try {
                    var answer = verb.apply(ExtenderJson.read(ex.getRequestBody(), requestLength(ex), type));
                    json(ex, answer.status(), answer.body());
                } catch (ExtenderJson.BadBodyException e) {
                    json(ex, e.status(), error.apply(e.getMessage()));
                } catch (RuntimeException e) {
                    LOG.error("{} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
                    json(ex, 500, error.apply("internal error, see the scheduler's log"));
                }
            }
        };
    }

    /**
     * Writes {@code value} from the buffer it was serialised into, sized as the request (a filter answer names about
     * the nodes its request did), so it is neither grown nor copied on the way.
     */
    static void json(HttpExchange ex, int status, Object value) throws IOException {
        var body = ExtenderJson.writeBuffered(value, status == 200 ? requestLength(ex) + 1024 : 1024);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, body.size());
        body.writeTo(ex.getResponseBody());
    }

    /** The request's Content-Length up to {@link #EXTENDER_BODY}; 0 when it has none. */
    private static int requestLength(HttpExchange ex) {
        String length = ex.getRequestHeaders().getFirst("Content-Length");
        try {
            return length == null ? 0 : (int) Math.min(Long.parseLong(length.trim()), EXTENDER_BODY);
        } catch (NumberFormatException e) {
            return 0; // the JDK refuses such a request first
        }
    }

    private static void text(HttpExchange ex, int status, String body) throws IOException {
        try (ex) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            ex.sendResponseHeaders(status, bytes.length);
            ex.getResponseBody().write(bytes);
        }
    }
}
