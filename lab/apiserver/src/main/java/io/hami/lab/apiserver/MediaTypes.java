package io.hami.lab.apiserver;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Content negotiation as kube-apiserver does it, for the one media type served here: JSON. A client may ask for
 * protobuf first (client-go's default is {@code application/vnd.kubernetes.protobuf,application/json}) and gets JSON;
 * one that accepts nothing JSON can read gets 406, and a body in another format 415, each with a {@code Status} naming
 * what is served, in kube-apiserver's words ({@code apimachinery}'s {@code negotiation} errors), instead of a JSON
 * answer the client would fail to decode as protobuf.
 */
final class MediaTypes {

    static final String JSON = "application/json";

    /** The patch formats applied here (a strategic merge patch as a merge patch; no server-side apply). */
    static final List<String> PATCHES = List.of(
            "application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json");

    private MediaTypes() {}

    /** The 406 message, empty when {@code accept} (a request's Accept header, null when absent) allows JSON. */
    static Optional<String> notAcceptable(String accept) {
        if (accept == null || accept.isBlank()) {
            return Optional.empty();
        }
        boolean json = Arrays.stream(accept.split(","))
                .map(MediaTypes::withoutParameters)
                .anyMatch(type -> type.equals(JSON) || type.equals("application/*") || type.equals("*/*"));
        // kube-apiserver v1.37's words, naming the types (and the watch stream types) served.
        return json
                ? Optional.empty()
                : Optional.of(
                        "406: Not Acceptable\n\nAvailable representations: " + JSON + ", " + JSON + ";stream=watch");
    }

    /**
     * The 415 message, empty when a body of {@code contentType} (null when absent: JSON, as kube-apiserver takes it)
     * can be read by {@code method}: JSON, and for PATCH one of {@link #PATCHES}.
     */
    static Optional<String> unsupportedBody(String method, String contentType) {
        List<String> accepted = method.equals("PATCH") ? PATCHES : List.of(JSON);
        if (contentType == null || contentType.isBlank()) {
            return Optional.empty();
        }
        return accepted.contains(withoutParameters(contentType))
                ? Optional.empty()
                : Optional.of("the body of the request was in an unknown format - accepted media types include: "
                        + String.join(", ", accepted));
    }

    private static String withoutParameters(String mediaRange) {
        int semicolon = mediaRange.indexOf(';');
        return (semicolon < 0 ? mediaRange : mediaRange.substring(0, semicolon))
                .strip()
                .toLowerCase(Locale.ROOT);
    }
}
