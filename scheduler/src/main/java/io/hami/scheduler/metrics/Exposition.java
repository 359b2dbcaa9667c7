package io.hami.scheduler.metrics;

import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One scrape of the scheduler's metrics in the text format 0.0.4 or OpenMetrics, plain or gzip: the per-device
 * families from {@link DeviceSeries} (lines rendered once per node change, kept compressed for gzip), then every
 * other family of the registry through the client library's writers. The registry's own device collector is left
 * out of the scrape; it still serves {@code registry.scrape()} for other readers.
 */
public final class Exposition {
    private final PrometheusRegistry registry;
    /** Null when the registry has no device gauges. */
    private final DeviceSeries devices;

    private final Predicate<String> rest;

    Exposition(PrometheusRegistry registry, DeviceSeries devices) {
        this.registry = registry;
        this.devices = devices;
        Set<String> served = devices == null ? Set.of() : Set.copyOf(DeviceSeries.NAMES);
        this.rest = name -> !served.contains(name);
    }

    /** A registry without device gauges, served as the client library writes it. */
    public static Exposition of(PrometheusRegistry registry) {
        return new Exposition(registry, null);
    }

    PrometheusRegistry registry() {
        return registry;
    }

    /** Writes one scrape, in OpenMetrics when {@code openMetrics} (ending with {@code # EOF}), else in text 0.0.4. */
    public void write(OutputStream out, boolean openMetrics) throws IOException {
        if (devices != null) {
            DeviceSeries.write(out, devices.current(false).nodes(), openMetrics);
        }
        writeRest(out, openMetrics);
    }

    /** One scrape as {@link #write} writes it, as one gzip member. */
    public byte[] gzip(boolean openMetrics) throws IOException {
        DeviceSeries.Lines lines = devices == null ? null : devices.current(true);
        var body = new GzipBody(lines == null ? 64 * 1024 : lines.nodes().size() * 2048 + 64 * 1024);
        if (lines != null) {
            DeviceSeries.write(body, lines, openMetrics);
        }
        var rest = new ByteArrayOutputStream(64 * 1024);
        writeRest(rest, openMetrics);
        body.write(rest.toByteArray());
        return body.finish();
    }

    private void writeRest(OutputStream out, boolean openMetrics) throws IOException {
        MetricSnapshots snapshots = registry.scrape(rest);
        if (openMetrics) {
            OpenMetricsTextFormatWriter.create().write(out, snapshots);
        } else {
            PrometheusTextFormatWriter.create().write(out, snapshots);
        }
    }
}
