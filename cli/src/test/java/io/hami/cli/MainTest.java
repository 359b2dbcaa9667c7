package io.hami.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The production distribution's command line: its subcommands, and none of the lab's (lab/cli provides those). */
class MainTest {

    @Test
    void theSubcommandsAreTheProductionOnesInHelpOrder() {
        assertThat(Main.commandLine().getSubcommands().keySet())
                .containsExactly("annotation", "scheduler", "plugin", "monitor", "inspect", "completion", "help");
    }

    @Test
    void helpListsNoLabWithoutLabCliOnTheClassPath() {
        var out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        assertThat(cl.execute("--help")).isZero();
        assertThat(out.toString()).contains("scheduler", "plugin", "monitor", "inspect", "annotation");
        assertThat(out.toString().lines().map(String::strip).toList())
                .noneMatch(l -> l.startsWith("lab ") || l.startsWith("plugin-training"));
    }

    @Test
    void anUnknownSubcommandSuchAsLabIsAUsageError() {
        var err = new StringWriter();
        var cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("lab")).isEqualTo(2);
        assertThat(err.toString()).contains("lab");
    }
}
