package io.hami.lab.apiserver;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.ServerWebSocketHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP side of the server, in place of fabric8's {@code MockWebServer}: the same Vert.x server and settings
 * (HTTP/1.1 and h2c, the Kubernetes WebSocket sub-protocols), every request given to the {@link Dispatcher} as the mock
 * does, plus what the mock cannot do: a response streamed for as long as it lasts. The mock sends a response whole,
 * so a plain HTTP watch (kube-apiserver's chunked stream, what client-go uses) was impossible behind it; here a
 * {@link ChunkedWatch} answer is written event by event. The mock's server also kept every request it ever answered
 * in a queue for {@code takeRequest()}, which nothing here reads.
 */
final class ApiHttpServer implements AutoCloseable {

    /** What the mock offers, so fabric8's exec/attach clients negotiate as before. */
    private static final List<String> WEBSOCKET_SUB_PROTOCOLS =
            List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");

    private static final Duration START_LIMIT = Duration.ofSeconds(30);

    private final Vertx vertx;
    private final HttpServer server;

    private ApiHttpServer(Vertx vertx, HttpServer server) {
        this.vertx = vertx;
        this.server = server;
    }

    static ApiHttpServer start(InetAddress address, int port, Dispatcher dispatcher) {
        Vertx vertx = Vertx.vertx();
        HttpServerOptions options = new HttpServerOptions()
                .setHost(address.getHostAddress())
                .setPort(port)
                .setWebSocketSubProtocols(WEBSOCKET_SUB_PROTOCOLS)
                .setHandle100ContinueAutomatically(true)
                .setWebSocketClosingTimeout(1)
                .setHttp2ClearTextEnabled(true);
        HttpServer server = vertx.createHttpServer(options);
        ApiHttpServer http = new ApiHttpServer(vertx, server);
        server.requestHandler(request -> http.handle(request, dispatcher));
        try {
            await(server.listen(), "listen on " + address.getHostAddress() + ":" + port);
        } catch (RuntimeException e) {
            await(vertx.close(), "stop Vert.x");
            throw e;
        }
        return http;
    }

    int port() {
        return server.actualPort();
    }

    @Override
    public void close() {
        await(server.close(), "stop the HTTP server");
        await(vertx.close(), "stop Vert.x");
    }

    private void handle(HttpServerRequest request, Dispatcher dispatcher) {
        if (isWebSocketUpgrade(request)) {
            RecordedRequest recorded = recorded(request, null);
            MockResponse response = dispatcher.dispatch(recorded);
            if (response.getWebSocketListener() != null) {
                request.toWebSocket()
                        .onSuccess(new ServerWebSocketHandler(recorded, response))
                        .onFailure(e -> failed(request, e));
                return;
            }
            send(request, response);
            return;
        }
        request.body().onFailure(e -> failed(request, e)).onSuccess(body -> {
            RecordedRequest recorded = recorded(request, hasBody(request) ? body.getBytes() : null);
            MockResponse response = dispatcher.dispatch(recorded);
            if (response instanceof ChunkedWatch watch) {
                stream(request.response(), watch);
            } else {
                send(request, response);
            }
        });
    }

    /**
     * A watch as kube-apiserver serves it over plain HTTP: 200, the headers now, then one JSON event per line as each
     * happens; the response ends at {@code timeoutSeconds} (or when the client goes), and bookmarks, when asked for,
     * come every minute and 2 s before the end, as kube-apiserver's watch cache sends them.
     */
    private void stream(HttpServerResponse response, ChunkedWatch watch) {
        response.setStatusCode(200).setChunked(true);
        watch.getHeaders()
                .toMultimap()
                .forEach((name, values) -> response.headers().add(name, values));
        // The headers go out before the first event: a client waits for them to know the watch is established.
        response.writeHead();
        List<Long> timers = new ArrayList<>();
        Runnable cancelTimers = () -> timers.forEach(vertx::cancelTimer);
        response.closeHandler(v -> {
            cancelTimers.run();
            watch.watch().close();
        });
        if (response.closed()) { // gone before the handler was set: it will not be called
            watch.watch().close();
            return;
        }
        watch.watch().open(line -> {
            if (!response.ended()) {
                response.write(line + "\n");
            }
        });
        if (watch.bookmarks()) {
            timers.add(vertx.setPeriodic(
                    ChunkedWatch.BOOKMARK_PERIOD.toMillis(),
                    id -> watch.bookmark().run()));
            watch.bookmarkBeforeEnd()
                    .ifPresent(at -> timers.add(vertx.setTimer(
                            Math.max(1, at.toMillis()), id -> watch.bookmark().run())));
        }
        watch.timeout()
                .ifPresent(timeout -> timers.add(vertx.setTimer(Math.max(1, timeout.toMillis()), id -> {
                    cancelTimers.run();
                    watch.watch().finish(() -> {
                        if (!response.ended() && !response.closed()) {
                            response.end();
                        }
                    });
                })));
    }

    private static void send(HttpServerRequest request, MockResponse response) {
        HttpServerResponse out = request.response().setStatusCode(response.code());
        response.getHeaders()
                .toMultimap()
                .forEach((name, values) -> out.headers().add(name, values));
        Buffer body = response.getBody();
        if (body != null && body.size() > 0) {
            if (!out.headers().contains("Transfer-Encoding")) {
                out.headers().add("Content-Length", Long.toString(body.size()));
            }
            out.send(io.vertx.core.buffer.Buffer.buffer(body.getBytes()));
        } else {
            out.end();
        }
    }

    /** What the mock answers when a request cannot be read or upgraded. */
    private static void failed(HttpServerRequest request, Throwable failure) {
        if (!request.response().headWritten()) {
            request.response()
                    .setStatusCode(500)
                    .setStatusMessage(String.valueOf(failure.getMessage()))
                    .send();
        }
    }

    private static RecordedRequest recorded(HttpServerRequest request, byte[] body) {
        return new RecordedRequest(
                request.version().alpnName().toUpperCase(Locale.ROOT),
                HttpMethod.fromVertx(request.method()),
                request.uri(),
                Headers.builder().addAll(request.headers()).build(),
                new Buffer(body));
    }

    private static boolean isWebSocketUpgrade(HttpServerRequest request) {
        String upgrade = request.getHeader("Upgrade");
        return upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket");
    }

    /** As the mock decides: a length above 0, or a content type. */
    private static boolean hasBody(HttpServerRequest request) {
        String length = request.headers().get("Content-Length");
        if (length != null && !length.isBlank()) {
            return Integer.parseInt(length.strip()) > 0;
        }
        return request.headers().contains("Content-Type");
    }

    private static <T> T await(Future<T> future, String what) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(START_LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("embedded API server: cannot " + what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("embedded API server: could not " + what + " in " + START_LIMIT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("embedded API server: interrupted while trying to " + what, e);
        }
    }
}
