package io.hami.controlplane.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hami.protocol.testing.PatientTimeout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The wire form of watches and content negotiation as an independent client sees it, stated once and run against
 * both servers: requests shaped as client-go sends them (a reflector's watch after its list, WatchList's
 * {@code sendInitialEvents}, client-go's protobuf-first Accept), made by Debian's python3-kubernetes
 * ({@code watch-wire-probe.py}, a subprocess with the server's kubeconfig), and what came back: status codes, headers,
 * the events in order with their kind, name, resourceVersion and bookmark annotation, when the stream ended. A
 * difference is an override in {@code EmbeddedWatchWireTest}, listed in {@code lab/apiserver/README.md}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@PatientTimeout(value = 180, unit = TimeUnit.SECONDS)
public abstract class WatchWireContract {

    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final String PROBE = "watch-wire-probe.py";

    /** A kubeconfig of an administrator of the server under test, written into {@code dir} if need be. */
    protected abstract Path kubeconfig(Path dir);

    /** Makes {@code namespace} ready for pods. */
    protected abstract void prepareNamespace(String namespace);

    protected JsonNode seen;

    @BeforeAll
    void probe(@TempDir Path dir) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(PYTHON), "no " + PYTHON);
        assumeTrue(
                run(List.of(PYTHON.toString(), "-c", "import kubernetes"), dir).exit() == 0,
                "python3-kubernetes is not installed (scripts/install-test-deps.sh installs it)");
        String namespace = "wire-" + UUID.randomUUID().toString().substring(0, 8);
        prepareNamespace(namespace);
        Path script = dir.resolve(PROBE);
        try (InputStream in = WatchWireContract.class.getResourceAsStream("/" + PROBE)) {
            Files.write(script, in.readAllBytes());
        }
        Result probe = run(
                List.of(PYTHON.toString(), script.toString(), kubeconfig(dir).toString(), namespace), dir);
        assertThat(probe.exit()).as(probe.output()).isZero();
        seen = JsonMapper.shared().readTree(probe.output());
        // What was seen, for whoever compares the two servers by eye.
        System.out.println(getClass().getSimpleName() + " saw: " + seen);
    }

    // ---------------------------------------------------------------- watches

    /** A reflector's watch after its list: chunked JSON lines, the change, a bookmark before the timeout, the end. */
    @Test
    void watchFromAListIsAChunkedJsonStreamWithABookmarkBeforeItsTimeout() {
        JsonNode watch = seen.path("watchFromList");

        assertThat(watch.path("status").asInt()).isEqualTo(200);
        assertThat(watch.path("contentType").asString()).isEqualTo("application/json");
        assertThat(watch.path("transferEncoding").asString()).isEqualTo("chunked");
        // The change, then bookmarks: the last about 2 s before the end (timeoutSeconds=5).
        assertThat(events(watch).getFirst()).isEqualTo("ADDED Pod w-2");
        JsonNode bookmark = watch.path("events").get(1);
        assertThat(bookmark.path("apiVersion").asString()).isEqualTo("v1");
        assertThat(bookmark.path("hasResourceVersion").asBoolean()).isTrue();
        assertBookmarksUntilTheEnd(watch, 1);
    }

    /** client-go's WatchList: the state as ADDED, the bookmark that ends it, then the changes. */
    @Test
    void watchListSendsTheStateThenTheInitialEventsEndBookmarkThenChanges() {
        JsonNode watch = seen.path("watchList");

        assertThat(watch.path("status").asInt()).isEqualTo(200);
        assertThat(watch.path("transferEncoding").asString()).isEqualTo("chunked");
        List<String> events = events(watch);
        assertThat(events.subList(0, 2)).containsExactlyInAnyOrder("ADDED Pod w-1", "ADDED Pod w-2");
        assertThat(events.get(2)).isEqualTo("BOOKMARK Pod");
        JsonNode end = watch.path("events").get(2);
        assertThat(end.path("initialEventsEnd").asString()).isEqualTo("true");
        assertThat(end.path("hasResourceVersion").asBoolean()).isTrue();
        assertThat(events.get(3)).isEqualTo("ADDED Pod w-3");
        assertBookmarksUntilTheEnd(watch, 4);
    }

    /**
     * From event {@code from} on: bookmarks only (no initial-events-end among them), the last about 2 s before the end
     * of a 5 s watch, and the end at 5 s. kube-apiserver's watch cache sends them on a 1 s tick, so it may send one or
     * two more before (right after the initial events too, while the client has not confirmed their end).
     */
    private static void assertBookmarksUntilTheEnd(JsonNode watch, int from) {
        List<JsonNode> bookmarks =
                watch.path("events").values().stream().skip(from).toList();
        assertThat(bookmarks).as(watch.toString()).isNotEmpty().allSatisfy(b -> {
            assertThat(b.path("type").asString()).isEqualTo("BOOKMARK");
            assertThat(b.path("kind").asString()).isEqualTo("Pod");
            assertThat(b.path("initialEventsEnd").isNull()).isTrue();
        });
        assertThat(bookmarks.getLast().path("at").asDouble()).isBetween(2.0, 4.9);
        assertThat(watch.path("endedAt").asDouble()).isBetween(4.8, 8.0);
    }

    /** The Python client's own {@code Watch().stream}: the changes since the list, ended by {@code timeoutSeconds}. */
    @Test
    void pythonClientWatchSeesTheChangesSinceItsResourceVersionUntilItsTimeout() {
        JsonNode watch = seen.path("pythonWatch");

        assertThat(watch.path("events").values().stream()
                        .map(e ->
                                e.path("type").asString() + " " + e.path("name").asString())
                        .toList())
                .containsExactly("ADDED w-2", "ADDED w-3");
        assertThat(watch.path("endedAt").asDouble()).isBetween(1.8, 6.0);
    }

    @Test
    void resourceVersionMatchWithoutSendInitialEventsIsInvalid() {
        assertStatus(seen.path("matchWithoutInitialEvents"), 422, "Invalid");
        assertThat(seen.path("matchWithoutInitialEvents").path("message").asString())
                .contains("resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided");
    }

    // ---------------------------------------------------------------- content negotiation

    @Test
    void aMediaTypeNotServedIsRefusedWith406() {
        assertStatus(seen.path("acceptXml"), 406, "NotAcceptable");
        assertThat(seen.path("acceptXml").path("message").asString())
                .startsWith("406: Not Acceptable\n\nAvailable representations: application/json, ");
    }

    @Test
    void aBodyInAFormatNotReadIsRefusedWith415() {
        assertStatus(seen.path("bodyXml"), 415, "UnsupportedMediaType");
        assertThat(seen.path("bodyXml").path("message").asString())
                .startsWith("the body of the request was in an unknown format - accepted media types include: "
                        + "application/json");
    }

    /** client-go's default Accept: kube-apiserver answers protobuf, the first it serves. */
    @Test
    void protobufFirstThenJsonIsAnsweredInTheFirstServedType() {
        assertThat(seen.path("acceptProtobufAndJson").path("status").asInt()).isEqualTo(200);
        assertThat(seen.path("acceptProtobufAndJson").path("contentType").asString())
                .isEqualTo("application/vnd.kubernetes.protobuf");
    }

    @Test
    void protobufOnlyIsServed() {
        assertThat(seen.path("acceptProtobuf").path("status").asInt()).isEqualTo(200);
        assertThat(seen.path("acceptProtobuf").path("contentType").asString())
                .isEqualTo("application/vnd.kubernetes.protobuf");
    }

    /** A protobuf body that decodes to no valid object (here: an empty Pod). */
    @Test
    void aProtobufBodyIsReadAndValidated() {
        assertStatus(seen.path("bodyProtobuf"), 422, "Invalid");
    }

    protected static void assertStatus(JsonNode response, int code, String reason) {
        assertThat(response.path("status").asInt()).as(response.toString()).isEqualTo(code);
        assertThat(response.path("contentType").asString()).startsWith("application/json");
        assertThat(response.path("kind").asString()).isEqualTo("Status");
        assertThat(response.path("code").asInt()).isEqualTo(code);
        assertThat(response.path("reason").asString()).isEqualTo(reason);
    }

    /** {@code TYPE Kind name} of each event of a watch. */
    protected static List<String> events(JsonNode watch) {
        return watch.path("events").values().stream()
                .map(e -> (e.path("type").asString() + " " + e.path("kind").asString() + " "
                                + e.path("name").asString(""))
                        .strip())
                .toList();
    }

    private record Result(int exit, String output) {}

    private static Result run(List<String> command, Path dir) throws IOException, InterruptedException {
        Path err = Files.createTempFile(dir, "probe", ".err");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in 120 s");
        }
        String output = new String(out, StandardCharsets.UTF_8);
        return new Result(p.exitValue(), p.exitValue() == 0 ? output : output + Files.readString(err));
    }
}
