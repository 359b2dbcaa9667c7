package io.hami.deploy;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One API request as the API server's authorizer sees it (its {@code RequestInfo}): the verb derived from the HTTP
 * method and path, the API group, the resource with its subresource ({@code pods/binding}), the namespace and the
 * object name.
 *
 * @param namespace empty for cluster-scoped resources and for requests across all namespaces
 * @param name      empty for collection requests
 */
record ApiAccess(String verb, String group, String resource, String namespace, String name) {

    ApiAccess {
        Objects.requireNonNull(verb);
        Objects.requireNonNull(group);
        Objects.requireNonNull(resource);
        Objects.requireNonNull(namespace);
        Objects.requireNonNull(name);
    }

    /**
     * The access of {@code method} on {@code uri}, following the API server's rules: GET of a named object is
     * {@code get}, of a collection {@code list}, either with {@code watch=true} is {@code watch}; POST is
     * {@code create}, PUT {@code update}, PATCH {@code patch}; DELETE of a collection is {@code deletecollection}.
     *
     * @throws IllegalArgumentException for a path that is not a resource path (discovery, /version, ...)
     */
    static ApiAccess of(String method, URI uri) {
        List<String> parts = Arrays.stream(uri.getRawPath().split("/"))
                .filter(s -> !s.isEmpty())
                .map(s -> URLDecoder.decode(s, StandardCharsets.UTF_8))
                .toList();
        String group;
        List<String> rest;
        if (parts.size() >= 3 && parts.get(0).equals("api")) {
            group = "";
            rest = parts.subList(2, parts.size());
        } else if (parts.size() >= 4 && parts.get(0).equals("apis")) {
            group = parts.get(1);
            rest = parts.subList(3, parts.size());
        } else {
            throw new IllegalArgumentException("not a resource path: " + method + " " + uri);
        }
        String namespace = "";
        if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        String resource = rest.get(0);
        String name = rest.size() >= 2 ? rest.get(1) : "";
        if (rest.size() >= 3) {
            resource = resource + "/" + rest.get(2);
        }
        if (resource.equals("namespaces") && !namespace.isEmpty()) {
            throw new IllegalArgumentException("unexpected path: " + uri);
        }
        boolean watch = uri.getRawQuery() != null
                && Arrays.asList(uri.getRawQuery().split("&")).contains("watch=true");
        String verb = switch (method.toUpperCase(Locale.ROOT)) {
            case "GET", "HEAD" -> watch ? "watch" : name.isEmpty() ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default -> throw new IllegalArgumentException("unexpected method " + method + " " + uri);
        };
        return new ApiAccess(verb, group, resource, namespace, name);
    }

    @Override
    public String toString() {
        return verb + " " + (group.isEmpty() ? "" : group + "/") + resource
                + (namespace.isEmpty() ? "" : " in " + namespace) + (name.isEmpty() ? "" : " named " + name);
    }
}
