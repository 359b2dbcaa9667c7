package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.protocol.testing.PatientTimeout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A watch without the WebSocket upgrade is kube-apiserver's chunked HTTP stream (what client-go, the Python client and
 * curl use): JSON events one per line, held open until {@code timeoutSeconds}, bookmarks and {@code sendInitialEvents}
 * as kube-apiserver sends them. Content negotiation refuses what this server cannot serve (406, 415) with a Status.
 * {@code lab/control-plane}'s {@code WatchWire*Test} compare the same requests against a real kube-apiserver.
 */
@PatientTimeout(value = 60, unit = TimeUnit.SECONDS)
class PlainHttpWatchTest {

    /** How long an event may take to arrive; generous, only a failing test waits it out. */
    private static final Duration EVENT_WAIT = Duration.ofSeconds(20);

    private static final String PODS = "/api/v1/namespaces/default/pods";

    private EmbeddedApiServer server;
    private KubernetesClient client;
    private HttpClient http;

    @BeforeEach
    void start() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
        // HTTP/1.1: the wire form client-go uses against a plain HTTP server (no h2c upgrade).
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stop() {
        http.shutdownNow(); // close() would wait for the open watches to end
        client.close();
        server.close();
    }

    /** A watch being read: its response (headers) and its events as they come; {@link #END} when it ended. */
    private record Watching(HttpResponse<Stream<String>> response, BlockingQueue<JsonNode> events) {

        JsonNode next() throws InterruptedException {
            JsonNode event = events.poll(EVENT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(event).as("an event (or the end) within " + EVENT_WAIT).isNotNull();
            return event;
        }

        /** The events up to the end of the stream. */
        List<JsonNode> rest() throws InterruptedException {
            List<JsonNode> rest = new ArrayList<>();
            for (JsonNode e = next(); !e.equals(END); e = next()) {
                rest.add(e);
            }
            return rest;
        }
    }

    private static final JsonNode END = Json.object().put("type", "END");

