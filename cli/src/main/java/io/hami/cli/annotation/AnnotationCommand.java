package io.hami.cli.annotation;

import io.hami.protocol.annotation.AnnotationCatalog;
import io.hami.protocol.annotation.AnnotationKind;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hami annotation decode|encode}: read and write protocol annotation values by hand. Both take their input the
 * same ways: as the argument, from stdin when the argument is {@code -} or missing (one trailing newline dropped, as
 * {@code echo}, here-strings and most files end with it), or by their named option ({@code --value}, {@code --json}).
 */
@Command(
        name = "annotation",
        mixinStandardHelpOptions = true,
        description = "Decode a protocol annotation value to canonical JSON, or encode JSON to the exact value.",
        subcommands = {AnnotationCommand.Decode.class, AnnotationCommand.Encode.class})
public final class AnnotationCommand implements Runnable {
    /** Exit code for input that is not a valid value of its key. */
    static final int INVALID_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final InputStream stdin;

    public AnnotationCommand() {
        this(System.in);
    }

    /** With {@code stdin} as what {@code -} reads (tests). */
    AnnotationCommand(InputStream stdin) {
        this.stdin = stdin;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Common to both directions: the key picks the vendor and the format; the input comes one of three ways. */
    abstract static class KeyedCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.ParentCommand
        AnnotationCommand parent;

        @Option(
                names = "--key",
                required = true,
                paramLabel = "KEY",
                description =
                        "Annotation key, for example hami.io/node-nvidia-register or hami.io/vgpu-devices-allocated.")
        String key;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            var catalog = new AnnotationCatalog(DeviceBackends.load(DeviceConfig.DEFAULTS));
            var kind = catalog.kindOf(key);
            if (kind.isEmpty()) {
                err.println("hami annotation: unknown key \"" + key + "\"; known keys: "
                        + String.join(", ", catalog.keys()));
                return INVALID_INPUT;
            }
            String input;
            try {
                input = input(argument(), option());
            } catch (IllegalArgumentException e) {
                err.println("hami annotation: " + e.getMessage());
                return INVALID_INPUT;
            } catch (IOException e) {
                err.println("hami annotation: cannot read stdin: " + e.getMessage());
                return 1;
            }
            try {
                spec.commandLine().getOut().println(convert(kind.get(), input));
                return 0;
            } catch (AnnotationFormatException | CanonicalJson.InvalidJsonException | IllegalArgumentException e) {
                err.println("hami annotation: " + key + ": " + e.getMessage());
                return INVALID_INPUT;
            }
        }

        /** The input: the argument, else the option, else stdin; {@code -} as the argument is stdin too. */
        private String input(String argument, String option) throws IOException {
            if (argument != null && option != null) {
                throw new IllegalArgumentException(
                        "give the input once: as the argument or as " + optionName() + ", not both");
            }
            String given = argument != null ? argument : option;
            if (given != null && !given.equals("-")) {
                return given;
            }
            return withoutTrailingNewline(new String(parent.stdin.readAllBytes(), StandardCharsets.UTF_8));
        }

        abstract String argument();

        abstract String option();

        abstract String optionName();

        abstract String convert(AnnotationKind kind, String input)
                throws AnnotationFormatException, CanonicalJson.InvalidJsonException;
    }

    /** One newline at the end (echo, a here-string, a file) is not part of the value. */
    static String withoutTrailingNewline(String s) {
        if (s.endsWith("\r\n")) {
            return s.substring(0, s.length() - 2);
        }
        return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }

    @Command(
            name = "decode",
            mixinStandardHelpOptions = true,
            description = {
                "Print the value of KEY as canonical JSON. Exit 2 with a one-line error when it is invalid.",
                "The value: the argument, or stdin when it is - or missing (kubectl get node N -o "
                        + "jsonpath='{.metadata.annotations.hami\\.io/node-nvidia-register}' | hami annotation decode "
                        + "--key hami.io/node-nvidia-register)."
            })
    static final class Decode extends KeyedCommand {
        @Parameters(arity = "0..1", paramLabel = "VALUE", description = "The annotation value; - or none: stdin.")
        String argument;

        @Option(names = "--value", paramLabel = "VALUE", description = "The annotation value (as the argument).")
        String value;

        @Override
        String argument() {
            return argument;
        }

        @Override
        String option() {
            return value;
        }

        @Override
        String optionName() {
            return "--value";
        }

        @Override
        String convert(AnnotationKind kind, String input) throws AnnotationFormatException {
            return CanonicalJson.decode(kind, input);
        }
    }

    @Command(
            name = "encode",
            mixinStandardHelpOptions = true,
            description = {
                "Print the exact annotation value of KEY for canonical JSON (the output of decode). Every field must "
                        + "be given; an unknown or missing one is an error.",
                "The JSON: the argument, or stdin when it is - or missing."
            })
    static final class Encode extends KeyedCommand {
        @Parameters(arity = "0..1", paramLabel = "JSON", description = "Canonical JSON; - or none: stdin.")
        String argument;

        @Option(names = "--json", paramLabel = "JSON", description = "Canonical JSON (as the argument).")
        String json;

        @Override
        String argument() {
            return argument;
        }

        @Override
        String option() {
            return json;
        }

        @Override
        String optionName() {
            return "--json";
        }

        @Override
        String convert(AnnotationKind kind, String input) throws CanonicalJson.InvalidJsonException {
            return CanonicalJson.encode(kind, input);
        }
    }
}
