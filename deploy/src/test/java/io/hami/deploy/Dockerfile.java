package io.hami.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A Dockerfile read into its stages and instructions: enough to check what each image is built from and runs. */
record Dockerfile(Path path, List<Stage> stages) {
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)}");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One instruction, its keyword upper-cased and its continuation lines joined. */
    record Instruction(String keyword, String arguments) {}

    /** @param from the base image, build arguments substituted; {@code alias} empty when the stage has no name */
    record Stage(String from, String alias, List<Instruction> instructions) {

        List<Instruction> all(String keyword) {
            return instructions.stream()
                    .filter(i -> i.keyword().equals(keyword))
                    .toList();
        }
    }

    static Dockerfile read(Path path) {
        var args = new HashMap<String, String>();
        var stages = new ArrayList<Stage>();
        List<Instruction> current = null;
        var logical = new StringBuilder();
        for (String line : Manifests.read(path).split("\n")) {
            if (logical.isEmpty() && (line.isBlank() || line.stripLeading().startsWith("#"))) {
                continue;
            }
            if (line.endsWith("\\")) {
                logical.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            logical.append(line);
            String text = logical.toString().strip();
            logical.setLength(0);
            int space = text.indexOf(' ');
            String keyword = text.substring(0, space).toUpperCase(Locale.ROOT);
            String rest = text.substring(space + 1).strip();
            if (keyword.equals("ARG") && current == null) {
                int eq = rest.indexOf('=');
                args.put(eq < 0 ? rest : rest.substring(0, eq), eq < 0 ? "" : rest.substring(eq + 1));
            } else if (keyword.equals("FROM")) {
                String[] words = rest.split("\\s+");
                current = new ArrayList<>();
                stages.add(new Stage(substitute(words[0], args), words.length == 3 ? words[2] : "", current));
            } else if (current == null) {
                throw new IllegalStateException(path + ": " + keyword + " before the first FROM");
            } else {
                current.add(new Instruction(keyword, rest));
            }
        }
        return new Dockerfile(path, List.copyOf(stages));
    }

    private static String substitute(String text, Map<String, String> args) {
        Matcher m = VARIABLE.matcher(text);
        return m.replaceAll(r -> Matcher.quoteReplacement(args.getOrDefault(r.group(1), r.group())));
    }

    Stage last() {
        return stages.getLast();
    }

    Stage stage(String alias) {
        return stages.stream()
                .filter(s -> s.alias().equals(alias))
                .findFirst()
                .orElseThrow(() -> new AssertionError(path + " has no stage " + alias));
    }

    /** The final stage's ENTRYPOINT in exec form. */
    List<String> entrypoint() {
        var entrypoints = last().all("ENTRYPOINT");
        if (entrypoints.size() != 1) {
            throw new AssertionError(path + " must have one ENTRYPOINT in its final stage");
        }
        JsonNode array = JSON.readTree(entrypoints.getFirst().arguments());
        return array.valueStream().map(JsonNode::asString).toList();
    }
}
