package io.hami.e2e.support;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One request a client sent, as kube-apiserver's authorizer sees it (its {@code RequestInfo}): verb, API group,
 * resource with subresource ({@code nodes/status}), namespace, name. Non-resource paths (discovery, /version) have
 * none; {@link #access()} is empty for them.
 */
public record ApiCall(String method, URI uri) {

    /** The authorizer's view of a resource request. */
    public record Access(String verb, String group, String resource, String namespace, String name) {
        @Override
        public String toString() {
            return verb + " " + (group.isEmpty() ? "" : group + "/") + resource
                    + (namespace.isEmpty() ? "" : " in " + namespace) + (name.isEmpty() ? "" : " named " + name);
        }
    }

    /** GET of an object is get, of a collection list, with watch=true watch; POST create, PUT update, PATCH patch. */
    public Optional<Access> access() {
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
            return Optional.empty();
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
        boolean watch = uri.getRawQuery() != null
                && Arrays.asList(uri.getRawQuery().split("&")).contains("watch=true");
        String verb = switch (method.toUpperCase(Locale.ROOT)) {
            case "GET", "HEAD" -> watch ? "watch" : name.isEmpty() ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default -> method;
        };
        return Optional.of(new Access(verb, group, resource, namespace, name));
    }

    @Override
    public String toString() {
        return method + " " + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }
}
