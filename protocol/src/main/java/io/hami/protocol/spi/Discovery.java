package io.hami.protocol.spi;

import io.hami.protocol.device.DeviceInfo;
import java.util.List;

/** What a backend found on one node. A closed set, so callers handle every case. */
public sealed interface Discovery {

    /** The node has devices of this vendor. */
    record Found(List<DeviceInfo> devices) implements Discovery {
        public Found {
            devices = List.copyOf(devices);
        }
    }

    /** The node carries nothing of this vendor (no annotation, no capacity, or zero devices). */
    record Absent(String reason) implements Discovery {}

    /**
     * The node carries this vendor's inventory but it does not decode. The node fails closed for this
     * vendor: nothing is scheduled onto its devices, and {@code reason} says why.
     */
    record Invalid(String reason) implements Discovery {}
}
