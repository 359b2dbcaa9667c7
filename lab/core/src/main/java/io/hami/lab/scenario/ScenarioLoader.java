package io.hami.lab.scenario;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.InvalidTypeIdException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads scenario files strictly: an unknown key, a value of the wrong type or a broken rule between the parts
 * ({@link ScenarioRules}) is an error that names the file, the key and the problem. Scenarios are found by path or
 * by name among those bundled from {@code lab/scenarios/}.
 */
public final class ScenarioLoader {
    private static final String BUNDLED = "/io/hami/lab/scenarios/";

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .addModule(new SimpleModule("lab-scenario")
                    .addDeserializer(Duration.class, new TextDeserializer<>(DurationText::parse))
                    .addDeserializer(Lifetime.class, new TextDeserializer<>(Lifetime::parse)))
            .build();

    private ScenarioLoader() {}

    /** A scenario file at {@code nameOrPath}, else the bundled scenario of that name. */
    public static Scenario resolve(String nameOrPath) throws ScenarioException {
        Path file = Path.of(nameOrPath);
        if (Files.isRegularFile(file)) {
            return load(file);
        }
        try (InputStream in = ScenarioLoader.class.getResourceAsStream(BUNDLED + nameOrPath + ".yaml")) {
            if (in == null) {
                throw new ScenarioException("no scenario file " + nameOrPath
                        + " and no bundled scenario of that name (bundled: " + String.join(", ", bundled()) + ")");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), nameOrPath + ".yaml");
        } catch (IOException e) {
            throw new ScenarioException("cannot read bundled scenario " + nameOrPath + ": " + e.getMessage());
        }
    }

    public static Scenario load(Path file) throws ScenarioException {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new ScenarioException("cannot read scenario " + file + ": " + e);
        }
    }

    public static Scenario parse(String yaml, String source) throws ScenarioException {
        Scenario scenario;
        try {
            scenario = YAML.readValue(yaml, Scenario.class);
        } catch (JacksonException e) {
            throw new ScenarioException("scenario " + source + ": " + explain(e));
        }
        if (scenario == null) {
            throw new ScenarioException("scenario " + source + " is empty");
        }
        List<String> problems = ScenarioRules.check(scenario);
        if (!problems.isEmpty()) {
            throw new ScenarioException("scenario " + source + ":\n  " + String.join("\n  ", problems));
        }
        return scenario;
    }

    /** The names of the bundled scenarios. */
    public static List<String> bundled() throws IOException {
        URI dir;
        try {
            var url = ScenarioLoader.class.getResource(BUNDLED);
            if (url == null) {
                return List.of();
            }
            dir = url.toURI();
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if (dir.getScheme().equals("jar")) {
            try (FileSystem jar = FileSystems.newFileSystem(dir, Map.of())) {
                return names(jar.getPath(BUNDLED));
            }
        }
        return names(Path.of(dir));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - ".yaml".length()))
                    .sorted()
                    .toList();
        }
    }

    /** One line naming the key and the problem, without Jackson's source excerpts. */
    private static String explain(JacksonException e) {
        String where = e instanceof DatabindException d ? path(d.getPath()) : "";
        String at = where.isEmpty() ? "" : " at " + where;
        return switch (e) {
            case UnrecognizedPropertyException u ->
                "unknown key \"" + u.getPropertyName() + "\"" + at + " (known keys: "
                        + u.getKnownPropertyIds().stream()
                                .map(Object::toString)
                                .sorted()
                                .collect(Collectors.joining(", "))
                        + ")";
            case InvalidTypeIdException t ->
                "unknown " + (where.isEmpty() ? "" : where + ".") + "type \"" + t.getTypeId() + "\" (known: "
                        + Arrays.stream(Fault.class
                                        .getAnnotation(JsonSubTypes.class)
                                        .value())
                                .map(JsonSubTypes.Type::name)
                                .collect(Collectors.joining(", "))
                        + ")";
            case InvalidFormatException f
            when f.getTargetType() != null && f.getTargetType().isEnum() ->
                "key " + where + ": \"" + f.getValue() + "\" is not one of "
                        + Arrays.stream(f.getTargetType().getEnumConstants())
                                .map(c -> c.toString().toLowerCase(Locale.ROOT))
                                .collect(Collectors.joining(", "));
            case InvalidFormatException f ->
                "key " + where + ": \"" + f.getValue() + "\" is not " + typeName(f.getTargetType());
            case MismatchedInputException m
            when m.getTargetType() != null ->
                "key " + where + ": want " + typeName(m.getTargetType()) + ": " + firstLine(m.getOriginalMessage());
            case DatabindException d -> (where.isEmpty() ? "" : "key " + where + ": ") + rootMessage(d);
            default -> "not valid YAML: " + firstLine(e.getOriginalMessage());
        };
    }

    private static String path(List<JacksonException.Reference> refs) {
        var b = new StringBuilder();
        for (JacksonException.Reference r : refs) {
            if (r.getPropertyName() != null) {
                if (!b.isEmpty()) {
                    b.append('.');
                }
                b.append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    private static String typeName(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "a mapping";
        }
        return "a " + type.getSimpleName();
    }

    /** A parse error from our own deserializers carries its message as the cause. */
    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t instanceof JacksonException j ? firstLine(j.getOriginalMessage()) : firstLine(t.getMessage());
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /** A value written as text in the file, read by {@code parser}, whose exception message says what is wrong. */
    private static final class TextDeserializer<T> extends ValueDeserializer<T> {
        private final java.util.function.Function<String, T> parser;

        TextDeserializer(java.util.function.Function<String, T> parser) {
            this.parser = parser;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext ctxt) {
            String text = p.getValueAsString();
            if (text == null) {
                return ctxt.reportInputMismatch(this, "want a string such as 20s, got %s", p.currentToken());
            }
            try {
                return parser.apply(text);
            } catch (IllegalArgumentException e) {
                return ctxt.reportInputMismatch(this, "%s", e.getMessage());
            }
        }
    }
}
