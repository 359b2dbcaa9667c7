package io.hami.cli.logging;

import picocli.CommandLine.Option;

/**
 * {@code --log-format text|json} of the long-running commands (scheduler, plugin, monitor). picocli calls the setter
 * while it parses, so the format applies before the command logs its first line.
 */
public final class LogFormatOption {
    private StderrLogging.Format format = StderrLogging.Format.text;

    @Option(
            names = "--log-format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "Log line format on stderr: text, or json (one JSON object per line, logback's JsonEncoder). "
                    + "Default: ${DEFAULT-VALUE}.")
    void setFormat(StderrLogging.Format format) {
        this.format = format;
        StderrLogging.use(format);
    }

    public StderrLogging.Format format() {
        return format;
    }
}
