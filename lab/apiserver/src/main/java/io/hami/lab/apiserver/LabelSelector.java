package io.hami.lab.apiserver;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector in its string form, equality- and set-based ({@code k}, {@code !k}, {@code k=v},
 * {@code k==v}, {@code k!=v}, {@code k in (a,b)}, {@code k notin (a,b)}, {@code k>1}, {@code k<1}), evaluated with
 * the API server's rules: {@code !=} and {@code notin} also match objects without the key.
 */
record LabelSelector(List<Requirement> requirements) {

    enum Operator {
        EXISTS,
        DOES_NOT_EXIST,
        IN,
        NOT_IN,
        GREATER_THAN,
        LESS_THAN
    }

    record Requirement(String key, Operator operator, Set<String> values) {

        boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (operator) {
                case EXISTS -> value != null;
                case DOES_NOT_EXIST -> value == null;
                case IN -> value != null && values.contains(value);
                case NOT_IN -> value == null || !values.contains(value);
                case GREATER_THAN -> value != null && isInteger(value) && Long.parseLong(value) > bound();
                case LESS_THAN -> value != null && isInteger(value) && Long.parseLong(value) < bound();
            };
        }

        private long bound() {
            return Long.parseLong(values.iterator().next());
        }
    }

    private static final String NAME = "([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)";
    private static final Pattern KEY = Pattern.compile("([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?" + NAME);
    private static final Pattern VALUE = Pattern.compile("(" + NAME + ")?");
    private static final Pattern SET_TERM = Pattern.compile("(\\S+)\\s+(in|notin)\\s*\\((.*)\\)");
    private static final Pattern COMPARISON = Pattern.compile("([^!=<>\\s]+)\\s*(==|=|!=|>|<)\\s*(\\S*)");

    static final LabelSelector EVERYTHING = new LabelSelector(List.of());

    boolean matches(Map<String, String> labels) {
        return requirements.stream().allMatch(requirement -> requirement.matches(labels));
    }

    /** Parses the {@code labelSelector} query value; an empty string selects everything. */
    static LabelSelector parse(String text) {
        List<Requirement> requirements = new ArrayList<>();
        for (String term : splitTopLevel(text)) {
            String trimmed = term.trim();
            if (trimmed.isEmpty()) {
                if (text.isBlank()) {
                    continue;
                }
                throw invalid(text, "empty requirement");
            }
            requirements.add(requirement(trimmed, text));
        }
        return new LabelSelector(List.copyOf(requirements));
    }

    private static Requirement requirement(String term, String text) {
        Matcher set = SET_TERM.matcher(term);
        if (set.matches()) {
            Set<String> values = new LinkedHashSet<>();
            for (String value : set.group(3).split(",", -1)) {
                values.add(value(value.trim(), text));
            }
            if (set.group(3).isBlank()) {
                throw invalid(text, "for 'in', 'notin' operators, values set can't be empty");
            }
            Operator operator = set.group(2).equals("in") ? Operator.IN : Operator.NOT_IN;
            return new Requirement(key(set.group(1), text), operator, Set.copyOf(values));
        }
        if (term.startsWith("!")) {
            return new Requirement(key(term.substring(1).trim(), text), Operator.DOES_NOT_EXIST, Set.of());
        }
        Matcher comparison = COMPARISON.matcher(term);
        if (comparison.matches()) {
            String key = key(comparison.group(1), text);
            String value = value(comparison.group(3), text);
            return switch (comparison.group(2)) {
                case "=", "==" -> new Requirement(key, Operator.IN, Set.of(value));
                case "!=" -> new Requirement(key, Operator.NOT_IN, Set.of(value));
                case ">" -> new Requirement(key, Operator.GREATER_THAN, Set.of(integer(value, text)));
                default -> new Requirement(key, Operator.LESS_THAN, Set.of(integer(value, text)));
            };
        }
        return new Requirement(key(term, text), Operator.EXISTS, Set.of());
    }

    /** Splits on the commas between requirements, not on those inside {@code in (...)} value sets. */
    private static List<String> splitTopLevel(String text) {
        List<String> terms = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                terms.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw invalid(text, "unbalanced parentheses");
        }
        terms.add(text.substring(start));
        return terms;
    }

    private static String key(String key, String text) {
        if (!KEY.matcher(key).matches()) {
            throw invalid(text, "invalid label key \"" + key + "\"");
        }
        return key;
    }

    private static String value(String value, String text) {
        if (!VALUE.matcher(value).matches()) {
            throw invalid(text, "invalid label value \"" + value + "\"");
        }
        return value;
    }

    private static String integer(String value, String text) {
        if (!isInteger(value)) {
            throw invalid(text, "for 'Gt', 'Lt' operators, the value must be an integer");
        }
        return value;
    }

    private static boolean isInteger(String value) {
        return value.matches("-?\\d{1,18}");
    }

    private static BadRequestException invalid(String text, String why) {
        return new BadRequestException("unable to parse requirement: labelSelector \"" + text + "\": " + why);
    }
}
