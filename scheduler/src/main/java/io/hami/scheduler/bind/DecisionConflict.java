package io.hami.scheduler.bind;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceRoom;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.Reasons;
import io.hami.scheduler.fit.NodeView;
import io.hami.scheduler.usage.Grant;
import java.util.List;
import java.util.Map;

/**
 * Whether a decision, once written, collides with what every other pod holds on its node: the check a bind makes
 * after its usage index is proven to hold every decision written before its own.
 */
final class DecisionConflict {
    private DecisionConflict() {}

    /**
     * What collides between a written decision and the rest of its node.
     *
     * @param others the node with every pod's usage but the deciding pod's
     * @param ours   what the deciding pod holds, by device ID
     * @return what collides, or null when the decision fits beside the others
     */
    static String find(NodeView others, Map<String, Grant> ours) {
        for (var entry : ours.entrySet()) {
            DeviceUsage usage = usageOf(others, entry.getKey());
            if (usage == null) {
                return "device " + entry.getKey() + " is no longer on node " + others.name();
            }
            String collision = collision(usage, entry.getValue());
            if (collision != null) {
                return "device " + entry.getKey() + " on node " + others.name() + ": " + collision;
            }
        }
        return null;
    }

    /** What collides, in words, by {@link DeviceRoom}'s rule (the fit walk's); null when {@code ours} has room. */
    private static String collision(DeviceUsage others, Grant ours) {
        String lacking = DeviceRoom.lacking(others, ours.slots(), ours.mem(), ours.cores());
        if (lacking == null) {
            return null;
        }
        DeviceInfo device = others.device();
        return switch (lacking) {
            case Reasons.CARD_TIME_SLICING_EXHAUSTED ->
                (others.used() + ours.slots()) + " grants, split count " + device.count();
            case Reasons.CARD_INSUFFICIENT_MEMORY ->
                (others.usedmem() + ours.mem()) + " MiB granted of " + device.devmem();
            case Reasons.CARD_INSUFFICIENT_CORE ->
                (others.usedcores() + ours.cores()) + " cores granted of " + device.devcore();
            case Reasons.EXCLUSIVE_DEVICE_ALLOCATE_CONFLICT ->
                "a whole-card grant beside " + others.used() + " other grants";
            case Reasons.CARD_COMPUTE_UNITS_EXHAUSTED -> "no cores left for a grant without cores";
            default -> lacking;
        };
    }

    private static DeviceUsage usageOf(NodeView node, String id) {
        for (List<DeviceUsage> devices : node.devices().values()) {
            for (DeviceUsage usage : devices) {
                if (usage.device().id().equals(id)) {
                    return usage;
                }
            }
        }
        return null;
    }
}
