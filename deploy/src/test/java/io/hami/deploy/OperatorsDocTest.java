package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.cli.Main;
import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.spi.DeviceBackends;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Label;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code docs/operators.md} against the code: every flag of every component command with its default, every
 * device-config key with its default, and every metric the running scheduler exposes with its labels are
 * documented, and nothing is documented that the code does not have.
 */
class OperatorsDocTest {
    private static final Path DOC = DockerfilesTest.REPOSITORY.resolve("docs/operators.md");
    private static final Pattern ROW_KEY = Pattern.compile("^\\| `([^`]+)`");
    /** Section heading to its lines, headings of every level, in order. */
    private static final Map<String, List<String>> SECTIONS = sections(Manifests.read(DOC));

    private static Map<String, List<String>> sections(String text) {
        var out = new LinkedHashMap<String, List<String>>();
        List<String> current = new ArrayList<>();
        out.put("", current);
        for (String line : text.split("\n")) {
            if (line.startsWith("#")) {
                current = new ArrayList<>();
                out.put(line.replaceFirst("^#+ ", ""), current);
            } else {
                current.add(line);
            }
        }
        return out;
    }

    private static List<String> section(String heading) {
        var lines = SECTIONS.get(heading);
        assertThat(lines).as("docs/operators.md section \"" + heading + "\"").isNotNull();
        return lines;
    }

    /** The table row of {@code key} in {@code lines}: the line starting {@code | `key`}. */
    private static Optional<String> row(List<String> lines, String key) {
        return lines.stream().filter(l -> l.startsWith("| `" + key + "`")).findFirst();
    }

    /** The commands whose flags the reference lists, by their documentation heading. */
    private static Map<String, List<CommandLine>> commands() {
        CommandLine hami = Main.commandLine();
        var out = new LinkedHashMap<String, List<CommandLine>>();
        out.put("`hami scheduler`", List.of(hami.getSubcommands().get("scheduler")));
        if (hami.getSubcommands().containsKey("plugin")) {
            out.put("`hami plugin`", List.of(hami.getSubcommands().get("plugin")));
        }
        CommandLine inspect = hami.getSubcommands().get("inspect");
        out.put(
                "`hami inspect nodes` and `hami inspect pods`",
                List.of(
                        inspect.getSubcommands().get("nodes"),
                        inspect.getSubcommands().get("pods")));
        return out;
    }

    private static List<OptionSpec> documentable(CommandLine command) {
        return command.getCommandSpec().options().stream()
                .filter(o -> !o.usageHelp() && !o.versionHelp())
                .toList();
    }

    @Test
    void everyFlagIsDocumentedWithItsDefault() {
        commands().forEach((heading, commands) -> {
            List<String> lines = section(heading);
            for (CommandLine command : commands) {
                for (OptionSpec option : documentable(command)) {
                    String name = option.longestName();
                    Optional<String> row = row(lines, name);
                    assertThat(row).as(heading + ": flag " + name).isPresent();
                    if (option.defaultValue() != null) {
                        assertThat(row.get())
                                .as(heading + ": default of " + name)
                                .contains("| `" + option.defaultValue() + "`");
                    }
                }
            }
        });
    }

    @Test
    void everyDocumentedFlagExists() {
        commands().forEach((heading, commands) -> {
            var names = new TreeSet<String>();
            commands.forEach(c -> documentable(c).forEach(o -> names.add(o.longestName())));
            for (String line : section(heading)) {
                Matcher m = ROW_KEY.matcher(line);
                if (m.find() && m.group(1).startsWith("-")) {
                    assertThat(names).as(heading + " documents " + m.group(1)).contains(m.group(1));
                }
            }
        });
    }

    @Test
    void everyDeviceConfigKeyIsDocumentedWithItsDefault() throws Exception {
        for (ConfigSection<?> vendor : DeviceBackends.configSections()) {
            List<String> lines = section("`" + vendor.name() + "`");
            Object defaults = vendor.defaults();
            var keys = new TreeSet<String>();
            for (var key : keysAndDefaults(defaults).entrySet()) {
                keys.add(key.getKey());
                Object value = key.getValue();
                String shown = value instanceof String text && text.isEmpty() ? "\"\"" : String.valueOf(value);
                assertThat(row(lines, key.getKey()))
                        .as(vendor.name() + "." + key.getKey())
                        .isPresent();
                assertThat(row(lines, key.getKey()).get())
                        .as("default of " + vendor.name() + "." + key.getKey())
                        .startsWith("| `" + key.getKey() + "` | `" + shown + "` |");
            }
            for (String line : lines) {
                Matcher m = ROW_KEY.matcher(line);
                if (m.find()) {
                    assertThat(keys)
                            .as(vendor.name() + " documents " + m.group(1))
                            .contains(m.group(1));
                }
            }
        }
    }

