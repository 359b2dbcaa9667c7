package io.hami.cli;

import io.hami.cli.annotation.AnnotationCommand;
import io.hami.cli.scheduler.SchedulerCommand;
import io.hami.cli.version.DistributionVersion;
import java.util.List;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code hami} command: one entry point for every component and operator tool. The lab's subcommands come from
 * a {@link SubcommandProvider} on the class path (lab/cli), not from this module.
 */
@Command(
        name = "hami",
        mixinStandardHelpOptions = true,
        versionProvider = DistributionVersion.class,
        description = "hami-java: GPU and accelerator sharing for Kubernetes, wire-compatible with HAMi.")
public final class Main implements Runnable {
    /** The production distribution's subcommands, in the order of {@code hami --help}. */
    private static final List<Class<?>> BEFORE_PROVIDED = List.of(
            AnnotationCommand.class,
            SchedulerCommand.class,
            io.hami.cli.plugin.PluginCommand.class,
            io.hami.cli.monitor.MonitorCommand.class,
            io.hami.cli.inspect.InspectCommand.class);

    private static final List<Class<?>> AFTER_PROVIDED =
            List.of(io.hami.cli.completion.CompletionCommand.class, CommandLine.HelpCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (0 ok, 1 failure, 2 invalid input or usage). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The configured command line; tests redirect its output with {@code setOut}/{@code setErr}. */
    public static CommandLine commandLine() {
        return commandLine(CommandLine.defaultFactory());
    }

    /** As {@link #commandLine()}, with the subcommands made by {@code factory} (tests: a command reading given stdin). */
    public static CommandLine commandLine(CommandLine.IFactory factory) {
        var cl = new CommandLine(new Main(), factory);
        BEFORE_PROVIDED.forEach(cl::addSubcommand);
        for (SubcommandProvider provider : ServiceLoader.load(SubcommandProvider.class)) {
            provider.commands().forEach(cl::addSubcommand);
        }
        AFTER_PROVIDED.forEach(cl::addSubcommand);
        return cl.setExecutionExceptionHandler(Main::failed);
    }

    /**
     * One line on stderr for what an operator can fix (bad flags, config files, an unreachable cluster), exit 2
     * for invalid input and 1 otherwise; a stack trace only for what looks like a bug.
     */
    private static int failed(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        boolean invalidInput =
                e instanceof IllegalArgumentException || e instanceof io.hami.protocol.config.DeviceConfigException;
        // fabric8's own text for a request that got no answer is "An error has occurred."; ApiErrors names the cause.
        String message = e instanceof io.fabric8.kubernetes.client.KubernetesClientException k
                ? io.hami.kube.client.ApiErrors.describe(k)
                : e.getMessage();
        cl.getErr().println(cl.getCommandSpec().qualifiedName() + ": " + message);
        if (!invalidInput
                && !(e instanceof java.io.IOException)
                && !(e instanceof io.fabric8.kubernetes.client.KubernetesClientException)) {
            e.printStackTrace(cl.getErr());
        }
        return invalidInput ? CommandLine.ExitCode.USAGE : CommandLine.ExitCode.SOFTWARE;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
