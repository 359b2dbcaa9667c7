package io.hami.nativebind.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.nativebind.MockLibrary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HAMI_MOCK_DEVICES overrides the devices.json next to the library; a JVM cannot set its own environment, so this forks one. */
class DevicesFromEnvironmentTest {

    public static void main(String[] args) {
        try (Nvml nvml = Nvml.open(Path.of(args[0]))) {
            nvml.devices().forEach(d -> System.out.println(d.uuid()));
        }
    }

    @Test
    void theEnvironmentVariableNamesTheDeviceFile(@TempDir Path dir) throws Exception {
        MockLibrary mock = MockLibrary.install(
                dir.resolve("lib"), "nvidia", "{\"devices\": [{\"uuid\": \"GPU-next-to-the-library\"}]}", NvmlTest.LIB);
        Path devices = Files.writeString(
                dir.resolve("elsewhere.json"), "{\"devices\": [{\"uuid\": \"GPU-env-a\"}, {\"uuid\": \"GPU-env-b\"}]}");
        ProcessBuilder java = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        DevicesFromEnvironmentTest.class.getName(),
                        mock.path(NvmlTest.LIB).toString()))
                .redirectErrorStream(true);
        java.environment().put("HAMI_MOCK_DEVICES", devices.toString());
        Process process = java.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output.lines()).containsExactly("GPU-env-a", "GPU-env-b");
    }
}