    /** A section's keys and defaults: its record's components, a nested record's in its place (NVIDIA groups them). */
    private static Map<String, Object> keysAndDefaults(Object record) throws ReflectiveOperationException {
        var keys = new LinkedHashMap<String, Object>();
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            Object value = c.getAccessor().invoke(record);
            if (value instanceof Record nested) {
                keys.putAll(keysAndDefaults(nested));
            } else {
                keys.put(c.getName(), value);
            }
        }
        return keys;
    }

    @Test
    void everyMetricOfTheRunningSchedulerIsDocumentedWithItsLabels() throws Exception {
        List<String> lines = new ArrayList<>(section("Device gauges (upstream HAMi's names and labels)"));
        lines.addAll(section("Quota gauges (upstream HAMi's names and labels)"));
        lines.addAll(section("Scheduler operation"));
        var metrics = ServedMetrics.scheduler();
        assertThat(metrics.size()).as("metric families of the run").isPositive();
        for (MetricSnapshot metric : metrics) {
            String name = ServedMetrics.exposed(metric);
            Optional<String> row = row(lines, name);
            assertThat(row).as("metric " + name).isPresent();
            for (DataPointSnapshot point : metric.getDataPoints()) {
                for (Label label : point.getLabels()) {
                    assertThat(row.get()).as(name + " label " + label.getName()).contains("`" + label.getName() + "`");
                }
            }
        }
    }

    @Test
    void everyPluginMetricIsDocumentedWithItsLabelsAndNothingElse() {
        List<String> lines = section("Device plugin metrics");
        var names = new TreeSet<String>();
        for (MetricSnapshot metric : ServedMetrics.plugin()) {
            String name = ServedMetrics.exposed(metric);
            names.add(name);
            Optional<String> row = row(lines, name);
            assertThat(row).as("plugin metric " + name).isPresent();
            for (DataPointSnapshot point : metric.getDataPoints()) {
                for (Label label : point.getLabels()) {
                    assertThat(row.get()).as(name + " label " + label.getName()).contains("`" + label.getName() + "`");
                }
            }
        }
        for (String line : lines) {
            Matcher m = ROW_KEY.matcher(line);
            if (m.find()) {
                assertThat(names).as("documented plugin metric " + m.group(1)).contains(m.group(1));
            }
        }
    }

    @Test
    void everyNodeMonitorMetricIsDocumentedWithItsLabelsAndNothingElse() {
        List<String> lines = section("Node monitor");
        var names = new TreeSet<String>();
        for (MetricSnapshot metric : ServedMetrics.monitor()) {
            String name = ServedMetrics.exposed(metric);
            names.add(name);
            Optional<String> row = row(lines, name);
            assertThat(row).as("node monitor metric " + name).isPresent();
            for (DataPointSnapshot point : metric.getDataPoints()) {
                for (Label label : point.getLabels()) {
                    // "same" rows repeat the labels of the row above
                    assertThat(row.get().contains("`" + label.getName() + "`")
                                    || row.get().contains("| same |"))
                            .as(name + " label " + label.getName())
                            .isTrue();
                }
            }
        }
        for (String line : lines) {
            Matcher m = ROW_KEY.matcher(line);
            if (m.find() && !m.group(1).startsWith("-")) {
                assertThat(names)
                        .as("documented node monitor metric " + m.group(1))
                        .contains(m.group(1));
            }
        }
    }

    @Test
    void everyDocumentedMetricExists() throws Exception {
        var names = new TreeSet<String>();
        ServedMetrics.scheduler().forEach(m -> names.add(ServedMetrics.exposed(m)));
        for (String heading : List.of(
                "Device gauges (upstream HAMi's names and labels)",
                "Quota gauges (upstream HAMi's names and labels)",
                "Scheduler operation")) {
            for (String line : section(heading)) {
                Matcher m = ROW_KEY.matcher(line);
                if (m.find()) {
                    assertThat(names).as("documented metric " + m.group(1)).contains(m.group(1));
                }
            }
        }
    }
}
