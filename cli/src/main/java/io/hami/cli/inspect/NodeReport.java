package io.hami.cli.inspect;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.HandshakeCodec;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.health.HandshakeCheck;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.cluster.NodeInventory;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Per node and device what the scheduler sees: capacity and allocation counted with the scheduler's own usage index
 * (the same discovery and pod accounting as {@code hami scheduler}), device health, the vendor's handshake state
 * and the node lock holder.
 */
final class NodeReport {

    /** The node lock: {@code holder} is {@code namespace/name}, empty for a legacy lock, null when unreadable. */
    record Lock(String value, String holder, Instant time, String error) {}

    /**
     * A vendor's handshake annotation: {@code absent}, {@code requested} (asked, within the answer time),
     * {@code unanswered} (asked longer ago than that) or {@code reported}. {@code askedAt} is set for the two
     * asking states when the time is readable.
     */
    record Handshake(String state, String value, Instant askedAt) {}

    /**
     * @param handshake empty for a vendor without a handshake (Cambricon, Moore Threads)
     * @param withdrawn the vendor's health rule says the scheduler drops these devices now
     */
    record Vendor(String vendor, Optional<Handshake> handshake, boolean withdrawn, List<DeviceUsage> devices) {}

    record Entry(String name, Optional<Lock> lock, List<Vendor> vendors, List<String> failClosed) {}

    private final List<Entry> entries;
    private final Instant now;

    private NodeReport(List<Entry> entries, Instant now) {
        this.entries = entries;
        this.now = now;
    }

    static NodeReport of(Cluster cluster, DeviceBackends backends, Instant now) {
        var index = new UsageIndex();
        var inventory = new NodeInventory(index, backends);
        cluster.nodes().forEach(inventory::refresh);
        cluster.pods().forEach(p -> index.putPod(Cluster.key(p), PodUsage.of(p, backends)));
        var entries = new ArrayList<Entry>();
        for (Node node : cluster.nodes()) {
            String name = node.getMetadata().getName();
            var snapshot =
                    index.snapshot(name).orElseThrow(() -> new IllegalStateException("node " + name + " not indexed"));
            var vendors = new ArrayList<Vendor>();
            for (DeviceBackend b : backends.all()) {
                List<DeviceUsage> devices = snapshot.view().devicesOf(b.vendor()).stream()
                        .sorted(Comparator.comparingInt(
                                (DeviceUsage u) -> u.device().index()))
                        .toList();
                if (devices.isEmpty()) {
                    continue;
                }
                Optional<Handshake> handshake = b.keys()
                        .handshakeKey()
                        .map(k -> handshake(Cluster.annotations(node).get(k), now));
                boolean withdrawn = !b.checkHealth(node, now, HealthMemory.NONE).healthy();
                vendors.add(new Vendor(b.vendor(), handshake, withdrawn, devices));
            }
            entries.add(new Entry(
                    name, lock(Cluster.annotations(node).get(ProtocolKeys.NODE_LOCK)), vendors, snapshot.failClosed()));
        }
        return new NodeReport(entries, now);
    }

