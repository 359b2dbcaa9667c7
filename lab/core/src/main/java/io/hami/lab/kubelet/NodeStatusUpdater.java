package io.hami.lab.kubelet;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.lab.node.SyntheticNodes;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's node status for one node: registers the Node when it does not exist yet, and writes the device
 * resources' capacity and allocatable whenever a plugin's list changes. Writes are serialised and coalesced: only
 * the latest state is written, retried until the API server takes it.
 */
final class NodeStatusUpdater implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeStatusUpdater.class);

    private final KubernetesClient client;
    private final String node;
    private final Supplier<Map<String, int[]>> resources;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("lab-node-status").factory());
    private final AtomicBoolean pending = new AtomicBoolean();
    /** What was last written, so a list that changes nothing (a resend) writes nothing. */
    private Map<String, String> written = Map.of();

    NodeStatusUpdater(KubernetesClient client, String node, Supplier<Map<String, int[]>> resources) {
        this.client = client;
        this.node = node;
        this.resources = resources;
    }

    /** Creates the Node, ready, with the usual non-device resources, unless it exists. */
    void register() {
        if (client.nodes().withName(node).get() != null) {
            return;
        }
        client.nodes().resource(SyntheticNodes.ready(node)).create();
    }

    /** Schedules a write of the current state. */
    void changed() {
        if (pending.compareAndSet(false, true)) {
            writer.execute(this::write);
        }
    }

    private void write() {
        pending.set(false);
        var capacity = new TreeMap<String, String>();
        var allocatable = new TreeMap<String, String>();
        resources.get().forEach((resource, counts) -> {
            capacity.put(resource, Integer.toString(counts[0]));
            allocatable.put(resource, Integer.toString(counts[1]));
        });
        var state = new TreeMap<String, String>();
        capacity.forEach((r, c) -> state.put(r, c + "/" + allocatable.get(r)));
        if (state.equals(written)) {
            return;
        }
        String patch = client.getKubernetesSerialization()
                .asJson(Map.of("status", Map.of("capacity", capacity, "allocatable", allocatable)));
        for (int attempt = 1; ; attempt++) {
            try {
                client.nodes().withName(node).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), patch);
                written = state;
                return;
            } catch (KubernetesClientException e) {
                if (attempt >= 20 || Thread.currentThread().isInterrupted()) {
                    LOG.warn("node {}: could not write device capacity: {}", node, e.getMessage());
                    return;
                }
                try {
                    Thread.sleep(25L * attempt);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        writer.shutdownNow();
    }
}
