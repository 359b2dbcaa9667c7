package io.hami.scheduler.bind;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.scheduler.fit.NodeView;
import io.hami.scheduler.usage.Grant;
import java.util.List;
import java.util.Map;

/**
 * Whether a decision, once written, collides with what every other pod holds on its node: the check a bind makes
 * after its usage index is proven to hold every decision written before its own.
 */
final class DecisionConflict {
    private static final int WHOLE_CARD_CORES = 100;

    private DecisionConflict() {}

    /**
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

    private static String collision(DeviceUsage others, Grant ours) {
        DeviceInfo device = others.device();
        if (others.used() + ours.slots() > device.count()) {
            return (others.used() + ours.slots()) + " grants, split count " + device.count();
        }
        if (others.usedmem() + ours.mem() > device.devmem()) {
            return (others.usedmem() + ours.mem()) + " MiB granted of " + device.devmem();
        }
        if (others.usedcores() + ours.cores() > device.devcore()) {
            return (others.usedcores() + ours.cores()) + " cores granted of " + device.devcore();
        }
        if (device.devcore() == WHOLE_CARD_CORES && ours.cores() == WHOLE_CARD_CORES && others.used() > 0) {
            return "a whole-card grant beside " + others.used() + " other grants";
        }
        if (device.devcore() != 0 && others.used() > 0 && others.usedcores() == device.devcore() && ours.cores() == 0) {
            return "no cores left for a grant without cores";
        }
        return null;
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
