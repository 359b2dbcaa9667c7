package io.hami.scheduler.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code --node-label-selector} (upstream's {@code k=v,k2=v2}): the labels a node must carry, each with that exact value,
 * for this scheduler to consider it. The node informer asks the API server for matching nodes only, so others are
 * neither indexed, handshaken nor offered. Empty: every node.
 *
 * @param labels label key to required value, in the order written
 */
public record NodeSelector(Map<String, String> labels) {
    /** Every node. */
    public static final NodeSelector ALL = new NodeSelector(Map.of());

    /** A label name part, and a label value (which may also be empty): at most 63 characters. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    /** A key's optional prefix: a DNS subdomain. */
    private static final Pattern PREFIX =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    public NodeSelector {
        labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }

    /**
     * Parses {@code k=v,k2=v2} as upstream's flag does (a later value of the same key wins); blank is every node.
     *
     * @throws IllegalArgumentException with a message for the operator when a pair or a label is malformed
     */
    public static NodeSelector parse(String text) {
        if (text == null || text.isBlank()) {
            return ALL;
        }
        var labels = new LinkedHashMap<String, String>();
        for (String pair : text.split(",", -1)) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(
                        "invalid --node-label-selector \"" + text + "\": \"" + pair + "\" is not key=value");
            }
            String key = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            String problem = keyProblem(key);
            if (problem == null && !value.isEmpty() && !NAME.matcher(value).matches()) {
                problem = "label value \"" + value + "\" must be at most 63 letters, digits, '-', '_' or '.',"
                        + " starting and ending with a letter or digit";
            }
            if (problem != null) {
                throw new IllegalArgumentException("invalid --node-label-selector \"" + text + "\": " + problem);
            }
            labels.put(key, value);
        }
        return new NodeSelector(labels);
    }

    private static String keyProblem(String key) {
        int slash = key.indexOf('/');
        String prefix = slash < 0 ? null : key.substring(0, slash);
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (prefix != null && (prefix.length() > 253 || !PREFIX.matcher(prefix).matches())) {
            return "label key prefix \"" + prefix + "\" must be a DNS subdomain (lower case letters, digits, '-'"
                    + " and '.')";
        }
        if (!NAME.matcher(name).matches()) {
            return "label key \"" + key + "\" must be [prefix/]name, the name at most 63 letters, digits, '-', '_'"
                    + " or '.', starting and ending with a letter or digit";
        }
        return null;
    }

    public boolean all() {
        return labels.isEmpty();
    }

    /** Whether a node with {@code nodeLabels} (null: none) is selected. */
    public boolean matches(Map<String, String> nodeLabels) {
        Map<String, String> have = nodeLabels == null ? Map.of() : nodeLabels;
        return labels.entrySet().stream().allMatch(e -> e.getValue().equals(have.get(e.getKey())));
    }

    /** As written on the command line, and as the API server's {@code labelSelector}: {@code k=v,k2=v2}. */
    @Override
    public String toString() {
        return labels.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    }
}
