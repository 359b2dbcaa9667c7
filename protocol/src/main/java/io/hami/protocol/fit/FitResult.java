package io.hami.protocol.fit;

import io.hami.protocol.device.ContainerDevice;
import java.util.List;
import java.util.Map;

/** The outcome of fitting one container's request on one node's devices of one vendor. */
public sealed interface FitResult {

    /** The request fits; {@code grants} pairs each chosen device with what the container gets of it. */
    record Fits(List<Grant> grants) implements FitResult {
        public Fits {
            grants = List.copyOf(grants);
        }
    }

    /**
     * The request does not fit: {@code counts} devices per reason ({@link Reasons}) of {@code total} looked at.
     * {@link #reason} is upstream's byte-exact text, for example {@code 1/2 CardInsufficientMemory, 2/2 NumaNotFit}.
     */
    record NoFit(Map<String, Integer> counts, int total) implements FitResult {
        public NoFit {
            counts = Map.copyOf(counts);
        }

        /** Upstream's text of this result ({@link Reasons#genReason}). */
        public String reason() {
            return Reasons.genReason(counts, total);
        }
    }

    /** One chosen device and the entry written for it in the pod's device string. */
    record Grant(DeviceUsage device, ContainerDevice entry) {}
}
