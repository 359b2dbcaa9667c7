package io.hami.scheduler.fit;

import io.hami.protocol.device.PodDevices;
import java.util.Map;

/** The outcome of placing a whole pod on one node. */
public sealed interface Placement {

    /**
     * The pod fits.
     *
     * @param devices per vendor keyword, the pod's device string value (one entry per container)
     */
    record Placed(Map<String, PodDevices> devices) implements Placement {
        public Placed {
            devices = Map.copyOf(devices);
        }
    }

    /** The pod does not fit, and why. */
    record Unplaced(Denial denial) implements Placement {}
}
