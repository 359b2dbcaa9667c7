package io.hami.protocol.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generic reading, with two sections of this test's own (the vendors' sections are tested in their modules and,
 * all four together on an upstream-style file, in cli's DeviceConfigLoaderTest).
 */
class DeviceConfigLoaderTest {

    record Alpha(String name, int factor, boolean on, double scale, String level, String policy, long big) {
        static final Alpha DEFAULTS = new Alpha("alpha.example.com/x", 1, false, 1.0, "", "default", 0);
    }

    record Beta(String name) {
        static final Beta DEFAULTS = new Beta("beta.example.com/y");
    }

    static final ConfigSection<Alpha> ALPHA = new ConfigSection<>() {
        @Override
        public String name() {
            return "alpha";
        }

        @Override
        public Alpha defaults() {
            return Alpha.DEFAULTS;
        }

        @Override
        public Alpha read(ConfigReader r) throws DeviceConfigException {
            var d = Alpha.DEFAULTS;
            var a = new Alpha(
                    r.string("name", d.name()),
                    r.int32("factor", d.factor(), 1),
                    r.bool("on", d.on()),
                    r.positive("scale", d.scale()),
                    r.scalarText("level", d.level()),
                    r.oneOf("policy", d.policy(), List.of("default", "force")),
                    r.int64("big", d.big()));
            r.ignore(Set.of("legacyKey"), "(legacy) is not supported by hami-java");
            return a;
        }
    };

    static final ConfigSection<Beta> BETA = new ConfigSection<>() {
        @Override
        public String name() {
            return "beta";
        }

        @Override
        public Beta defaults() {
            return Beta.DEFAULTS;
        }

        @Override
        public Beta read(ConfigReader r) throws DeviceConfigException {
            return new Beta(r.string("name", Beta.DEFAULTS.name()));
        }
    };

    static final List<ConfigSection<?>> SECTIONS = List.of(BETA, ALPHA);

    static DeviceConfigLoader.Loaded parse(String yaml) throws DeviceConfigException {
        return DeviceConfigLoader.parse(yaml, "f.yaml", SECTIONS);
    }

    @Test
    void readsEachSectionWithItsParserAndWarnsAboutWhatItIgnores(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("device-config.yaml");
        Files.writeString(file, """
                alpha:
                  name: " alpha.example.com/z "
                  factor: 3
                  on: true
                  scale: 2
                  level: 1
                  policy: force
                  big: 9000000000
                  legacyKey: [a]
                metax:
                  resourceCountName: metax-tech.com/gpu
                beta:
                """);
        var loaded = DeviceConfigLoader.load(file, SECTIONS);
        assertThat(loaded.config().section(ALPHA))
                .isEqualTo(new Alpha("alpha.example.com/z", 3, true, 2.0, "1", "force", 9_000_000_000L));
        assertThat(loaded.config().section(BETA)).isEqualTo(Beta.DEFAULTS);
        assertThat(loaded.warnings())
                .containsExactlyInAnyOrder(
                        "device config " + file + ": section metax is for a vendor hami-java does not support; ignored",
                        "device config " + file + ": alpha.legacyKey (legacy) is not supported by hami-java; ignored");
    }

    @Test
    void aConfigWithTheDefaultValuesEqualsTheDefaults() throws Exception {
        var loaded = parse("alpha:\n  factor: 1\nbeta:\n  name: beta.example.com/y\n");
        assertThat(loaded.config()).isEqualTo(DeviceConfig.DEFAULTS);
        assertThat(DeviceConfig.DEFAULTS.section(ALPHA)).isSameAs(Alpha.DEFAULTS);
        var changed = DeviceConfig.DEFAULTS.with(BETA, new Beta("b/z"));
        assertThat(changed.section(BETA).name()).isEqualTo("b/z");
        assertThat(changed.with(BETA, Beta.DEFAULTS)).isEqualTo(DeviceConfig.DEFAULTS);
    }

    @Test
    void unknownKeysAreErrorsNamingTheKeyPath() {
        assertThatThrownBy(() -> parse("alpha:\n  nmae: x\n"))
                .isInstanceOf(DeviceConfigException.class)
                .hasMessage("device config f.yaml: unknown key alpha.nmae");
        assertThatThrownBy(() -> parse("alpah:\n  a: 1\nalpha: {}\n"))
                .hasMessage("device config f.yaml: unknown key alpah (want alpha or beta)");
    }

    @Test
    void wrongTypesAreErrorsNamingTheKeyAndTheValue() {
        assertThatThrownBy(() -> parse("alpha:\n  factor: abc\n"))
                .hasMessage("device config f.yaml: key alpha.factor: want an integer, got \"abc\"");
        assertThatThrownBy(() -> parse("alpha:\n  factor: 0\n"))
                .hasMessageContaining("key alpha.factor: want an integer from 1");
        assertThatThrownBy(() -> parse("alpha:\n  on: yes-please\n"))
                .hasMessageContaining("key alpha.on: want true or false");
        assertThatThrownBy(() -> parse("alpha:\n  scale: -1\n"))
                .hasMessageContaining("key alpha.scale: want a positive number");
        assertThatThrownBy(() -> parse("alpha:\n  name: [a]\n"))
                .hasMessageContaining("key alpha.name: want a string, got a list");
        assertThatThrownBy(() -> parse("beta: [a, b]\n")).hasMessageContaining("key beta: want a mapping, got a list");
        assertThatThrownBy(() -> parse("alpha:\n  policy: sometimes\n"))
                .hasMessageContaining("key alpha.policy: want one of [default, force]");
    }

    @Test
    void emptyOrBrokenFilesAreClearErrors(@TempDir Path dir) {
        assertThatThrownBy(() -> parse("")).hasMessageContaining("all configurations are empty");
        assertThatThrownBy(() -> parse("alpha: {}\nbeta:\n"))
                .hasMessage("device config f.yaml: all configurations are empty (want at least one of alpha, beta)");
        assertThatThrownBy(() -> parse("alpha: [\n")).hasMessageStartingWith("device config f.yaml is not valid YAML");
        assertThatThrownBy(() -> parse("- alpha\n")).hasMessageContaining("must be a mapping of vendor sections");
        assertThatThrownBy(() -> DeviceConfigLoader.load(dir.resolve("missing.yaml"), SECTIONS))
                .hasMessageContaining("cannot read device config");
    }
}
