package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's own contract: loopback address, clients, kubeconfig, discovery and shutdown. */
class EmbeddedApiServerTest {

    @Test
    void servesOnLoopbackAndClientsShareTheStore() {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient writer = server.newClient();
                KubernetesClient reader = server.newClient()) {
            assertThat(server.url()).isEqualTo("http://127.0.0.1:" + server.port());

            writer.nodes().resource(Fixtures.node("shared")).create();

            assertThat(reader.nodes().withName("shared").get()).isNotNull();
            assertThat(reader.getKubernetesVersion().getGitVersion()).startsWith("v1.32");
        }
    }

    @Test
    void writesAKubeconfigPointingAtTheServer(@TempDir Path dir) throws IOException {
        try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
            Path written = server.writeKubeconfig(dir.resolve("sub/kubeconfig"));

            assertThat(Files.readString(written))
                    .contains("server: " + server.url())
                    .contains("current-context: hami-lab");
            Config config = Config.fromKubeconfig(Files.readString(written));
            assertThat(config.getMasterUrl()).startsWith(server.url());
        }
    }

    @Test
    void unknownPathsAre404InsteadOfEveryStoredObject() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            client.nodes().resource(Fixtures.node("hidden")).create();

            HttpResponse<String> response = Http.get(server.url() + "/openapi/v2");

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.body()).contains("\"reason\":\"NotFound\"").doesNotContain("hidden");
            assertThat(Http.get(server.url() + "/healthz").body()).isEqualTo("ok");
            assertThat(Http.get(server.url() + "/api/v1").body()).contains("\"name\":\"pods/binding\"");
        }
    }

    @Test
    void closeReleasesThePort() {
        EmbeddedApiServer server = EmbeddedApiServer.start();
        int port = server.port();

        server.close();

        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    }
}
