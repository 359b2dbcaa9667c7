package io.hami.controlplane.differential;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.apiserver.EmbeddedApiServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link WatchWireContract} against {@code lab/apiserver}'s {@link EmbeddedApiServer}. Overrides are the known
 * differences, listed in {@code lab/apiserver/README.md}: it serves JSON only.
 */
class EmbeddedWatchWireTest extends WatchWireContract {

    private final EmbeddedApiServer server = EmbeddedApiServer.start();

    @Override
    protected Path kubeconfig(Path dir) {
        return server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    @Override
    protected void prepareNamespace(String namespace) {
        // The embedded server keeps namespaced objects without their namespace existing.
    }

    @AfterAll
    void stop() {
        server.close();
    }

    /** Difference: JSON only; client-go's default Accept (protobuf, then JSON) gets JSON. */
    @Override
    @Test
    void protobufFirstThenJsonIsAnsweredInTheFirstServedType() {
        assertThat(seen.path("acceptProtobufAndJson").path("status").asInt()).isEqualTo(200);
        assertThat(seen.path("acceptProtobufAndJson").path("contentType").asString())
                .isEqualTo("application/json");
    }

    /** Difference: protobuf alone is 406 with a Status naming JSON, the one type served. */
    @Override
    @Test
    void protobufOnlyIsServed() {
        assertStatus(seen.path("acceptProtobuf"), 406, "NotAcceptable");
        assertThat(seen.path("acceptProtobuf").path("message").asString())
                .isEqualTo("406: Not Acceptable\n\nAvailable representations: application/json,"
                        + " application/json;stream=watch");
    }

    /** Difference: a protobuf body is not read at all: 415 with a Status naming JSON. */
    @Override
    @Test
    void aProtobufBodyIsReadAndValidated() {
        assertStatus(seen.path("bodyProtobuf"), 415, "UnsupportedMediaType");
    }
}
