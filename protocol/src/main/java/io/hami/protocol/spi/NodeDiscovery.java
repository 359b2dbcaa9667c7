package io.hami.protocol.spi;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.quantity.ResourceAmount;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a vendor's devices are found on a node (docs/upstream.md#discovery): decoded from a
 * register annotation, or synthesised from node Capacity. Only devices whose type names the vendor are
 * kept ({@link #belongsTo}); upstream keeps the others in its cache but never fits a request on them, so
 * dropping them here changes no placement.
 */
public final class NodeDiscovery {

    /** More devices than any node has; bounds what a Capacity value can make us allocate. */
    static final int MAX_CAPACITY_DEVICES = 1024;

    private NodeDiscovery() {}

    /** Upstream's match rule: the device type, lower-cased, contains the vendor keyword, lower-cased. */
    public static boolean belongsTo(String vendor, DeviceInfo device) {
        return device.type().toLowerCase(Locale.ROOT).contains(vendor.toLowerCase(Locale.ROOT));
    }

    /** A register codec's decode method. */
    @FunctionalInterface
    public interface RegisterDecoder {
        List<DeviceInfo> decode(String value) throws AnnotationFormatException;
    }

    /** The devices listed in the node annotation {@code key}, decoded with {@code decoder}. */
    public static Discovery fromRegister(Node node, String key, RegisterDecoder decoder, String vendor) {
        String where = key + " on node " + name(node);
        String value = annotations(node).get(key);
        if (value == null) {
            return new Discovery.Absent("no annotation " + where);
        }
        List<DeviceInfo> decoded;
        try {
            decoded = decoder.decode(value);
        } catch (AnnotationFormatException e) {
            return new Discovery.Invalid(where + ": " + e.getMessage());
        }
        List<DeviceInfo> owned =
                decoded.stream().filter(d -> belongsTo(vendor, d)).toList();
        if (!owned.isEmpty()) {
            return new Discovery.Found(owned);
        }
        if (decoded.isEmpty()) {
            return new Discovery.Absent(where + " lists no device");
        }
        return new Discovery.Absent(where + " lists no device whose type contains " + vendor + ", only "
                + decoded.stream().map(DeviceInfo::type).distinct().toList());
    }

    /**
     * How a capacity-discovered vendor lays its devices out.
     *
     * @param coreResource   capacity that counts cores; device {@code i} exists while {@code i * coresPerDevice < cores}
     * @param memoryResource capacity that counts memory units over all devices
     * @param coresPerDevice cores of one device (Cambricon 100, Moore Threads 16)
     * @param memoryUnitMiB  MiB per memory unit (Cambricon 256, Moore Threads 512)
     * @param idInfix        device {@code i} is {@code <node>-<idInfix>-<i>}
     * @param type           the device type, also the vendor keyword
     */
    public record CapacityLayout(
            String coreResource,
            String memoryResource,
            int coresPerDevice,
            int memoryUnitMiB,
            String idInfix,
            String type) {
        public CapacityLayout {
            Objects.requireNonNull(coreResource, "coreResource");
            Objects.requireNonNull(memoryResource, "memoryResource");
            Objects.requireNonNull(idInfix, "idInfix");
            Objects.requireNonNull(type, "type");
            if (coresPerDevice <= 0 || memoryUnitMiB <= 0) {
                throw new IllegalArgumentException("coresPerDevice and memoryUnitMiB must be positive");
            }
        }
    }

    /**
     * Devices synthesised from node Capacity: {@code ceil(cores / coresPerDevice)} devices, each with count
     * 100, {@code coresPerDevice} cores and an equal share of the memory, healthy, on NUMA node 0.
     */
    public static Discovery fromCapacity(Node node, CapacityLayout layout) {
        String nodeName = name(node);
        ResourceAmount coreAmount = capacity(node, layout.coreResource());
        ResourceAmount memoryAmount = capacity(node, layout.memoryResource());
        Optional<String> unreadable = unreadable(layout.coreResource(), coreAmount)
                .or(() -> unreadable(layout.memoryResource(), memoryAmount));
        if (unreadable.isPresent()) {
            return new Discovery.Invalid("node " + nodeName + ": " + unreadable.get());
        }
        long cores = coreAmount.int64().orElse(0);
        if (cores <= 0) {
            return new Discovery.Absent("node " + nodeName + " has no capacity " + layout.coreResource());
        }
        long count = Math.ceilDiv(cores, layout.coresPerDevice());
        if (count > MAX_CAPACITY_DEVICES) {
            return new Discovery.Invalid("node " + nodeName + ": capacity " + layout.coreResource() + "=" + cores
                    + " makes " + count + " devices, more than " + MAX_CAPACITY_DEVICES);
        }
        // int64 arithmetic truncated to int32, like upstream
        long memoryUnits = memoryAmount.int64().orElse(0);
        int devmem = (int) (memoryUnits * layout.memoryUnitMiB() * layout.coresPerDevice() / cores);
        List<DeviceInfo> devices = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            devices.add(new DeviceInfo(
                    nodeName + "-" + layout.idInfix() + "-" + i,
                    i,
                    100,
                    devmem,
                    layout.coresPerDevice(),
                    layout.type(),
                    0,
                    "",
                    true));
        }
        return new Discovery.Found(devices);
    }

    /** Why a capacity value cannot be used, if it cannot. */
    private static Optional<String> unreadable(String resource, ResourceAmount amount) {
        return switch (amount) {
            case ResourceAmount.Invalid(String text, String reason) ->
                Optional.of("capacity " + resource + ": " + reason);
            case ResourceAmount.NotInt64(String text) ->
                Optional.of("capacity " + resource + " is not an integer: " + text);
            case ResourceAmount.Int64 value -> Optional.empty();
            case ResourceAmount.Absent absent -> Optional.empty();
        };
    }

    private static ResourceAmount capacity(Node node, String resource) {
        Map<String, Quantity> capacity =
                node.getStatus() == null ? null : node.getStatus().getCapacity();
        Quantity quantity = capacity == null ? null : capacity.get(resource);
        return quantity == null ? new ResourceAmount.Absent() : ResourceAmount.of(quantity);
    }

    private static Map<String, String> annotations(Node node) {
        Map<String, String> annotations =
                node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }

    private static String name(Node node) {
        return node.getMetadata() == null ? "" : node.getMetadata().getName();
    }
}
