package io.hami.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab command's usage errors; the runs themselves are tested in lab/core. */
class LabCommandTest {

    @Test
    void hamiFindsTheLabSubcommandsOnTheClassPathAndListsThemAfterInspect() {
        assertThat(Main.commandLine().getSubcommands().keySet())
                .containsExactly(
                        "annotation",
                        "scheduler",
                        "plugin",
                        "monitor",
                        "inspect",
                        "lab",
                        "plugin-training",
                        "completion",
                        "help");
        Result help = hami("--help");
        assertThat(help.out()).contains("lab").doesNotContain("plugin-training");
    }

    record Result(int code, String out, String err) {}

    static Result hami(String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void anUnknownScenarioIsExit2NamingTheBundledOnes() {
        Result r = hami("lab", "no-such-scenario");

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("no bundled scenario of that name (bundled: default, faults, scale, scheduling)");
    }

    @Test
    void aBrokenScenarioFileIsExit2NamingTheKey(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "name: bad\nnodes: []\nworkloadz: []\n");

        Result r = hami("lab", file.toString());

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown key \"workloadz\"");
    }

    @Test
    void aPodScaleMustBePositive() {
        Result r = hami("lab", "default", "--pod-scale", "0");

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--pod-scale must be above 0");
    }

    @Test
    void faultsThatNeedTheEmbeddedApiServerAreExit2OnKubernetes() {
        Result r = hami("lab", "faults", "--control-plane", "kubernetes");

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .contains(
                        "fault api-write-errors at 18s needs the embedded API server",
                        "--control-plane kubernetes",
                        "scheduler.replicas is 2");
    }

    @Test
    void anUnknownControlPlaneIsExit2() {
        Result r = hami("lab", "default", "--control-plane", "kind");

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown control plane kind (embedded or kubernetes)");
    }

    @Test
    void helpListsTheApiServerSubcommand() {
        Result r = hami("lab", "--help");

        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("Bundled scenarios: default, faults, scale, scheduling.", "apiserver", "--control-plane");
    }
}
