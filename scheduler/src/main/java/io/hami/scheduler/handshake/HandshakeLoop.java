package io.hami.scheduler.handshake;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.protocol.health.HandshakeCheck;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.Discovery;
import io.hami.scheduler.cluster.NodeInventory;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handshake round of design D3 (docs/design.md#d3), run every 15 s on the leader only: ask each vendor's
 * rule about each node, write the {@code Requesting_} stamps it asks for, withdraw the devices of vendors it finds
 * unhealthy (and delete their handshake annotation), and give them back when they recover.
 */
public final class HandshakeLoop {
    private static final Logger LOG = LoggerFactory.getLogger(HandshakeLoop.class);

    private final KubernetesClient client;
    private final DeviceBackends backends;
    private final NodeInventory inventory;
    private final Supplier<List<Node>> nodes;
    private final BooleanSupplier leader;
    private final Clock clock;
    private final Map<String, HealthMemory> memory = new ConcurrentHashMap<>();
    /** node/vendor to the unreadable {@code Requesting_} value last logged there: each is logged once. */
    private final Map<String, String> unreadableLogged = new ConcurrentHashMap<>();

    private final HandshakeObserver observer;

    public HandshakeLoop(
            KubernetesClient client,
            DeviceBackends backends,
            NodeInventory inventory,
            Supplier<List<Node>> nodes,
            BooleanSupplier leader,
            Clock clock,
            HandshakeObserver observer) {
        this.client = client;
        this.backends = backends;
        this.inventory = inventory;
        this.nodes = nodes;
        this.leader = leader;
        this.clock = clock;
        this.observer = observer;
    }

    /** One round over every node; does nothing on a follower. */
    public void round() {
        if (!leader.getAsBoolean()) {
            return;
        }
        var now = clock.instant();
        for (Node cached : nodes.get()) {
            String name = cached.getMetadata().getName();
            var verdicts = verdicts(cached, now);
            Node node = cached;
            if (verdicts.values().stream().anyMatch(v -> v.handshakeToWrite().isPresent() || !v.healthy())
                    || !staleHandshakes(cached, verdicts).isEmpty()) {
                // About to write: decide on the node as it is now, not as the informer last saw it (as upstream does).
                try {
                    node = client.nodes().withName(name).get();
                } catch (KubernetesClientException e) {
                    LOG.warn(
                            "node {}: cannot re-read before the handshake write, retrying next round: {}",
                            name,
                            e.getMessage());
                    continue;
                }
                if (node == null) {
                    continue;
                }
                verdicts = verdicts(node, now);
            }
            var stale = staleHandshakes(node, verdicts);
            if (!stale.isEmpty()) {
                patchNode(name, stale);
            }
            boolean changed = false;
            for (DeviceBackend b : backends.all()) {
                HealthVerdict v = verdicts.get(b.vendor());
                if (v == null) {
                    continue;
                }
                memory.put(name + "/" + b.vendor(), v.memory());
                logUnreadable(node, name, b);
                var patch = new HashMap<String, String>();
                v.handshakeToWrite().ifPresent(value -> b.keys().handshakeKey().ifPresent(k -> patch.put(k, value)));
                if (!v.healthy()) {
                    b.keys().handshakeKey().ifPresent(k -> patch.put(k, null));
                }
                if (!patch.isEmpty()) {
                    patchNode(name, patch);
                }
                boolean flipped = inventory.setHealthy(name, b.vendor(), v.healthy());
                if (flipped) {
                    LOG.info(
                            "node {}: {} devices {}",
                            name,
                            b.vendor(),
                            v.healthy()
                                    ? "available again"
                                    : "withdrawn: handshake unanswered and no allocatable devices");
                }
                changed |= flipped || v.refresh();
                observer.verdict(name, b.vendor(), v);
            }
            if (changed) {
                inventory.refresh(node);
            }
        }
    }

    /**
     * The verdict of every vendor that registered devices on {@code node}, without remembering anything yet. A vendor
     * the node lacks gets no handshake (design D3): asking it would be a node write every round, answered by nobody.
     */
    private Map<String, HealthVerdict> verdicts(Node node, java.time.Instant now) {
        var out = new HashMap<String, HealthVerdict>();
        String name = node.getMetadata().getName();
        for (DeviceBackend b : backends.all()) {
            if (b.discover(node) instanceof Discovery.Found) {
                out.put(
                        b.vendor(),
                        b.checkHealth(node, now, memory.getOrDefault(name + "/" + b.vendor(), HealthMemory.NONE)));
            } else {
                memory.remove(name + "/" + b.vendor());
            }
        }
        return out;
    }

    /** Handshake keys of vendors with no devices on {@code node} (no verdict), to delete: design D3, removing devices deletes them. */
    private Map<String, String> staleHandshakes(Node node, Map<String, HealthVerdict> verdicts) {
        var annotations = node.getMetadata().getAnnotations();
        var out = new HashMap<String, String>();
        if (annotations == null) {
            return out;
        }
        for (DeviceBackend b : backends.all()) {
            if (!verdicts.containsKey(b.vendor())) {
                b.keys().handshakeKey().filter(annotations::containsKey).ifPresent(k -> out.put(k, null));
            }
        }
        return out;
    }

    private void patchNode(String node, Map<String, String> annotations) {
        try {
            client.nodes()
                    .withName(node)
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            AnnotationPatch.mergePatch(annotations, Map.of(), null));
        } catch (KubernetesClientException e) {
            LOG.warn("node {}: handshake patch failed, retrying next round: {}", node, e.getMessage());
        }
    }

    /** Forget what was remembered about a node that is gone. */
    public void forget(String node) {
        memory.keySet().removeIf(k -> k.startsWith(node + "/"));
        unreadableLogged.keySet().removeIf(k -> k.startsWith(node + "/"));
    }

    /** A {@code Requesting_} value whose time cannot be read counts as expired (design D3); says so once per node and value. */
    private void logUnreadable(Node node, String name, DeviceBackend b) {
        var annotations = node.getMetadata().getAnnotations();
        String value = annotations == null
                ? null
                : b.keys().handshakeKey().map(annotations::get).orElse(null);
        if (HandshakeCheck.unreadableRequest(value)
                && !value.equals(unreadableLogged.put(name + "/" + b.vendor(), value))) {
            LOG.warn(
                    "node {}: {} handshake value \"{}\" has no readable time; treated as an expired request",
                    name,
                    b.vendor(),
                    value);
        }
    }
}
