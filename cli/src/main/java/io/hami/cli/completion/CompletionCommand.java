package io.hami.cli.completion;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hami completion bash|zsh}: the shell completion script of the whole command tree, made by picocli's
 * {@link AutoComplete} from the same annotations that parse the command line, so it cannot drift from it.
 */
@Command(
        name = "completion",
        mixinStandardHelpOptions = true,
        description = {
            "Print the shell completion script for hami.",
            "bash: source <(hami completion bash), or save it under /etc/bash_completion.d/.",
            "zsh: source <(hami completion zsh) in ~/.zshrc (the bash script through zsh's bashcompinit)."
        })
public final class CompletionCommand implements Callable<Integer> {
    /** The shells the script is for. */
    enum Shell {
        bash,
        zsh
    }

    @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
    Shell shell;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var root = spec.root().commandLine();
        String bash = AutoComplete.bash(root.getCommandName(), root);
        var out = spec.commandLine().getOut();
        out.print(
                switch (shell) {
                    case bash -> bash;
                    // picocli's script is bash; zsh runs it through its bash completion emulation.
                    case zsh ->
                        "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n" + bash;
                });
        out.flush();
        return 0;
    }
}
