package io.hami.protocol.fit;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * Why devices do not fit, with upstream's exact spelling (docs/upstream.md#fit), and the
 * node message built from them.
 */
public final class Reasons {
    public static final String CARD_NOT_HEALTH = "CardNotHealth";
    public static final String CARD_CORDONED = "CardCordoned";
    public static final String CARD_TYPE_MISMATCH = "CardTypeMismatch";
    public static final String NUMA_NOT_FIT = "NumaNotFit";
    /** Upstream spells it with a lower-case "uid". */
    public static final String CARD_UUID_MISMATCH = "CardUuidMismatch";

    public static final String CARD_TIME_SLICING_EXHAUSTED = "CardTimeSlicingExhausted";
    public static final String EXCLUSIVE_DEVICE_ALLOCATE_CONFLICT = "ExclusiveDeviceAllocateConflict";
    /** Taking the device would put the pod's namespace over its ResourceQuota. */
    public static final String RESOURCE_QUOTA_NOT_FIT = "ResourceQuotaNotFit";

    public static final String CARD_INSUFFICIENT_MEMORY = "CardInsufficientMemory";
    public static final String CARD_INSUFFICIENT_CORE = "CardInsufficientCore";
    public static final String CARD_COMPUTE_UNITS_EXHAUSTED = "CardComputeUnitsExhausted";
    public static final String CARD_NOT_FOUND_CUSTOM_FILTER_RULE = "CardNotFoundCustomFilterRule";
    public static final String ALLOCATED_CARDS_INSUFFICIENT_REQUEST = "AllocatedCardsInsufficientRequest";
    /** Reported by the scheduler, without a count, when a request wants more devices than the node has (docs/upstream.md#placement). */
    public static final String NODE_INSUFFICIENT_DEVICE = "NodeInsufficientDevice";

    private Reasons() {}

    /**
     * Upstream's {@code GenReason}: one {@code "<count>/<total> <reason>"} entry per reason, sorted as
     * strings and joined with {@code ", "}, for example {@code 1/2 CardInsufficientMemory, 2/2 NumaNotFit}.
     */
    public static String genReason(Map<String, Integer> counts, int total) {
        return counts.entrySet().stream()
                .map(e -> e.getValue() + "/" + total + " " + e.getKey())
                .sorted()
                .collect(Collectors.joining(", "));
    }
}
