package io.hami.protocol.fit;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The per-device fit of one container request on one node's devices of one vendor, in upstream's order of
 * checks (docs/upstream.md#fit), the namespace quota included. MIG placement is not part of it; a vendor that chooses
 * among the devices that fit (NVIDIA's topology-aware policy) asks {@link #candidates} after {@link #fit}.
 */
public final class FitWalk {

    private FitWalk() {}

    /**
     * Walks {@code devices} from the last to the first (the list is sorted by the device policy, best last)
     * and takes the first {@code request.nums()} devices that pass every check. When too few pass, the
     * result names, for each reason, how many devices failed with it.
     */
    public static FitResult fit(
            List<DeviceUsage> devices, ContainerRequest request, FitContext context, FitRules rules) {
        Set<String> cordoned = rules.cordoned(context);
        Predicate<String> uuidAllowed = rules.uuidSelector().byUuid(context.podAnnotations());
        boolean numaBind = rules.numaBind(context);
        boolean mutex = policyContains(context.gpuPolicy(), "mutex");

        // Upstream clamps while walking and keeps the clamp; cores are first read after that point, so clamping
        // up front is the same.
        int cores = request.grantedCores();
        Map<String, Integer> reasons = new HashMap<>();
        List<FitResult.Grant> taken = new ArrayList<>();
        int wanted = request.nums();
        // Upstream starts at -1 too. Devices of unknown NUMA node (DeviceInfo.NO_NUMA, -1) compare equal, so they form
        // one group and never join a known node's (design D9); starting there is no restart, as nothing is taken yet.
        int prevNuma = DeviceInfo.NO_NUMA;
        for (int i = devices.size() - 1; i >= 0; i--) {
            DeviceUsage usage = devices.get(i);
            DeviceInfo device = usage.device();
            String failure = checkDevice(device, request, context, rules, cordoned);
            if (failure == null && numaBind && prevNuma != device.numa()) {
                // A new NUMA node starts the request over; devices taken on the previous one are given back.
                if (wanted != request.nums()) {
                    reasons.merge(Reasons.NUMA_NOT_FIT, taken.size(), Integer::sum);
                }
                wanted = request.nums();
                prevNuma = device.numa();
                taken.clear();
            }
            int memory = memoryFor(device, request);
            if (failure == null) {
                failure = checkCapacity(usage, memory, cores, uuidAllowed, mutex, rules, context, taken);
            }
            if (failure != null) {
                reasons.merge(failure, 1, Integer::sum);
                continue;
            }
            if (wanted > 0) {
                taken.add(new FitResult.Grant(usage, new ContainerDevice(device.id(), request.type(), memory, cores)));
                wanted--;
            }
            if (wanted == 0) {
                return new FitResult.Fits(taken);
            }
        }
        if (!taken.isEmpty()) {
            reasons.put(Reasons.ALLOCATED_CARDS_INSUFFICIENT_REQUEST, taken.size());
        }
        return new FitResult.NoFit(reasons, devices.size());
    }

    /**
     * Every device that passes the walk's checks on its own, in walk order (last to first): the devices a vendor may
     * choose among once {@link #fit} has said the request fits. NUMA binding is left to the caller, and the quota is
     * checked for each device alone (the caller checks the set it chooses).
     */
    public static List<FitResult.Grant> candidates(
            List<DeviceUsage> devices, ContainerRequest request, FitContext context, FitRules rules) {
        Set<String> cordoned = rules.cordoned(context);
        Predicate<String> uuidAllowed = rules.uuidSelector().byUuid(context.podAnnotations());
        boolean mutex = policyContains(context.gpuPolicy(), "mutex");
        int cores = request.grantedCores();
        List<FitResult.Grant> out = new ArrayList<>();
        for (int i = devices.size() - 1; i >= 0; i--) {
            DeviceUsage usage = devices.get(i);
            DeviceInfo device = usage.device();
            int memory = memoryFor(device, request);
            if (checkDevice(device, request, context, rules, cordoned) == null
                    && checkCapacity(usage, memory, cores, uuidAllowed, mutex, rules, context, List.of()) == null) {
                out.add(new FitResult.Grant(usage, new ContainerDevice(device.id(), request.type(), memory, cores)));
            }
        }
        return out;
    }

    /** Checks 1 to 3 of docs/upstream.md#fit; null when the device passes. */
    private static String checkDevice(
            DeviceInfo device, ContainerRequest request, FitContext context, FitRules rules, Set<String> cordoned) {
        if (!device.health()) {
            return Reasons.CARD_NOT_HEALTH;
        }
        if (cordoned.contains(device.id())) {
            return Reasons.CARD_CORDONED;
        }
        if (!rules.typeMatches(device, request, context)) {
            return Reasons.CARD_TYPE_MISMATCH;
        }
        return null;
    }

    /**
     * Checks 5 to 15 of docs/upstream.md#fit (the caller works out the clamped cores and the memory; the device's room
     * is {@link DeviceRoom}'s rule); null when the device passes.
     */
    private static String checkCapacity(
            DeviceUsage usage,
            int memory,
            int cores,
            Predicate<String> uuidAllowed,
            boolean mutex,
            FitRules rules,
            FitContext context,
            List<FitResult.Grant> taken) {
        if (!uuidAllowed.test(usage.device().id())) {
            return Reasons.CARD_UUID_MISMATCH;
        }
        String lacking = DeviceRoom.lacking(usage, 1, memory, cores);
        // No share left (check 6) comes before the mutex and the quota, the other room checks after them.
        if (Reasons.CARD_TIME_SLICING_EXHAUSTED.equals(lacking)) {
            return lacking;
        }
        if (mutex && usage.used() > 0) {
            return Reasons.EXCLUSIVE_DEVICE_ALLOCATE_CONFLICT;
        }
        if (!context.quota().isUnlimited() && !withinQuota(context, taken, memory, cores)) {
            return Reasons.RESOURCE_QUOTA_NOT_FIT;
        }
        if (lacking != null) {
            return lacking;
        }
        if (!rules.customRule(usage, context)) {
            return Reasons.CARD_NOT_FOUND_CUSTOM_FILTER_RULE;
        }
        return null;
    }

    /** Check 10: this container's devices so far and this device, within the room the caller left it. */
    private static boolean withinQuota(FitContext context, List<FitResult.Grant> taken, int memory, int cores) {
        long mem = memory;
        long core = cores;
        for (FitResult.Grant g : taken) {
            mem += g.entry().usedmem();
            core += g.entry().usedcores();
        }
        return context.quota().admits(mem, core);
    }

    /** MiB the request takes of {@code device}: its memory, or its percentage of the device (int32 arithmetic, like Go). */
    private static int memoryFor(DeviceInfo device, ContainerRequest request) {
        int memory = Math.max(request.memreq(), 0);
        if (request.memPercentagereq() != ContainerRequest.NO_PERCENTAGE && request.memreq() == 0) {
            memory = device.devmem() * request.memPercentagereq() / 100;
        }
        return memory;
    }

    /** Upstream's {@code PolicyContains}: the comma-separated policy names {@code name}, ignoring spaces. */
    private static boolean policyContains(String policy, String name) {
        return Arrays.stream(policy.split(",", -1)).map(String::trim).anyMatch(name::equals);
    }
}
