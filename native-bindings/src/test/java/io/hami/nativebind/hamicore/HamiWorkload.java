package io.hami.nativebind.hamicore;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.nativebind.MockLibrary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs hardware-mocks' {@code hami-workload}, the C writer of HAMi-core shared regions. */
final class HamiWorkload {
    private HamiWorkload() {}

    record Result(int exitCode, String output) {}

    static Path executable() {
        return MockLibrary.builtDir().resolve("hamicore").resolve("hami-workload");
    }

    /** Runs it to the end with these arguments. */
    static Result run(String... args) {
        List<String> command = new ArrayList<>(List.of(executable().toString()));
        command.addAll(List.of(args));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS))
                    .as("%s finished", command)
                    .isTrue();
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Runs it and expects success. */
    static String ok(String... args) {
        Result result = run(args);
        assertThat(result.exitCode())
                .as("hami-workload %s: %s", List.of(args), result.output())
                .isZero();
        return result.output();
    }

    /** The C reader's view of a region: {@code --dump}. */
    static String dump(Path region) {
        return ok("--dump", "--region", region.toString());
    }
}
