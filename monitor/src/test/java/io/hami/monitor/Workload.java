package io.hami.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** hardware-mocks' {@code hami-workload}: writes region files exactly as HAMi-core does. */
public final class Workload {
    private Workload() {}

    public static Path mocksDir() {
        String dir = System.getProperty("hami.mocks.dir");
        if (dir == null || !Files.isDirectory(Path.of(dir))) {
            throw new IllegalStateException("mocks not built (hami.mocks.dir=" + dir + "): build hardware-mocks");
        }
        return Path.of(dir);
    }

    /** Writes one snapshot of a region to {@code file} ({@code --once}) with the given arguments. */
    public static void once(Path file, String... args) throws IOException, InterruptedException {
        Files.createDirectories(file.getParent());
        List<String> command = new ArrayList<>(List.of(
                mocksDir().resolve("hamicore/hami-workload").toString(), "--region", file.toString(), "--once"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("hami-workload failed: " + out);
        }
    }
}
