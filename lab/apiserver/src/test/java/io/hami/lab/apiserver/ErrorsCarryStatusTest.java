package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every error is a {@code meta/v1 Status} whose reason matches the code; an unreadable body is 400, not a request left
 * unanswered. AlreadyExists and JSON Patch {@code test} failures (422) are stated by {@code lab/control-plane}'s
 * {@code ApiBehaviourContract}, which runs on this server too.
 */
class ErrorsCarryStatusTest {

    @RegisterExtension
    static final ApiServer api = new ApiServer();

    @Test
    void missingObjectIsNotFoundWithItsName() throws Exception {
        HttpResponse<String> response = Http.get(api.server().url() + "/api/v1/namespaces/default/pods/nope");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        Status status = Serialization.unmarshal(response.body(), Status.class);
        assertThat(status.getReason()).isEqualTo("NotFound");
        assertThat(status.getMessage()).isEqualTo("pods \"nope\" not found");
    }

    @Test
    void unreadableBodyIsBadRequestNotASilentTimeout() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(api.server().url() + "/api/v1/namespaces/default/pods"))
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
}
