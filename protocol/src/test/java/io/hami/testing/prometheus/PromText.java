package io.hami.testing.prometheus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A metrics exposition as Prometheus reads it: parsed by the Python client's own text parser
 * ({@code prometheus_client.parser}, Debian's python3-prometheus-client), an implementation independent of the Java
 * client that wrote it, so a malformed line, a bad label escape or a misnamed series fails the test.
 */
public final class PromText {
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final String SCRIPT = """
            import json, math, sys
            from prometheus_client.parser import text_string_to_metric_families
            for family in text_string_to_metric_families(sys.stdin.read()):
                for s in family.samples:
                    v = s.value
                    print(json.dumps([s.name, s.labels, "NaN" if math.isnan(v) else ("+Inf" if v == math.inf else v)]))
            """;
    private static final ObjectMapper JSON = new ObjectMapper();

    private PromText() {}

    /** One sample line: a metric name (with its _bucket/_count/_sum/_total suffix), labels and value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    /** Every sample of {@code exposition}; fails when the parser rejects it. */
    public static List<Sample> parse(String exposition) {
        if (!Files.isExecutable(PYTHON)) {
            throw new IllegalStateException("no " + PYTHON + ": run scripts/install-test-deps.sh");
        }
        try {
            Process p = new ProcessBuilder(PYTHON.toString(), "-c", SCRIPT).start();
            try (var in = p.getOutputStream()) {
                in.write(exposition.getBytes(StandardCharsets.UTF_8));
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                if (err.contains("No module named 'prometheus_client'")) {
                    throw new IllegalStateException(
                            "python3-prometheus-client is not installed: run scripts/install-test-deps.sh");
                }
                throw new AssertionError("the Prometheus text parser rejected the exposition: " + err.strip());
            }
            List<Sample> samples = new ArrayList<>();
            for (String line : out.lines().toList()) {
                JsonNode row = JSON.readTree(line);
                Map<String, String> labels = new LinkedHashMap<>();
                row.get(1)
                        .properties()
                        .forEach(e -> labels.put(e.getKey(), e.getValue().asString()));
                JsonNode v = row.get(2);
                double value = v.isNumber()
                        ? v.asDouble()
                        : Double.parseDouble(v.asString().replace("+", ""));
                samples.add(new Sample(row.get(0).asString(), Map.copyOf(labels), value));
            }
            return List.copyOf(samples);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The samples named {@code name} whose labels include every {@code key, value} pair given. */
    public static List<Sample> find(List<Sample> samples, String name, String... labelPairs) {
        if (labelPairs.length % 2 != 0) {
            throw new IllegalArgumentException("label pairs come as key, value: " + List.of(labelPairs));
        }
        return samples.stream()
                .filter(s -> s.name().equals(name))
                .filter(s -> {
                    for (int i = 0; i < labelPairs.length; i += 2) {
                        if (!labelPairs[i + 1].equals(s.labels().get(labelPairs[i]))) {
                            return false;
                        }
                    }
                    return true;
                })
                .toList();
    }

    /** The value of the one sample that matches; fails naming the metric when none or several do. */
    public static double value(List<Sample> samples, String name, String... labelPairs) {
        List<Sample> found = find(samples, name, labelPairs);
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " samples of " + name + " with " + List.of(labelPairs)
                    + " (want exactly one); samples of that name: " + find(samples, name));
        }
        return found.getFirst().value();
    }
}
