package io.hami.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.config.DeviceConfigException;
import io.hami.protocol.config.DeviceConfigLoader;
import io.hami.protocol.spi.DeviceBackends;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The loader reads the fake vendor's section from its factory alone: the proof that config sections are open. */
class FakeVendorConfigTest {

    @Test
    void theFakeSectionIsReadAndReachesTheBackend() throws Exception {
        var loaded = DeviceConfigLoader.load(
                Path.of(getClass().getResource("/fake-device-config.yaml").toURI()), DeviceBackends.configSections());
        assertThat(loaded.warnings()).isEmpty();
        assertThat(loaded.config().section(FakeConfig.SECTION))
                .isEqualTo(new FakeConfig("fake.example.com/xpu-shared", 3));
        assertThat(DeviceBackends.load(loaded.config())
                        .byVendor(FakeKeys.VENDOR)
                        .orElseThrow()
                        .resources()
                        .count())
                .isEqualTo("fake.example.com/xpu-shared");
    }

    @Test
    void missingKeysTakeTheFakeDefaults() throws Exception {
        var loaded = DeviceConfigLoader.parse("fake:\n  tasksPerXpu: 10\n", "inline", DeviceBackends.configSections());
        assertThat(loaded.config().section(FakeConfig.SECTION)).isEqualTo(FakeConfig.DEFAULTS);
        assertThat(loaded.config()).isEqualTo(DeviceConfig.DEFAULTS);
        assertThat(DeviceConfig.DEFAULTS.section(FakeConfig.SECTION).resourceCountName())
                .isEqualTo(FakeKeys.COUNT);
    }

    @Test
    void errorsInTheFakeSectionNameTheKeyPath() {
        assertThatThrownBy(() -> DeviceConfigLoader.parse(
                        "fake:\n  tasksPerXpuu: 3\n", "f.yaml", DeviceBackends.configSections()))
                .isInstanceOf(DeviceConfigException.class)
                .hasMessage("device config f.yaml: unknown key fake.tasksPerXpuu");
        assertThatThrownBy(() -> DeviceConfigLoader.parse(
                        "fake:\n  tasksPerXpu: 0\n", "f.yaml", DeviceBackends.configSections()))
                .hasMessageContaining("key fake.tasksPerXpu: want an integer from 1");
        assertThatThrownBy(() -> DeviceConfigLoader.parse(
                        "fakes:\n  tasksPerXpu: 1\n", "f.yaml", DeviceBackends.configSections()))
                .hasMessageContaining("unknown key fakes (want ")
                .hasMessageContaining("fake");
    }
}