    private static Optional<Lock> lock(String value) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            NodeLock lock = NodeLockCodec.decode(value);
            String holder = lock.isLegacy() ? "" : lock.namespace() + "/" + lock.name();
            return Optional.of(new Lock(value, holder, lock.time().toInstant(), null));
        } catch (AnnotationFormatException e) {
            return Optional.of(new Lock(value, null, null, e.getMessage()));
        }
    }

    /** The handshake as the scheduler's check reads it: any value containing {@code Requesting} is a question. */
    private static Handshake handshake(String value, Instant now) {
        if (value == null) {
            return new Handshake("absent", null, null);
        }
        if (!value.contains("Requesting")) {
            return new Handshake("reported", value, null);
        }
        Instant asked = null;
        try {
            asked = HandshakeCodec.decode(value).time().toInstant(ZoneOffset.UTC);
        } catch (AnnotationFormatException e) {
            // An unreadable time counts as still pending, as in the scheduler's check.
        }
        boolean expired = asked != null && now.isAfter(asked.plus(HandshakeCheck.ANSWER_TIME));
        return new Handshake(expired ? "unanswered" : "requested", value, asked);
    }

    static final String[] HEADERS = {
        "NODE", "VENDOR", "INDEX", "DEVICE", "TYPE", "HEALTH", "SHARED", "MEMORY(MiB)", "CORES", "HANDSHAKE", "LOCK"
    };

    String table() {
        var table = new Table(HEADERS);
        var notes = new StringBuilder();
        for (Entry e : entries) {
            String lock = e.lock().map(this::lockCell).orElse("-");
            if (e.vendors().isEmpty()) {
                table.row(e.name(), "-", "-", "-", "-", "-", "-", "-", "-", "-", lock);
            }
            for (Vendor v : e.vendors()) {
                String handshake = v.handshake().map(this::handshakeCell).orElse("-");
                for (DeviceUsage u : v.devices()) {
                    DeviceInfo d = u.device();
                    String health = v.withdrawn() ? "withdrawn" : d.health() ? "healthy" : "unhealthy";
                    table.row(
                            e.name(),
                            v.vendor(),
                            Integer.toString(d.index()),
                            d.id(),
                            d.type(),
                            health,
                            u.used() + "/" + d.count(),
                            u.usedmem() + "/" + d.devmem(),
                            u.usedcores() + "/" + d.devcore(),
                            handshake,
                            lock);
                }
            }
            e.failClosed()
                    .forEach(reason -> notes.append("node ")
                            .append(e.name())
                            .append(" fails closed: ")
                            .append(reason)
                            .append('\n'));
        }
        return notes.isEmpty() ? table.render() : table.render() + "\n" + notes;
    }

    private String lockCell(Lock lock) {
        if (lock.holder() == null) {
            return "unreadable";
        }
        String age = age(lock.time());
        return lock.holder().isEmpty() ? "legacy (" + age + ")" : lock.holder() + " (" + age + ")";
    }

    private String handshakeCell(Handshake h) {
        return switch (h.state()) {
            case "requested", "unanswered" ->
                h.askedAt() == null ? h.state() : h.state() + " " + age(h.askedAt()) + " ago";
            default -> h.state();
        };
    }

    /** Whole seconds from {@code then} to now, like {@code 75s}. */
    private String age(Instant then) {
        return Duration.between(then, now).toSeconds() + "s";
    }

    ObjectNode json() {
        var f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        ArrayNode nodes = root.putArray("nodes");
        for (Entry e : entries) {
            ObjectNode n = nodes.addObject().put("name", e.name());
            if (e.lock().isPresent()) {
                Lock l = e.lock().get();
                ObjectNode lock = n.putObject("lock").put("value", l.value());
                if (l.holder() == null) {
                    lock.putNull("holder").putNull("time").putNull("ageSeconds").put("error", l.error());
                } else {
                    lock.put("holder", l.holder().isEmpty() ? null : l.holder())
                            .put("time", l.time().toString())
                            .put("ageSeconds", Duration.between(l.time(), now).toSeconds());
                }
            } else {
                n.putNull("lock");
            }
            ArrayNode vendors = n.putArray("vendors");
            for (Vendor v : e.vendors()) {
                ObjectNode vendor = vendors.addObject().put("vendor", v.vendor());
                if (v.handshake().isPresent()) {
                    Handshake h = v.handshake().get();
                    ObjectNode hs = vendor.putObject("handshake")
                            .put("state", h.state())
                            .put("value", h.value());
                    if (h.askedAt() == null) {
                        hs.putNull("askedAt").putNull("ageSeconds");
                    } else {
                        hs.put("askedAt", h.askedAt().toString())
                                .put(
                                        "ageSeconds",
                                        Duration.between(h.askedAt(), now).toSeconds());
                    }
                } else {
                    vendor.putNull("handshake");
                }
                vendor.put("withdrawn", v.withdrawn());
                ArrayNode devices = vendor.putArray("devices");
                for (DeviceUsage u : v.devices()) {
                    DeviceInfo d = u.device();
                    devices.addObject()
                            .put("index", d.index())
                            .put("id", d.id())
                            .put("type", d.type())
                            .put("health", d.health())
                            .put("numa", d.numa())
                            .put("mode", d.mode())
                            .put("count", d.count())
                            .put("used", u.used())
                            .put("memoryMiB", d.devmem())
                            .put("usedMemoryMiB", u.usedmem())
                            .put("cores", d.devcore())
                            .put("usedCores", u.usedcores());
                }
            }
            ArrayNode failClosed = n.putArray("failClosed");
            e.failClosed().forEach(failClosed::add);
        }
        return root;
    }
}
