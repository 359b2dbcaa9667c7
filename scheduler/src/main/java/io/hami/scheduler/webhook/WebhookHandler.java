package io.hami.scheduler.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonDiff;
import io.hami.scheduler.extender.ExtenderJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /webhook}: AdmissionReview v1 in, AdmissionReview v1 out, with the mutation as a JSON patch.
 * A review that cannot be read is answered 400 with the reason.
 */
public final class WebhookHandler implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookHandler.class);
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final AdmissionRules rules;

    public WebhookHandler(AdmissionRules rules) {
        this.rules = rules;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        try (ex) {
            if (!"POST".equals(ex.getRequestMethod())) {
                reply(ex, 405, "use POST with an AdmissionReview".getBytes(StandardCharsets.UTF_8), "text/plain");
                return;
            }
            byte[] body = ex.getRequestBody().readNBytes(ExtenderJson.MAX_BODY + 1);
            if (body.length > ExtenderJson.MAX_BODY) {
                ExtenderJson.drain(ex.getRequestBody());
            }
            if (body.length == 0 || body.length > ExtenderJson.MAX_BODY) {
                reply(ex, body.length == 0 ? 400 : 413, ("AdmissionReview body " + (body.length == 0 ? "missing" : "over 4 MiB"))
                        .getBytes(StandardCharsets.UTF_8), "text/plain");
                return;
            }
            AdmissionReview review;
            try {
                review = SERIALIZATION.unmarshal(new String(body, StandardCharsets.UTF_8), AdmissionReview.class);
            } catch (RuntimeException e) {
                reply(ex, 400, ("malformed AdmissionReview: " + e.getMessage()).getBytes(StandardCharsets.UTF_8), "text/plain");
                return;
            }
            var out = new AdmissionReviewBuilder().withApiVersion("admission.k8s.io/v1").withKind("AdmissionReview")
                    .withResponse(respond(review)).build();
            reply(ex, 200, SERIALIZATION.asJson(out).getBytes(StandardCharsets.UTF_8), "application/json");
        }
    }

    AdmissionResponse respond(AdmissionReview review) {
        var request = review.getRequest();
        String uid = request == null ? "" : request.getUid();
        if (request == null || !(request.getObject() instanceof Pod pod)) {
            return new AdmissionResponseBuilder().withUid(uid).withAllowed(false)
                    .withStatus(new StatusBuilder().withCode(400).withMessage("the review carries no Pod").build()).build();
        }
        String namespace = request.getNamespace() != null && !request.getNamespace().isEmpty() ? request.getNamespace()
                : pod.getMetadata() == null ? null : pod.getMetadata().getNamespace();
        return switch (rules.review(pod, namespace)) {
            case AdmissionRules.Verdict.Denied d -> {
                LOG.info("denied pod {}/{}: {}", request.getNamespace(), name(pod), d.message());
                yield new AdmissionResponseBuilder().withUid(uid).withAllowed(false)
                        .withStatus(new StatusBuilder().withCode(403).withReason("Forbidden").withMessage(d.message()).build()).build();
            }
            case AdmissionRules.Verdict.Allowed a -> {
                var patch = JsonDiff.asJson(SERIALIZATION.convertValue(pod, tools.jackson.databind.JsonNode.class),
                        SERIALIZATION.convertValue(a.pod(), tools.jackson.databind.JsonNode.class));
                var b = new AdmissionResponseBuilder().withUid(uid).withAllowed(true);
                if (!patch.isEmpty()) {
                    b.withPatchType("JSONPatch").withPatch(Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
                }
                yield b.build();
            }
        };
    }

    private static String name(Pod pod) {
        var m = pod.getMetadata();
        return m == null ? "" : m.getName() != null ? m.getName() : m.getGenerateName();
    }

    private static void reply(HttpExchange ex, int status, byte[] body, String type) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, body.length);
        ex.getResponseBody().write(body);
    }
}
