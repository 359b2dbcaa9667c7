package io.hami.lab.kubescheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.hami.lab.metrics.Latencies;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * kube-scheduler's side of the extender protocol over HTTP: {@code /filter} with node names
 * ({@code nodeCacheCapable}), {@code /prioritize}, {@code /bind}. The JSON is written the way kube-scheduler writes
 * it (Go field names; the pod in Kubernetes' own JSON) and read without the scheduler's classes, so the lab talks
 * to the extender only through the wire format.
 *
 * <p>With several scheduler replicas the requests go to one of them; when it cannot be reached or answers that it is
 * not the leader, the next one is tried, as a Service in front of the replicas would route after a failover.
 */
public final class ExtenderClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String NOT_LEADER = "not the leader";
    /**
     * How the JDK's client words a kept-alive connection that the server closed before the request reached it (the
     * scheduler's HTTP server closes idle connections beyond its limit). Nothing was served, so the request is sent
     * once more, as Go's client finds such a connection closed before it reuses it.
     */
    private static final String CLOSED_BEFORE_ANSWER = "received no bytes";

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final KubernetesSerialization json;
    private final Supplier<List<URI>> endpoints;
    private final Latencies latencies;
    private volatile int current;

    /**
     * @param endpoints the replicas' base URLs, read on every call (replicas come and go)
     */
    public ExtenderClient(KubernetesSerialization json, Supplier<List<URI>> endpoints, Latencies latencies) {
        this.json = json;
        this.endpoints = endpoints;
        this.latencies = latencies;
    }

    /**
     * What {@code /filter} answered: the nodes that fit and a reason for each other one, or an error.
     *
     * @param failed       every node that does not fit, with the reason
     * @param unresolvable those of them in {@code FailedAndUnresolvableNodes}, where preemption cannot help
     */
    public record FilterOutcome(
            List<String> fitting, Map<String, String> failed, java.util.Set<String> unresolvable, String error) {}

    /**
     * What {@code /preempt} answered: the victims by node, as pod UIDs, for the nodes where evicting them frees
     * enough room; nodes it left out are not candidates.
     */
    public record PreemptOutcome(Map<String, List<String>> victims, Map<String, Integer> pdbViolations) {}

    public FilterOutcome filter(Pod pod, List<String> nodes) throws IOException {
        JsonNode r = call("/filter", Latencies.FILTER, args(pod, nodes));
        var fitting = new ArrayList<String>();
        r.path("NodeNames").forEach(n -> fitting.add(n.asString()));
        var failed = new LinkedHashMap<String, String>();
        var unresolvable = new java.util.HashSet<String>();
        r.path("FailedNodes")
                .properties()
                .forEach(e -> failed.put(e.getKey(), e.getValue().asString()));
        r.path("FailedAndUnresolvableNodes").properties().forEach(e -> {
            failed.put(e.getKey(), e.getValue().asString());
            unresolvable.add(e.getKey());
        });
        return new FilterOutcome(fitting, failed, unresolvable, r.path("Error").asString(""));
    }

    /**
     * {@code /preempt} with the victims kube-scheduler proposes per node, as a {@code nodeCacheCapable} extender
     * gets them: {@code NodeNameToMetaVictims}, pods by UID.
     */
    public PreemptOutcome preempt(Pod pod, Map<String, List<String>> victimUids) throws IOException {
        var meta = new LinkedHashMap<String, Object>();
        victimUids.forEach((node, uids) -> meta.put(
                node,
                Map.of("Pods", uids.stream().map(uid -> Map.of("UID", uid)).toList(), "NumPDBViolations", 0)));
        var body = new LinkedHashMap<String, Object>();
        body.put("Pod", pod);
        body.put("NodeNameToVictims", null);
        body.put("NodeNameToMetaVictims", meta);
        JsonNode r = call("/preempt", null, json.asJson(body));
        String error = r.path("Error").asString("");
        if (!error.isEmpty()) {
            throw new IOException("preempt: " + error);
        }
        var victims = new LinkedHashMap<String, List<String>>();
        var pdb = new LinkedHashMap<String, Integer>();
        r.path("NodeNameToMetaVictims").properties().forEach(e -> {
            var uids = new ArrayList<String>();
            e.getValue().path("Pods").forEach(p -> uids.add(p.path("UID").asString()));
            victims.put(e.getKey(), uids);
            pdb.put(e.getKey(), e.getValue().path("NumPDBViolations").asInt(0));
        });
        return new PreemptOutcome(victims, pdb);
    }

    /** Scores 0..10 by node. */
    public Map<String, Long> prioritize(Pod pod, List<String> nodes) throws IOException {
        JsonNode r = call("/prioritize", Latencies.PRIORITIZE, args(pod, nodes));
        var scores = new LinkedHashMap<String, Long>();
        if (!r.isArray()) {
            throw new IOException("prioritize answered " + r);
        }
        r.forEach(h -> scores.put(h.path("Host").asString(), h.path("Score").asLong()));
        return scores;
    }

    /** Empty when bound, else the extender's error; the latency is recorded as a bind or a refused bind. */
    public String bind(Pod pod, String node) throws IOException {
        var body = new LinkedHashMap<String, Object>();
        body.put("PodName", pod.getMetadata().getName());
        body.put("PodNamespace", pod.getMetadata().getNamespace());
        body.put("PodUID", pod.getMetadata().getUid());
        body.put("Node", node);
        long start = System.nanoTime();
        String error = call("/bind", null, json.asJson(body)).path("Error").asString("");
        latencies.record(
                error.isEmpty() ? Latencies.BIND : Latencies.BIND_REFUSED, Duration.ofNanos(System.nanoTime() - start));
        return error;
    }

    /** ExtenderArgs as kube-scheduler writes them. */
    private String args(Pod pod, List<String> nodes) {
        var body = new LinkedHashMap<String, Object>();
        body.put("Pod", pod);
        body.put("Nodes", null);
        body.put("NodeNames", nodes);
        return json.asJson(body);
    }

    private HttpResponse<String> send(URI uri, String payload) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(payload))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            if (e.getMessage() == null || !e.getMessage().contains(CLOSED_BEFORE_ANSWER)) {
                throw e;
            }
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }

    /**
     * Posts to the current replica, moving on to the next when it is gone or not the leader; records the latency of
     * the answering call under {@code operation} unless it is null.
     */
    private JsonNode call(String path, String operation, String payload) throws IOException {
        List<URI> replicas = endpoints.get();
        if (replicas.isEmpty()) {
            throw new IOException("no scheduler replica is running");
        }
        IOException last = null;
        for (int tried = 0; tried < replicas.size(); tried++) {
            int index = Math.floorMod(current, replicas.size());
            URI uri = replicas.get(index).resolve(path);
            long start = System.nanoTime();
            try {
                HttpResponse<String> response = send(uri, payload);
                JsonNode answer = json.unmarshal(response.body(), JsonNode.class);
                String error = answer.isObject() ? answer.path("Error").asString("") : "";
                if (error.contains(NOT_LEADER)) {
                    last = new IOException(uri + ": " + error);
                    current = index + 1;
                    continue;
                }
                if (operation != null) {
                    latencies.record(operation, Duration.ofNanos(System.nanoTime() - start));
                }
                return answer;
            } catch (IOException e) {
                last = new IOException(uri + ": " + e, e);
                current = index + 1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted calling " + uri, e);
            } catch (RuntimeException e) {
                throw new IOException(uri + " answered something that is not JSON: " + e.getMessage(), e);
            }
        }
        throw last;
    }
}
