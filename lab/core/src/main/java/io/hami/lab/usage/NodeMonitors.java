package io.hami.lab.usage;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.monitor.MonitorService;
import io.hami.monitor.MonitorSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node monitor ({@code hami monitor}, the second container of the NVIDIA plugin's DaemonSet) of every lab node
 * with NVIDIA devices, in-process on the node's hook path, with its NVML copy and {@code /metrics} on a free port.
 */
public final class NodeMonitors implements AutoCloseable {
    /** Faster than production's 5 s, so that a run of a minute sees containers come and go. */
    static final Duration SCAN = Duration.ofSeconds(1);

    private final Map<String, MonitorService> byNode = new LinkedHashMap<>();

    /** Starts the monitor of {@code node}. */
    public synchronized void start(String node, Path hookPath, Path nvmlLibrary, KubernetesClient client)
            throws IOException {
        var settings = new MonitorSettings(
                hookPath,
                node,
                MonitorSettings.DEFAULT_RESYNC,
                SCAN,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                false,
                nvmlLibrary,
                "lab");
        byNode.put(node, MonitorService.start(settings, client));
    }

    public synchronized int count() {
        return byNode.size();
    }

    /** Every container's memory figures as the monitors serve them now (from their last scans). */
    public synchronized List<ContainerUsage> figures() {
        var out = new ArrayList<ContainerUsage>();
        byNode.values().forEach(m -> out.addAll(MonitorFigures.of(m.scrape())));
        return out;
    }

    /** Has every monitor scan once more now, so that its figures are no older than this call. */
    public synchronized void scanNow() throws InterruptedException {
        for (MonitorService m : byNode.values()) {
            m.scanNow();
        }
    }

    /**
     * The lines of the first container's series in a real scrape of {@code /metrics} over HTTP (of the first monitor
     * that reports one), after the {@code # HELP} and {@code # TYPE} lines of their families; empty when none does.
     */
    public synchronized List<String> scrapeExcerpt(int maxLines) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            for (Map.Entry<String, MonitorService> e : byNode.entrySet()) {
                String body = http.send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                                + e.getValue().metricsPort() + "/metrics"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
                List<String> lines = ScrapeExcerpt.firstContainer(body, maxLines);
                if (!lines.isEmpty()) {
                    var out = new ArrayList<String>();
                    out.add("# node " + e.getKey() + ", GET /metrics");
                    out.addAll(lines);
                    return out;
                }
            }
        }
        return List.of();
    }

    @Override
    public synchronized void close() {
        byNode.values().forEach(MonitorService::close);
        byNode.clear();
    }
}
