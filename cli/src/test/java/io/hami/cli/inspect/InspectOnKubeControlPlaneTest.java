package io.hami.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.cli.Main;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * {@code hami inspect} with the kubeconfig a real control plane writes (an EC client key in PKCS#8, as kubeadm writes
 * it), the command the lab suggests; fabric8 alone could not read that key ("Invalid DER: object is not integer").
 */
@EnableKubeControlPlane
class InspectOnKubeControlPlaneTest {
    static KubeControlPlane plane;

    @Test
    void readsTheClusterWithTheAdministratorsKubeconfig() {
        var out = new StringWriter();
        var err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));

        int code = cl.execute(
                "inspect", "nodes", "--kubeconfig", plane.adminKubeconfig().toString(), "-o", "json");

        assertThat(err.toString()).isEmpty();
        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("{").contains("\"nodes\"");
    }
}
