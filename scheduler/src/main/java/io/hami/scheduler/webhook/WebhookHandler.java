package io.hami.scheduler.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonDiff;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.ExtenderJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /webhook}: an AdmissionReview in, the same apiVersion out ({@code admission.k8s.io/v1}, or {@code v1beta1},
 * whose shape is the same), with the mutation as a JSON patch. A review that cannot be read, or has no request or uid
 * to answer, is answered 400 with the reason.
 *
 * <p>The pod label {@code hami.io/webhook: ignore} exempts only pods that request no managed resource: pods are
 * user-written, so a pod that asks for devices is reviewed whatever it says, and told so in a warning. (The namespace
 * label, which only admins set, is honoured by the webhook configuration and never reaches here.)
 */
public final class WebhookHandler implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookHandler.class);
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    static final String V1 = "admission.k8s.io/v1";
    static final String V1BETA1 = "admission.k8s.io/v1beta1";
    static final String OPT_OUT_LABEL = ProtocolKeys.WEBHOOK_OPT_OUT;

    private final AdmissionRules rules;
    private final Set<String> managedResources;

    /** @param backends whose resource names make a pod one that the opt-out label cannot exempt */
    public WebhookHandler(AdmissionRules rules, DeviceBackends backends) {
        this.rules = rules;
        var names = new TreeSet<String>();
        for (DeviceBackend b : backends.all()) {
            names.addAll(b.resources().all());
        }
        this.managedResources = Set.copyOf(names);
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
                reply(
                        ex,
                        body.length == 0 ? 400 : 413,
                        ("AdmissionReview body " + (body.length == 0 ? "missing" : "over 4 MiB"))
                                .getBytes(StandardCharsets.UTF_8),
                        "text/plain");
                return;
            }
            switch (parse(new String(body, StandardCharsets.UTF_8))) {
                case Parsed.Bad bad -> reply(ex, 400, bad.message().getBytes(StandardCharsets.UTF_8), "text/plain");
                case Parsed.Review r -> {
                    AdmissionResponse response;
                    try {
                        response = respond(r.review());
                    } catch (RuntimeException e) {
                        LOG.error(
                                "webhook review {} failed",
                                r.review().getRequest().getUid(),
                                e);
                        reply(
                                ex,
                                500,
                                "internal error, see the scheduler's log".getBytes(StandardCharsets.UTF_8),
                                "text/plain");
                        return;
                    }
                    var out = new AdmissionReviewBuilder()
                            .withApiVersion(r.review().getApiVersion())
                            .withKind("AdmissionReview")
                            .withResponse(response)
                            .build();
                    reply(ex, 200, SERIALIZATION.asJson(out).getBytes(StandardCharsets.UTF_8), "application/json");
                }
            }
        }
    }

    /** A request body read as far as answering it goes. */
    sealed interface Parsed {
        /** A review with a request and uid, of an apiVersion we answer. */
        record Review(AdmissionReview review) implements Parsed {}

        /** A body to answer with 400 and {@code message}. */
        record Bad(String message) implements Parsed {}
    }

    static Parsed parse(String body) {
        AdmissionReview review;
        try {
            review = SERIALIZATION.unmarshal(body, AdmissionReview.class);
        } catch (RuntimeException e) {
            return new Parsed.Bad("malformed AdmissionReview: " + ExtenderJson.describe(e));
        }
        if (review == null) {
            return new Parsed.Bad("AdmissionReview body is JSON null, want an AdmissionReview object");
        }
        if (!"AdmissionReview".equals(review.getKind())) {
            return new Parsed.Bad("kind " + review.getKind() + " is not an AdmissionReview");
        }
        // fabric8 reads a missing apiVersion as v1
        if (!V1.equals(review.getApiVersion()) && !V1BETA1.equals(review.getApiVersion())) {
            return new Parsed.Bad("AdmissionReview apiVersion " + review.getApiVersion() + " is not served: send " + V1
                    + " (or " + V1BETA1 + ")");
        }
        if (review.getRequest() == null) {
            return new Parsed.Bad("AdmissionReview has no request");
        }
        if (review.getRequest().getUid() == null || review.getRequest().getUid().isEmpty()) {
            return new Parsed.Bad("AdmissionReview request has no uid to answer with");
        }
        return new Parsed.Review(review);
    }

    AdmissionResponse respond(AdmissionReview review) {
        var request = review.getRequest();
        String uid = request.getUid();
        if (!(request.getObject() instanceof Pod pod)) {
            return new AdmissionResponseBuilder()
                    .withUid(uid)
                    .withAllowed(false)
                    .withStatus(new StatusBuilder()
                            .withCode(400)
                            .withMessage("the review carries no Pod")
                            .build())
                    .build();
        }
        List<String> warnings = new ArrayList<>();
        if (optedOut(pod)) {
            List<String> requested = requestedManaged(pod);
            if (requested.isEmpty()) {
                return new AdmissionResponseBuilder()
                        .withUid(uid)
                        .withAllowed(true)
                        .build();
            }
            warnings.add("label " + OPT_OUT_LABEL + "=ignore does not exempt pods that request devices ("
                    + String.join(", ", requested) + "): this pod was reviewed like any other");
        }
        String namespace =
                request.getNamespace() != null && !request.getNamespace().isEmpty()
                        ? request.getNamespace()
                        : pod.getMetadata() == null ? null : pod.getMetadata().getNamespace();
        var b = new AdmissionResponseBuilder().withUid(uid).withWarnings(warnings.isEmpty() ? null : warnings);
        return switch (rules.review(pod, namespace)) {
            case AdmissionRules.Verdict.Denied d -> {
                LOG.info("denied pod {}/{}: {}", request.getNamespace(), name(pod), d.message());
                yield b.withAllowed(false)
                        .withStatus(new StatusBuilder()
                                .withCode(403)
                                .withReason("Forbidden")
                                .withMessage(d.message())
                                .build())
                        .build();
            }
            case AdmissionRules.Verdict.Allowed a -> {
                var patch = JsonDiff.asJson(
                        SERIALIZATION.convertValue(pod, tools.jackson.databind.JsonNode.class),
                        SERIALIZATION.convertValue(a.pod(), tools.jackson.databind.JsonNode.class));
                b.withAllowed(true);
                if (!patch.isEmpty()) {
                    b.withPatchType("JSONPatch")
                            .withPatch(Base64.getEncoder()
                                    .encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
                }
                yield b.build();
            }
        };
    }

    private static boolean optedOut(Pod pod) {
        Map<String, String> labels =
                pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
        return labels != null && ProtocolKeys.WEBHOOK_IGNORE.equals(labels.get(OPT_OUT_LABEL));
    }

    /** The managed resources any container of {@code pod} names in its limits or requests, sorted. */
    List<String> requestedManaged(Pod pod) {
        var found = new TreeSet<String>();
        var spec = pod.getSpec();
        if (spec == null) {
            return List.of();
        }
        var containers = new ArrayList<Container>();
        if (spec.getInitContainers() != null) {
            containers.addAll(spec.getInitContainers());
        }
        if (spec.getContainers() != null) {
            containers.addAll(spec.getContainers());
        }
        for (Container c : containers) {
            if (c.getResources() != null) {
                found.addAll(named(c.getResources().getLimits()));
                found.addAll(named(c.getResources().getRequests()));
            }
        }
        return List.copyOf(found);
    }

    private List<String> named(Map<String, Quantity> quantities) {
        return quantities == null
                ? List.of()
                : quantities.keySet().stream()
                        .filter(managedResources::contains)
                        .toList();
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
