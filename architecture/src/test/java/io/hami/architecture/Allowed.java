package io.hami.architecture;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;

/** An allow-list of known violations in src/test/resources: one entry a line, {@code #} starts a comment. */
final class Allowed {
    private Allowed() {}

    static Set<String> read(String resource) {
        try (InputStream in = Allowed.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing allow-list " + resource);
            }
            Set<String> lines = new TreeSet<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    lines.add(line.strip());
                }
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
