package io.hami.cli.annotation;

import io.hami.protocol.annotation.AnnotationCatalog;
import io.hami.protocol.annotation.AnnotationKind;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hami annotation decode|encode}: read and write protocol annotation values by hand. */
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

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Common to both directions: the key picks the vendor and the format. */
    abstract static class KeyedCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

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
            try {
                spec.commandLine().getOut().println(convert(kind.get()));
                return 0;
            } catch (AnnotationFormatException | CanonicalJson.InvalidJsonException | IllegalArgumentException e) {
                err.println("hami annotation: " + key + ": " + e.getMessage());
                return INVALID_INPUT;
            }
        }

        abstract String convert(AnnotationKind kind)
                throws AnnotationFormatException, CanonicalJson.InvalidJsonException;
    }

    @Command(
            name = "decode",
            mixinStandardHelpOptions = true,
            description = "Print the value of KEY as canonical JSON. Exit 2 with a one-line error when it is invalid.")
    static final class Decode extends KeyedCommand {
        @Option(names = "--value", required = true, paramLabel = "VALUE", description = "The annotation value.")
        String value;

        @Override
        String convert(AnnotationKind kind) throws AnnotationFormatException {
            return CanonicalJson.decode(kind, value);
        }
    }

    @Command(
            name = "encode",
            mixinStandardHelpOptions = true,
            description = "Print the exact annotation value of KEY for canonical JSON (the output of decode).")
    static final class Encode extends KeyedCommand {
        @Option(
                names = "--json",
                required = true,
                paramLabel = "JSON",
                description = "Canonical JSON, as decode prints it.")
        String json;

        @Override
        String convert(AnnotationKind kind) throws CanonicalJson.InvalidJsonException {
            return CanonicalJson.encode(kind, json);
        }
    }
}
