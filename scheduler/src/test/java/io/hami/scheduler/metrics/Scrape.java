package io.hami.scheduler.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** A registry as Prometheus scrapes it, in the text exposition format. */
public final class Scrape {
    private Scrape() {}

    public static String text(PrometheusRegistry registry) {
        var out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The sample lines (no HELP or TYPE) of {@code metric}, its _bucket/_count/_sum lines included. */
    public static List<String> samples(PrometheusRegistry registry, String metric) {
        return text(registry)
                .lines()
                .filter(l -> l.startsWith(metric + "{") || l.startsWith(metric + " ") || l.startsWith(metric + "_"))
                .toList();
    }
}
