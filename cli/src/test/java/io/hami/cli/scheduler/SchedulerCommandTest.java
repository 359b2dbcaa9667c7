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

    @Test
    void theNodeLabelSelectorIsParsedAsUpstreamWritesIt() {
        var cmd = new SchedulerCommand();
        new CommandLine(cmd).parseArgs("--node-label-selector=gpu=on,topology.kubernetes.io/zone=a,empty=");
        assertThat(cmd.nodeSelector.labels())
                .containsExactly(
                        java.util.Map.entry("gpu", "on"),
                        java.util.Map.entry("topology.kubernetes.io/zone", "a"),
                        java.util.Map.entry("empty", ""));
        assertThat(cmd.nodeSelector.toString()).isEqualTo("gpu=on,topology.kubernetes.io/zone=a,empty=");

        var plain = new SchedulerCommand();
        new CommandLine(plain).parseArgs();
        assertThat(plain.nodeSelector().all()).isTrue();
        assertThat(plain.kubeTimeout).isEqualTo(java.time.Duration.ofSeconds(10));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "gpu|\"gpu\" is not key=value",
                "gpu=on,|\"\" is not key=value",
                "=on|label key \"\" must be [prefix/]name",
                "gpu=o n|label value \"o n\" must be at most 63",
                "Bad_Prefix/x=1|label key prefix \"Bad_Prefix\" must be a DNS subdomain"
            })
    void aMalformedSelectorIsAUsageErrorThatSaysWhy(String selector, String reason) {
        var err = new StringWriter();
        int code = hami(err, "scheduler", "--node-label-selector=" + selector, "--kubeconfig=/nonexistent");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains("invalid --node-label-selector \"" + selector + "\"")
                .contains(reason)
                .doesNotContain("Exception")
                .doesNotContain("at io.hami");
    }

    @Test
    void theKubeTimeoutIsAPositiveGoDuration() {
        var cmd = new SchedulerCommand();
        new CommandLine(cmd).parseArgs("--kube-timeout=1m30s");
        assertThat(cmd.kubeTimeout).isEqualTo(java.time.Duration.ofSeconds(90));

        var err = new StringWriter();
        assertThat(hami(err, "scheduler", "--kube-timeout=0", "--kubeconfig=/nonexistent"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--kube-timeout must be positive");
        var bad = new StringWriter();
        assertThat(hami(bad, "scheduler", "--kube-timeout=10", "--kubeconfig=/nonexistent"))
                .isEqualTo(2);
        assertThat(bad.toString()).contains("invalid duration \"10\"");
    }

    @Test
    void gangMembersWaitTenSecondsForALockUnlessToldOtherwise() {
        var plain = new SchedulerCommand();
        new CommandLine(plain).parseArgs();
        assertThat(plain.gangLockWait()).isEqualTo(java.time.Duration.ofSeconds(10));
        var off = new SchedulerCommand();
        new CommandLine(off).parseArgs("--gang-lock-wait=0");
        assertThat(off.gangLockWait()).isZero();
        var longest = new SchedulerCommand();
        new CommandLine(longest).parseArgs("--gang-lock-wait=24s900ms");
        assertThat(longest.gangLockWait()).isEqualTo(java.time.Duration.ofMillis(24_900));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "25s|--gang-lock-wait must be below 25s, got 25s: a bind must answer within kube-scheduler's extender",
                "1m|--gang-lock-wait must be below 25s, got 60s",
                "-1s|--gang-lock-wait must not be negative (0 turns waiting off), got -1s",
                "ten|invalid duration \"ten\""
            })
    void aGangLockWaitOutsideTheExtenderTimeoutIsAUsageErrorThatSaysWhy(String wait, String reason) {
        var err = new StringWriter();
        int code = hami(err, "scheduler", "--gang-lock-wait=" + wait, "--kubeconfig=/nonexistent");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains(reason).doesNotContain("at io.hami").doesNotContain("Exception");
    }

    @Test
    void upstreamsNodeLockRetryTimeoutIsTheGangLockWait() {
        var upstream = new SchedulerCommand();
        new CommandLine(upstream).parseArgs("--node-lock-retry-timeout=5s");
        assertThat(upstream.gangLockWait()).isEqualTo(java.time.Duration.ofSeconds(5));

        var err = new StringWriter();
        assertThat(hami(err, "scheduler", "--node-lock-retry-timeout=28s", "--kubeconfig=/nonexistent"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("--node-lock-retry-timeout must be below 25s, got 28s")
                .doesNotContain("--gang-lock-wait must");
        var both = new StringWriter();
        assertThat(hami(
                        both,
                        "scheduler",
                        "--gang-lock-wait=1s",
                        "--node-lock-retry-timeout=2s",
                        "--kubeconfig=/nonexistent"))
                .isEqualTo(2);
        assertThat(both.toString()).contains("--gang-lock-wait and --node-lock-retry-timeout are one setting");
    }

    @Test
    void apiRequestsAreLimitedAsClientGoDoesByDefault() {
        var plain = new SchedulerCommand();
        new CommandLine(plain).parseArgs();
        assertThat(plain.kubeQps).isEqualTo(50.0);
        assertThat(plain.kubeBurst).isEqualTo(100);
        var set = new SchedulerCommand();
        new CommandLine(set).parseArgs("--kube-qps=0.5", "--kube-burst", "1");
        assertThat(set.kubeQps).isEqualTo(0.5);
        assertThat(set.kubeBurst).isEqualTo(1);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "--kube-qps=0|--kube-qps must be a positive number of requests a second, got 0",
                "--kube-qps=-1|--kube-qps must be a positive number of requests a second, got -1",
                "--kube-qps=NaN|--kube-qps must be a positive number of requests a second, got NaN",
                "--kube-burst=0|--kube-burst must be at least 1, got 0",
                "--kube-qps=fast|'fast'",
                "--kube-burst=2.5|'2.5'"
            })
    void aRateLimitOutOfRangeIsAUsageErrorThatSaysWhy(String flag, String reason) {
        var err = new StringWriter();
        int code = hami(err, "scheduler", flag, "--kubeconfig=/nonexistent");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains(flag.substring(0, flag.indexOf('=')))
                .contains(reason)
                .doesNotContain("at io.hami")
                .doesNotContain("Exception");
    }
}
