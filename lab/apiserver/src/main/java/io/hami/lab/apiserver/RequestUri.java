package io.hami.lab.apiserver;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** A request's path and query parameters, kept raw so the request can be passed on with some parameters removed. */
record RequestUri(String path, List<Param> params) {

    record Param(String name, String rawValue) {

        String value() {
            return URLDecoder.decode(rawValue, StandardCharsets.UTF_8);
        }
    }

    static final Set<String> SELECTORS = Set.of("labelSelector", "fieldSelector");

    static RequestUri parse(String pathAndQuery) {
        int question = pathAndQuery.indexOf('?');
        if (question < 0) {
            return new RequestUri(pathAndQuery, List.of());
        }
        List<Param> params = new ArrayList<>();
        for (String pair : pathAndQuery.substring(question + 1).split("&")) {
            if (!pair.isEmpty()) {
                int equal = pair.indexOf('=');
                String name = URLDecoder.decode(equal < 0 ? pair : pair.substring(0, equal), StandardCharsets.UTF_8);
                params.add(new Param(name, equal < 0 ? "" : pair.substring(equal + 1)));
            }
        }
        return new RequestUri(pathAndQuery.substring(0, question), List.copyOf(params));
    }

    Optional<String> param(String name) {
        return params.stream()
                .filter(p -> p.name().equals(name))
                .map(Param::value)
                .findFirst();
    }

    boolean isWatch() {
        return flag("watch").orElse(false);
    }

    /**
     * A boolean parameter as kube-apiserver reads it (Go's {@code strconv.ParseBool}: the Python client sends
     * {@code watch=True}); empty when absent or not a boolean.
     */
    Optional<Boolean> flag(String name) {
        return param(name).flatMap(value -> switch (value) {
            case "1", "t", "T", "true", "TRUE", "True" -> Optional.of(true);
            case "0", "f", "F", "false", "FALSE", "False" -> Optional.of(false);
            default -> Optional.empty();
        });
    }

    boolean hasSelectors() {
        return params.stream().anyMatch(p -> SELECTORS.contains(p.name()));
    }

    /** The path and query without the named parameters. */
    String without(Set<String> names) {
        String query = params.stream()
                .filter(p -> !names.contains(p.name()))
                .map(p -> p.name() + "=" + p.rawValue())
                .collect(Collectors.joining("&"));
        return query.isEmpty() ? path : path + "?" + query;
    }
}
