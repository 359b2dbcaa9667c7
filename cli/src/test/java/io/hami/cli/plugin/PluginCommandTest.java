package io.hami.cli.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code hami plugin --metrics-bind-address}: on by default at :9396, off with "" or 0, bad values refused. */
class PluginCommandTest {

    @Test
    void metricsAreServedOnAllInterfacesAtTheDefaultPortUnlessTurnedOff() {
        var plain = new PluginCommand();
        new CommandLine(plain).parseArgs("--backend=nvidia");

        InetSocketAddress bind =
                PluginCommand.metricsBind(plain.metricsBindAddress).orElseThrow();
        assertThat(bind.getPort()).isEqualTo(9396);
        assertThat(bind.getAddress().isAnyLocalAddress()).isTrue();
        assertThat(PluginCommand.metricsBind("127.0.0.1:9500").orElseThrow().getPort())
                .isEqualTo(9500);
        assertThat(PluginCommand.metricsBind("")).isEmpty();
        assertThat(PluginCommand.metricsBind("0")).isEmpty();

        var off = new PluginCommand();
        new CommandLine(off).parseArgs("--backend=nvidia", "--metrics-bind-address=");
        assertThat(PluginCommand.metricsBind(off.metricsBindAddress)).isEmpty();
    }

    @Test
    void aBadAddressIsAClearErrorBeforeAnythingStarts() {
        assertThatThrownBy(() -> PluginCommand.metricsBind("9396")).hasMessageContaining("want host:port or :port");
        assertThatThrownBy(() -> PluginCommand.metricsBind(":http")).hasMessageContaining("invalid port");

        var err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("plugin", "--backend=nvidia", "--node-name=n1", "--metrics-bind-address=localhost:99999");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option '--metrics-bind-address': port out of range in \"localhost:99999\"")
                .doesNotContain("at io.hami");
    }

    @Test
    void theLibraryRetryDefaultsToTenSecondsDoublingToFiveMinutesAndABadPairIsAUsageError() {
        var plain = new PluginCommand();
        new CommandLine(plain).parseArgs("--backend=nvidia");
        assertThat(plain.exitOnLibraryError).isFalse();
        assertThat(plain.libraryRetry()).isEqualTo(io.hami.plugin.config.LibraryRetry.DEFAULTS);
        assertThat(io.hami.plugin.config.LibraryRetry.DEFAULTS.first()).isEqualTo(java.time.Duration.ofSeconds(10));
        assertThat(io.hami.plugin.config.LibraryRetry.DEFAULTS.max()).isEqualTo(java.time.Duration.ofMinutes(5));

        var err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(
                "plugin", "--backend=nvidia", "--node-name=n1", "--library-retry=1m", "--library-retry-max=30s");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option '--library-retry': the longest library retry wait PT30S is under"
                        + " the first PT1M")
                .doesNotContain("at io.hami");
    }

    @Test
    void theHelpNamesTheFlagAndItsDefault() {
        var out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.execute("plugin", "--help");
        // picocli wraps the text at any space
        assertThat(out.toString().replaceAll("\\s+", ""))
                .contains("--metrics-bind-address=ADDRESS")
                .contains("\"\"or0turnsitoff.Default::9396.")
                .contains("--library-retry=DURATION")
                .contains("Default:10s.")
                .contains("--library-retry-max=DURATION")
                .contains("Default:5m.")
                .contains("--exit-on-library-error");
    }
}
