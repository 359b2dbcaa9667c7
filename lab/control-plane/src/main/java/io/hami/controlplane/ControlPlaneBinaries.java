package io.hami.controlplane;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where etcd, kube-apiserver and kube-scheduler are: {@code HAMI_CONTROL_PLANE_BIN} (or the system property
 * {@code hami.controlPlane.bin}) when set, else what {@code scripts/control-plane.sh} of the enclosing checkout
 * builds or finds in its cache. Never a stand-in: without the binaries this fails and says how to get them.
 */
public record ControlPlaneBinaries(Path etcd, Path kubeApiserver, Path kubeScheduler) {
    static final List<String> NAMES = List.of("etcd", "kube-apiserver", "kube-scheduler");
    private static final String SCRIPT = "scripts/control-plane.sh";

    public static ControlPlaneBinaries locate() {
        String explicit = System.getProperty("hami.controlPlane.bin", System.getenv("HAMI_CONTROL_PLANE_BIN"));
        if (explicit != null && !explicit.isBlank()) {
            return in(Path.of(explicit));
        }
        Path script = findScript(Path.of("").toAbsolutePath());
        if (script == null) {
            throw new IllegalStateException(
                    "control plane: no binaries: set HAMI_CONTROL_PLANE_BIN to a folder holding "
                            + String.join(", ", NAMES) + ", or run from a checkout of hami-java (which has " + SCRIPT
                            + ")");
        }
        return in(build(script));
    }

    static ControlPlaneBinaries in(Path dir) {
        for (String n : NAMES) {
            if (!Files.isExecutable(dir.resolve(n))) {
                throw new IllegalStateException("control plane: " + dir.resolve(n) + " is missing or not executable"
                        + " (build the binaries with " + SCRIPT + ")");
            }
        }
        return new ControlPlaneBinaries(
                dir.resolve("etcd"), dir.resolve("kube-apiserver"), dir.resolve("kube-scheduler"));
    }

    private static Path findScript(Path from) {
        for (Path p = from; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(SCRIPT)) && Files.isDirectory(p.resolve("tools/control-plane"))) {
                return p.resolve(SCRIPT);
            }
        }
        return null;
    }

    /** Runs the build script (a no-op when cached); its progress goes to our stderr, its last line is the folder. */
    private static Path build(Path script) {
        try {
            Process p = new ProcessBuilder("bash", script.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String last = null;
            try (var out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    last = line;
                }
            }
            int rc = p.waitFor();
            if (rc != 0 || last == null) {
                throw new IllegalStateException(
                        "control plane: " + script + " failed (exit " + rc + "); its messages are above");
            }
            return Path.of(last.strip());
        } catch (IOException e) {
            throw new UncheckedIOException("control plane: cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("control plane: interrupted while building", e);
        }
    }
}
