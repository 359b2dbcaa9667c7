package io.hami.scheduler.usage;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.quantity.ResourceAmount;
import io.hami.protocol.spi.DeviceBackend;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A register never claims more than the node's status allows (design D9 "Node-side trust", docs/design.md#d9). A
 * plugin that shares a card through a register (NVIDIA, Hygon) advertises one kubelet device per slot of a healthy
 * card on the vendor's count resource, so the kubelet's Allocatable of that resource (written by the kubelet only,
 * which NodeRestriction keeps to its own node) bounds the healthy devices of the register and the sum of their
 * slots ({@code count}). A register above that bound is not used: the vendor fails closed on that node, with the
 * reason filter gives for a register that does not decode. Unhealthy devices are left out, as the kubelet leaves
 * them out of Allocatable and fit never places on them.
 */
public final class RegisterCap {
    private RegisterCap() {}

    /** Why {@code devices}, {@code backend}'s register on {@code node}, claim more than the node's Allocatable. */
    static Optional<String> exceeded(Node node, DeviceBackend backend, List<DeviceInfo> devices) {
        return backend.keys().registerKey().flatMap(key -> {
            String resource = backend.resources().count();
            return exceeded(name(node), key, devices, resource, allocatable(node, resource));
        });
    }

    /**
     * Why the healthy {@code devices} read from {@code registerKey} on {@code node} claim more than Allocatable
     * {@code resource} ({@code allocatable}; absent counts as 0): more devices, or more slots, than it holds. Empty
     * when they do not.
     */
    public static Optional<String> exceeded(
            String node, String registerKey, List<DeviceInfo> devices, String resource, ResourceAmount allocatable) {
        String where = registerKey + " on node " + node;
        long limit = allocatable.present() ? allocatable.int64().orElse(-1) : 0;
        if (limit < 0) {
            // Not a whole number of slots (1.5, 1500m, junk) or negative: refused rather than guessed.
            return Optional.of(where + " cannot be checked: Allocatable " + resource
                    + " is not a whole number of slots: " + text(allocatable));
        }
        long healthy = 0;
        long slots = 0;
        for (DeviceInfo d : devices) {
            if (d.health()) {
                healthy++;
                slots += Math.max(d.count(), 0);
            }
        }
        if (healthy <= limit && slots <= limit) {
            return Optional.empty();
        }
        return Optional.of(where + " claims " + healthy + " healthy device" + (healthy == 1 ? "" : "s") + " with "
                + slots + " slot" + (slots == 1 ? "" : "s") + ", more than the node's Allocatable " + resource + "="
                + limit + (allocatable.present() ? "" : " (absent)")
                + " allows: the kubelet reports one " + resource + " per slot its device plugin advertises");
    }

    private static String text(ResourceAmount amount) {
        return switch (amount) {
            case ResourceAmount.Int64(long value) -> Long.toString(value);
            case ResourceAmount.NotInt64(String quantity) -> quantity;
            case ResourceAmount.Invalid(String quantity, String reason) -> quantity + " (" + reason + ")";
            case ResourceAmount.Absent absent -> "absent";
        };
    }

    private static ResourceAmount allocatable(Node node, String resource) {
        Map<String, Quantity> allocatable =
                node.getStatus() == null ? null : node.getStatus().getAllocatable();
        Quantity quantity = allocatable == null ? null : allocatable.get(resource);
        return quantity == null ? new ResourceAmount.Absent() : ResourceAmount.of(quantity);
    }

    private static String name(Node node) {
        return node.getMetadata() == null ? "" : node.getMetadata().getName();
    }
}
