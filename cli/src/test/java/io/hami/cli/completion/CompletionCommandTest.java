package io.hami.cli.completion;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bash script, run by bash: what it offers after {@code hami }, {@code hami ins} and {@code hami inspect nodes -}. */
class CompletionCommandTest {
    @TempDir
    Path dir;

    static String script(String shell) {
        var out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        assertThat(cl.execute("completion", shell)).isZero();
        return out.toString();
    }

    /** The words the script offers for the command line {@code words}, the last one being completed. */
    private List<String> complete(String... typed) throws Exception {
        Path file = Files.writeString(dir.resolve("hami.bash"), script("bash"));
        List<String> words = List.of(typed);
        String line = String.join(" ", words);
        // As bash calls it on <TAB>: _complete_hami, the function the script registers with `complete -F`.
        // compopt complains outside a real completion; stderr is not what is being tested.
        String bash = "source \"$0\"; COMP_WORDS=("
                + String.join(" ", words.stream().map(w -> "'" + w + "'").toList())
                + "); COMP_CWORD=" + (words.size() - 1) + "; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE};"
                + " _complete_hami 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
        var process = new ProcessBuilder("bash", "-c", bash, file.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    @Test
    void bashCompletesSubcommandsAndOptions() throws Exception {
        assertThat(complete("hami", "ins")).containsExactly("inspect");
        // No lab: its subcommands are lab/cli's (which tests that they complete there), not on this class path.
        assertThat(complete("hami", ""))
                .contains("scheduler", "plugin", "monitor", "inspect", "annotation")
                .doesNotContain("lab");
        assertThat(complete("hami", "inspect", "nodes", "--kube")).containsExactly("--kubeconfig");
        assertThat(complete("hami", "scheduler", "--log-f")).containsExactly("--log-format");
        assertThat(complete("hami", "monitor", "--log-format", "")).containsExactly("text", "json");
    }

    @Test
    void zshGetsTheBashScriptThroughBashcompinit() {
        String zsh = script("zsh");
        assertThat(zsh)
                .startsWith("autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n");
        assertThat(zsh).endsWith(script("bash"));
    }

    @Test
    void anotherShellIsAUsageError() {
        var err = new StringWriter();
        var cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("completion", "fish")).isEqualTo(2);
        assertThat(err.toString()).contains("bash, zsh");
    }
}
