package io.hami.cli.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code hami monitor}: its help and upstream's defaults. */
class MonitorCommandTest {

    @Test
    void theHelpNamesUpstreamsFlagsAndDefaults() {
        var out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        int code = cl.execute("monitor", "--help");

        assertThat(code).isZero();
        assertThat(out.toString().replaceAll("\\s+", " ")) // the help wraps lines anywhere
                .contains("--metrics-bind-address=ADDRESS")
                .contains("Default: :9394")
                .contains("--legacy-metrics")
                .contains("HOOK_PATH")
                .contains("HAMI_RESYNC_INTERVAL");
    }

    @Test
    void aMissingNodeNameIsAnInvalidInput() {
        var err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("monitor", "--node-name=", "--metrics-bind-address=127.0.0.1:0");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("the node name is missing").doesNotContain("at io.hami");
    }
}
