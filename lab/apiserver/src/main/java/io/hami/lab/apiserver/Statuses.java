package io.hami.lab.apiserver;

import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Responses in the API server's wire form: JSON bodies and {@code meta/v1 Status} objects with the right reason. */
final class Statuses {

    private Statuses() {}

    private static MockResponse json(int code, String body) {
        return new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", "application/json")
                .setBody(body);
    }

    static MockResponse json(int code, JsonNode body) {
        return json(code, Json.write(body));
    }

    static MockResponse success(int code) {
        ObjectNode status = status(code);
        status.put("status", "Success");
        return json(code, status);
    }

    static MockResponse failure(int code, String message) {
        ObjectNode status = status(code);
        status.put("status", "Failure");
        status.put("message", message);
        status.put("reason", reason(code, message));
        return json(code, status);
    }

    /** The body of a response as text; empty when it has none. */
    static String body(MockResponse response) {
        return response.getBody() == null ? "" : new String(response.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    /** The {@code StatusReason} the API server gives for a code (apimachinery {@code errors.go}). */
    private static String reason(int code, String message) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 409 -> message.contains("already exists") ? "AlreadyExists" : "Conflict";
            case 410 -> "Expired";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> code >= 500 ? "InternalError" : "Unknown";
        };
    }

    private static ObjectNode status(int code) {
        ObjectNode status = Json.object();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("code", code);
        return status;
    }
}
