package io.hami.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.backend.cambricon.CambriconConfig;
import io.hami.backend.hygon.HygonConfig;
import io.hami.backend.mthreads.MthreadsConfig;
import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.protocol.config.DeviceConfigException;
import io.hami.protocol.config.DeviceConfigLoader;
import io.hami.protocol.spi.DeviceBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device config of the four vendors, read with the sections their modules contribute (the loader itself is
 * tested generically in protocol). {@code --device-config} reads files this way.
 */
class DeviceConfigLoaderTest {

    /** The shape of upstream's chart device-configmap (docs/upstream.md#device-config). */
    static final String UPSTREAM_STYLE = """
            nvidia:
              resourceCountName: nvidia.com/gpu
              resourceMemoryName: nvidia.com/gpumem
              resourceMemoryPercentageName: nvidia.com/gpumem-percentage
              resourceCoreName: nvidia.com/gpucores
              resourcePriorityName: nvidia.com/priority
              overwriteEnv: false
              defaultMemory: 0
              defaultCores: 0
              defaultGPUNum: 1
              memoryFactor: 1
              deviceSplitCount: 10
              deviceMemoryScaling: 1
              deviceCoreScaling: 1
              libCudaLogLevel: 1
              migProfileAllowlist:
                - models: ["A100"]
                  profiles: ["1g.5gb"]
            cambricon:
              resourceCountName: cambricon.com/vmlu
              resourceMemoryName: cambricon.com/mlu.smlu.vmemory
              resourceCoreName: cambricon.com/mlu.smlu.vcore
            hygon:
              resourceCountName: hygon.com/hcunum
              resourceMemoryName: hygon.com/hcumem
              resourceCoreName: hygon.com/hcucores
              memoryFactor: 2
            metax:
              resourceCountName: metax-tech.com/gpu
            mthreads:
              resourceCountName: mthreads.com/vgpu
              resourceMemoryName: mthreads.com/sgpu-memory
              resourceCoreName: mthreads.com/sgpu-core
            """;

    @Test
    void readsAnUpstreamStyleFileAndWarnsAboutWhatItIgnores(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("device-config.yaml");
        Files.writeString(file, UPSTREAM_STYLE);
        var loaded = load(file);
        assertThat(loaded.config().section(HygonConfig.SECTION).memoryFactor()).isEqualTo(2);
        assertThat(loaded.config().section(NvidiaConfig.SECTION).node().libCudaLogLevel())
                .isEqualTo("1");
        assertThat(loaded.config().section(NvidiaConfig.SECTION).node().deviceMemoryScaling())
                .isEqualTo(1.0);
        assertThat(loaded.config().section(CambriconConfig.SECTION)).isEqualTo(CambriconConfig.DEFAULTS);
        assertThat(loaded.warnings())
                .hasSize(2)
                .anySatisfy(w -> assertThat(w).contains("section metax"))
                .anySatisfy(w -> assertThat(w).contains("nvidia.migProfileAllowlist"));
    }

    @Test
    void missingKeysTakeTheDefaultsOfD1() throws Exception {
        var loaded = parse("nvidia:\n  defaultMemory: 2048\n", "inline");
        assertThat(loaded.config().section(NvidiaConfig.SECTION).requests().defaultMemory())
                .isEqualTo(2048);
        assertThat(loaded.config().section(NvidiaConfig.SECTION).resources().resourceCountName())
                .isEqualTo("nvidia.com/gpu");
        assertThat(loaded.config().section(NvidiaConfig.SECTION).node().deviceSplitCount())
                .isEqualTo(10);
        assertThat(loaded.config().section(HygonConfig.SECTION).resourceCountName())
                .isEqualTo("hygon.com/hcunum");
        assertThat(loaded.config().section(MthreadsConfig.SECTION).resourceMemoryName())
                .isEqualTo("mthreads.com/sgpu-memory");
        assertThat(loaded.warnings()).isEmpty();
    }

    @Test
    void unknownKeysAreErrorsNamingTheKey() {
        assertThatThrownBy(() -> parse("nvidia:\n  resourceCountNmae: x\n", "f.yaml"))
                .isInstanceOf(DeviceConfigException.class)
                .hasMessage("device config f.yaml: unknown key nvidia.resourceCountNmae");
        assertThatThrownBy(() -> parse("nvidai:\n  a: 1\nnvidia: {}\n", "f.yaml"))
                .hasMessageContaining("unknown key nvidai");
    }

    @Test
    void wrongTypesAreErrorsNamingTheKeyAndTheValue() {
        assertThatThrownBy(() -> parse("nvidia:\n  defaultMemory: abc\n", "f.yaml"))
                .hasMessage("device config f.yaml: key nvidia.defaultMemory: want an integer, got \"abc\"");
        assertThatThrownBy(() -> parse("hygon:\n  memoryFactor: 0\n", "f.yaml"))
                .hasMessageContaining("key hygon.memoryFactor: want an integer from 1");
        assertThatThrownBy(() -> parse("nvidia:\n  overwriteEnv: yes-please\n", "f.yaml"))
                .hasMessageContaining("key nvidia.overwriteEnv: want true or false");
        assertThatThrownBy(() -> parse("nvidia:\n  deviceMemoryScaling: -1\n", "f.yaml"))
                .hasMessageContaining("key nvidia.deviceMemoryScaling: want a positive number");
        assertThatThrownBy(() -> parse("cambricon: [a, b]\n", "f.yaml"))
                .hasMessageContaining("key cambricon: want a mapping, got a list");
        assertThatThrownBy(() -> parse("nvidia:\n  gpuCorePolicy: sometimes\n", "f.yaml"))
                .hasMessageContaining("key nvidia.gpuCorePolicy: want one of [default, force, disable]");
    }

    @Test
    void emptyOrBrokenFilesAreClearErrors(@TempDir Path dir) {
        assertThatThrownBy(() -> parse("", "f.yaml")).hasMessageContaining("all configurations are empty");
        assertThatThrownBy(() -> parse("nvidia: {}\nhygon:\n", "f.yaml"))
                .hasMessageContaining("all configurations are empty");
        assertThatThrownBy(() -> parse("nvidia: [\n", "f.yaml"))
                .hasMessageStartingWith("device config f.yaml is not valid YAML");
        assertThatThrownBy(() -> load(dir.resolve("missing.yaml"))).hasMessageContaining("cannot read device config");
    }

    /** The loader with the sections of the vendors on this module's class path, as {@code hami} runs it. */
    private static DeviceConfigLoader.Loaded parse(String yaml, String source) throws DeviceConfigException {
        return DeviceConfigLoader.parse(yaml, source, DeviceBackends.configSections());
    }

    private static DeviceConfigLoader.Loaded load(Path file) throws DeviceConfigException {
        return DeviceConfigLoader.load(file, DeviceBackends.configSections());
    }
}
