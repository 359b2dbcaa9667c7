package io.hami.kube.client;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** API server errors as operators read them in logs, events and the extender's answers. */
public final class ApiErrors {
    /** fabric8's text when the request never got an answer (a reset connection, a timeout, an empty response). */
    private static final String GENERIC = "An error has occurred.";

    private ApiErrors() {}

    /**
     * The API server's message; for a request that got no answer, what went wrong on the way (the cause's message
     * instead of fabric8's "An error has occurred.").
     */
    public static String describe(KubernetesClientException e) {
        String message = e.getMessage();
        if (message != null && !message.isBlank() && !message.startsWith(GENERIC)) {
            return message;
        }
        // The deepest cause says it best ("Connection reset"); the wrappers above it repeat it with class names.
        String why = "no answer";
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) {
                why = c.getMessage();
            }
        }
        return "no answer from the API server (" + why + ")";
    }
}
