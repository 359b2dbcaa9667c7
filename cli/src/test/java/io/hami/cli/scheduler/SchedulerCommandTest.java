package io.hami.cli.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Flags of {@code hami scheduler}, and the combinations it refuses before it reaches any cluster. */
class SchedulerCommandTest {

    static int hami(StringWriter err, String... args) {
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void campaigningAndFollowingExcludeEachOther() {
        var err = new StringWriter();
        int code = hami(
                err, "scheduler", "--leader-elect", "--leader-follow=hami-kube-scheduler", "--kubeconfig=/nonexistent");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains("--leader-elect and --leader-follow exclude each other")
                .doesNotContain("at io.hami");
    }

    @Test
    void aCertificateNeedsItsKey() {
        var err = new StringWriter();
        assertThat(hami(err, "scheduler", "--cert-file=/tmp/cert.pem", "--kubeconfig=/nonexistent"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--cert-file and --key-file go together");
    }

    @Test
    void perContainerMetricsAreOffUnlessAskedFor() {
        var plain = new SchedulerCommand();
        new CommandLine(plain).parseArgs("--kubeconfig=/nonexistent");
        var asked = new SchedulerCommand();
        new CommandLine(asked).parseArgs("--container-metrics");

        assertThat(plain.containerMetrics).isFalse();
        assertThat(asked.containerMetrics).isTrue();
    }
}
