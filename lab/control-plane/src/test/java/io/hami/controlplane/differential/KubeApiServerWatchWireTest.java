package io.hami.controlplane.differential;

import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * {@link WatchWireContract} against a real etcd and kube-apiserver: the reference. Skipped where the control plane is
 * not built (this test does not start a 10-20 minute build).
 */
@EnabledIf(
        value = "io.hami.controlplane.differential.KubeApiServerWatchWireTest#controlPlaneBuilt",
        disabledReason = "the control plane is not built: run scripts/control-plane.sh or set HAMI_CONTROL_PLANE_BIN")
@EnableKubeControlPlane
class KubeApiServerWatchWireTest extends WatchWireContract {

    private KubeControlPlane plane;

    @Override
    protected Path kubeconfig(Path dir) {
        return plane.adminKubeconfig();
    }

    @Override
    protected void prepareNamespace(String namespace) {
        plane.ensureNamespace(namespace);
    }

    /** Binaries named by {@code HAMI_CONTROL_PLANE_BIN}, or already built by the checkout's script. */
    static boolean controlPlaneBuilt() throws IOException, InterruptedException {
        String explicit = System.getProperty("hami.controlPlane.bin", System.getenv("HAMI_CONTROL_PLANE_BIN"));
        if (explicit != null && !explicit.isBlank()) {
            return true; // ControlPlaneBinaries then says what is wrong with it, if anything
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts/control-plane.sh");
            if (Files.isRegularFile(script)) {
                Process p = new ProcessBuilder("bash", script.toString(), "--path")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
            }
        }
        return false;
    }
}
