package io.hami.lab.workload;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonPatch;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * The API server's side of the scheduler's mutating webhook: sends the pod in an AdmissionReview v1 to
 * {@code /webhook} and applies the JSON patch it answers, or reports the denial. The embedded API server has no
 * admission chain, so the lab runs this step before it creates a pod, as a real API server would.
 */
public final class AdmissionClient {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final KubernetesSerialization json;
    private final Supplier<List<URI>> endpoints;

    public AdmissionClient(KubernetesSerialization json, Supplier<List<URI>> endpoints) {
        this.json = json;
        this.endpoints = endpoints;
    }

    /** What the webhook decided. */
    public sealed interface Verdict {
        record Admitted(Pod pod) implements Verdict {}

        record Denied(String message) implements Verdict {}
    }

    public Verdict review(Pod pod) throws IOException {
        AdmissionReview review = new AdmissionReviewBuilder()
                .withApiVersion("admission.k8s.io/v1")
                .withKind("AdmissionReview")
                .withRequest(new AdmissionRequestBuilder()
                        .withUid(UUID.randomUUID().toString())
                        .withNewKind("", "Pod", "v1")
                        .withNewResource("", "pods", "v1")
                        .withNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName())
                        .withOperation("CREATE")
                        .withObject(pod)
                        .build())
                .build();
        JsonNode response = post(json.asJson(review)).path("response");
        if (!response.path("allowed").asBoolean(false)) {
            return new Verdict.Denied(response.path("status").path("message").asString("denied without a message"));
        }
        String patch = response.path("patch").asString("");
        if (patch.isEmpty()) {
            return new Verdict.Admitted(pod);
        }
        JsonNode ops =
                json.unmarshal(new String(Base64.getDecoder().decode(patch), StandardCharsets.UTF_8), JsonNode.class);
        JsonNode patched = JsonPatch.apply(ops, json.convertValue(pod, JsonNode.class));
        return new Verdict.Admitted(json.convertValue(patched, Pod.class));
    }

    /** Any replica serves the webhook; the first one that answers is used. */
    private JsonNode post(String body) throws IOException {
        IOException last = new IOException("no scheduler replica is running");
        for (URI base : endpoints.get()) {
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(base.resolve("/webhook"))
                                .timeout(Duration.ofSeconds(10))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IOException(base + "/webhook answered " + r.statusCode() + ": " + r.body());
                }
                return json.unmarshal(r.body(), JsonNode.class);
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        throw last;
    }
}
