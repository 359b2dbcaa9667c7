package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every error is a {@code meta/v1 Status} whose reason matches the code (NotFound, AlreadyExists, Invalid, ...); an
 * unreadable body is 400 and a JSON Patch whose {@code test} operation fails is 422, not a request left unanswered.
 */
class ErrorsCarryStatusTest {

    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void missingObjectIsNotFoundWithItsName() throws Exception {
        HttpResponse<String> response = Http.get(server.url() + "/api/v1/namespaces/default/pods/nope");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        Status status = Serialization.unmarshal(response.body(), Status.class);
        assertThat(status.getReason()).isEqualTo("NotFound");
        assertThat(status.getMessage()).isEqualTo("pods \"nope\" not found");
    }

    @Test
    void creatingAnExistingObjectIsAlreadyExists() {
        client.pods().resource(Fixtures.pod("twin")).create();

        assertThatThrownBy(() -> client.pods().resource(Fixtures.pod("twin")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists");
                });
    }

    @Test
    void unreadableBodyIsBadRequestNotASilentTimeout() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/pods"))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString("{\"kind\":\"Pod\","))
                .build();

        HttpResponse<String> response;
        try (HttpClient http = HttpClient.newHttpClient()) {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        }

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Serialization.unmarshal(response.body(), Status.class).getReason())
                .isEqualTo("BadRequest");
    }

    @Test
    void failingJsonPatchTestIsInvalidAndChangesNothing() {
        var pod = Fixtures.pod("tested", Map.of("lock", "held"));
        client.pods().resource(pod).create();

        assertThatThrownBy(
                        () -> client.pods()
                                .withName("tested")
                                .patch(
                                        PatchContext.of(PatchType.JSON),
                                        "[{\"op\":\"test\",\"path\":\"/metadata/labels/lock\",\"value\":\"free\"},"
                                                + "{\"op\":\"replace\",\"path\":\"/metadata/labels/lock\",\"value\":\"mine\"}]"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
                });
        assertThat(client.pods().withName("tested").get().getMetadata().getLabels())
                .containsEntry("lock", "held");
    }

    @Test
    void passingJsonPatchTestApplies() {
        client.pods().resource(Fixtures.pod("granted", Map.of("lock", "free"))).create();

        client.pods()
                .withName("granted")
                .patch(
                        PatchContext.of(PatchType.JSON),
                        "[{\"op\":\"test\",\"path\":\"/metadata/labels/lock\",\"value\":\"free\"},"
                                + "{\"op\":\"replace\",\"path\":\"/metadata/labels/lock\",\"value\":\"mine\"}]");

        assertThat(client.pods().withName("granted").get().getMetadata().getLabels())
                .containsEntry("lock", "mine");
    }
}
