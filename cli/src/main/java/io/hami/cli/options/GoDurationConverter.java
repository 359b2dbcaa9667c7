package io.hami.cli.options;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Go-style durations as upstream's flags take them: {@code 5m}, {@code 30s}, {@code 1h30m}, {@code 250ms}. */
public final class GoDurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        if (value.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(value);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(
                    switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        default -> Duration.ofHours(n);
                    });
            end = m.end();
        }
        if (end == 0 || end != value.length()) {
            throw new CommandLine.TypeConversionException(
                    "invalid duration \"" + value + "\", want for example 5m, 30s or 1h30m");
        }
        return total;
    }
}