    private Watching watch(String query) throws IOException, InterruptedException {
        HttpResponse<Stream<String>> response = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + PODS + "?watch=true&" + query))
                        .build(),
                HttpResponse.BodyHandlers.ofLines());
        BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (Stream<String> lines = response.body()) {
                lines.forEach(line -> events.add(Json.parse(line)));
            } catch (UncheckedIOException e) {
                // the connection went: the end of the stream all the same
            }
            events.add(END);
        });
        return new Watching(response, events);
    }

    private static String describe(JsonNode event) {
        JsonNode metadata = event.path("object").path("metadata");
        return event.path("type").asString() + " "
                + metadata.path("name")
                        .asString(event.path("object").path("kind").asString());
    }

    @Test
    void streamsJsonLinesChunkedUntilTimeoutSeconds() throws Exception {
        client.pods().resource(Fixtures.pod("before")).create();
        long started = System.nanoTime();

        Watching watch = watch("timeoutSeconds=2");

        assertThat(watch.response().statusCode()).isEqualTo(200);
        assertThat(watch.response().headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(watch.response().headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        assertThat(describe(watch.next())).isEqualTo("ADDED before");
        client.pods().resource(Fixtures.pod("during")).create();
        client.pods().withName("during").delete();
        assertThat(watch.rest())
                .extracting(PlainHttpWatchTest::describe)
                .containsExactly("ADDED during", "DELETED during");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    }

    /** {@code watch=True} is what the Python client sends; kube-apiserver reads booleans as Go does. */
    @Test
    void readsBooleanParametersAsGoDoes() throws Exception {
        HttpResponse<Stream<String>> response = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + PODS + "?watch=True&timeoutSeconds=1"))
                        .build(),
                HttpResponse.BodyHandlers.ofLines());

        assertThat(response.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
        try (Stream<String> lines = response.body()) {
            assertThat(lines).isEmpty(); // a watch of nothing, ended by its timeout; a LIST would be one line
        }
    }

    @Test
    void sendsABookmarkBeforeTheTimeoutWithTheCurrentResourceVersion() throws Exception {
        String listed = client.pods().list().getMetadata().getResourceVersion();
        client.nodes().resource(Fixtures.node("elsewhere")).create(); // any write moves the version a bookmark carries

        List<JsonNode> events = watch("allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=" + listed)
                .rest();

        assertThat(events).extracting(e -> e.path("type").asString()).containsExactly("BOOKMARK");
        JsonNode bookmark = events.getFirst().path("object");
        assertThat(bookmark.path("kind").asString()).isEqualTo("Pod");
        assertThat(bookmark.path("apiVersion").asString()).isEqualTo("v1");
        assertThat(bookmark.path("metadata").path("resourceVersion").asString())
                .isEqualTo(
                        client.nodes().withName("elsewhere").get().getMetadata().getResourceVersion());
        assertThat(bookmark.path("metadata").has("annotations")).isFalse();
    }

    @Test
    void sendInitialEventsSendsTheStateThenTheEndBookmarkThenChanges() throws Exception {
        client.pods().resource(Fixtures.pod("a")).create();
        client.pods().resource(Fixtures.pod("b")).create();
        String listed = client.pods().list().getMetadata().getResourceVersion();

        Watching watch = watch("sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"
                + "&timeoutSeconds=30&resourceVersion=" + listed);

        // Every object, even those not newer than the resourceVersion: the state, not the changes since.
        assertThat(List.of(describe(watch.next()), describe(watch.next())))
                .containsExactlyInAnyOrder("ADDED a", "ADDED b");
        JsonNode end = watch.next();
        assertThat(end.path("type").asString()).isEqualTo("BOOKMARK");
        assertThat(end.path("object")
                        .path("metadata")
                        .path("annotations")
                        .path("k8s.io/initial-events-end")
                        .asString())
                .isEqualTo("true");
        assertThat(end.path("object").path("metadata").path("resourceVersion").asString())
                .isEqualTo(listed);
        client.pods().resource(Fixtures.pod("c")).create();
        assertThat(describe(watch.next())).isEqualTo("ADDED c");
    }

    @Test
    void refusesWatchOptionsKubeApiServerRefuses() throws Exception {
        HttpResponse<String> noInitialEvents =
                Http.get(server.url() + PODS + "?watch=true&resourceVersionMatch=NotOlderThan");
        HttpResponse<String> wrongMatch = Http.get(server.url() + PODS + "?watch=true&sendInitialEvents=true");

        assertThat(noInitialEvents.statusCode()).isEqualTo(422);
        assertThat(Json.parse(noInitialEvents.body()).path("message").asString())
                .contains("resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided");
        assertThat(wrongMatch.statusCode()).isEqualTo(422);
        assertThat(Json.parse(wrongMatch.body()).path("reason").asString()).isEqualTo("Invalid");
    }

    @Test
    void answersJsonWhenJsonIsAcceptableAndRefusesProtobufOnly() throws Exception {
        client.pods().resource(Fixtures.pod("p")).create();

        HttpResponse<String> both = get("application/vnd.kubernetes.protobuf,application/json");
        HttpResponse<String> protobuf = get("application/vnd.kubernetes.protobuf");

        assertThat(both.statusCode()).isEqualTo(200);
        assertThat(both.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(Json.parse(both.body()).path("items")).hasSize(1);
        assertThat(protobuf.statusCode()).isEqualTo(406);
        JsonNode status = Json.parse(protobuf.body());
        assertThat(status.path("kind").asString()).isEqualTo("Status");
        assertThat(status.path("reason").asString()).isEqualTo("NotAcceptable");
        assertThat(status.path("message").asString())
                .isEqualTo("406: Not Acceptable\n\nAvailable representations: application/json,"
                        + " application/json;stream=watch");
    }

    @Test
    void refusesAProtobufBodyWith415() throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + PODS))
                        .header("Content-Type", "application/vnd.kubernetes.protobuf")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {0x6b, 0x38, 0x73, 0x00, 0x0a}))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(415);
        JsonNode status = Json.parse(response.body());
        assertThat(status.path("reason").asString()).isEqualTo("UnsupportedMediaType");
        assertThat(status.path("message").asString()).endsWith("accepted media types include: application/json");
        assertThat(client.pods().list().getItems()).isEmpty();
    }

    private HttpResponse<String> get(String accept) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(server.url() + PODS))
                        .header("Accept", accept)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
