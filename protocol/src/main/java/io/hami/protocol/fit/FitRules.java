package io.hami.protocol.fit;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import java.util.Set;

/**
 * The vendor-specific checks of the per-device fit walk ({@link FitWalk}). Everything else in the walk is
 * common to the four vendors.
 */
public interface FitRules {

    /**
     * The device may serve this request; otherwise {@link Reasons#CARD_TYPE_MISMATCH}. Reads of the device only its
     * type and mode, and of the context only the pod's annotations, so filter may ask once per type and mode.
     */
    boolean typeMatches(DeviceInfo device, ContainerRequest request, FitContext context);

    /** The pod annotations that select devices by ID; a device they exclude is {@link Reasons#CARD_UUID_MISMATCH}. */
    DeviceSelector uuidSelector();

    /**
     * IDs of devices taken out of scheduling ({@link Reasons#CARD_CORDONED}); none by default. Reads only the node's
     * annotations, so filter may work it out once per node and pod.
     */
    default Set<String> cordoned(FitContext context) {
        return Set.of();
    }

    /**
     * Whether the devices of one request must share a NUMA node ({@link Reasons#NUMA_NOT_FIT}); no by default. Reads
     * only the pod's annotations.
     */
    default boolean numaBind(FitContext context) {
        return false;
    }

    /** A last vendor rule; a device that fails it is {@link Reasons#CARD_NOT_FOUND_CUSTOM_FILTER_RULE}. */
    default boolean customRule(DeviceUsage device, FitContext context) {
        return true;
    }
}
