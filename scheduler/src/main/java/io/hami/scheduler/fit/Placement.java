package io.hami.scheduler.fit;

import io.hami.protocol.device.PodDevices;
import io.hami.protocol.fit.DeviceUsage;
import java.util.List;
import java.util.Map;

/** The outcome of placing a whole pod on one node. */
public sealed interface Placement {

    /**
     * The pod fits.
     *
     * @param devices per vendor keyword, the pod's device string value (one entry per container)
     * @param usage   per vendor keyword, the node's devices with this pod's usage added
     */
    record Placed(Map<String, PodDevices> devices, Map<String, List<DeviceUsage>> usage) implements Placement {
        public Placed {
            devices = Map.copyOf(devices);
            usage = Map.copyOf(usage);
        }
    }

    /** The pod does not fit; {@code reason} is what filter reports for the node. */
    record Unplaced(String reason) implements Placement {
    }
}
