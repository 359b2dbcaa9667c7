package io.hami.cli;

import io.hami.cli.annotation.AnnotationCommand;
import io.hami.cli.scheduler.SchedulerCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hami} command: one entry point for every component and operator tool. */
@Command(name = "hami",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "hami-java: GPU and accelerator sharing for Kubernetes, wire-compatible with HAMi.",
        subcommands = {AnnotationCommand.class, SchedulerCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

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
        return new CommandLine(new Main());
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The distribution's version, from the jar manifest. */
    public static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"hami-java " + version()};
        }
    }
}
