package io.hami.lab.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The rules of a container's usage profile against the container it is given to. */
final class UsageRules {

    private UsageRules() {}

    /**
     * @param at        where the profile is, for example {@code workloads[0] (infer).containers[1].usage}
     * @param init      whether the container is an init container
     * @param resources the container's resources
     */
    static List<String> check(UsageProfile usage, String at, boolean init, Map<String, String> resources) {
        var problems = new ArrayList<String>();
        if (init) {
            problems.add(at + ": init containers end before the pod runs; give the usage profile to an app container");
            return problems;
        }
        String gpu = Vendor.NVIDIA.resources().count();
        if (!resources.containsKey(gpu)) {
            problems.add(at + ": a usage profile needs an NVIDIA GPU (" + gpu
                    + "): only HAMi-core keeps the shared region it describes");
            return problems;
        }
        if (usage.sm() < 0 || usage.sm() > 100) {
            problems.add(at + ".sm (SM utilisation in percent) must be 0..100, got " + usage.sm());
        }
        UsageProfile.MemoryUse memory;
        try {
            memory = UsageProfile.MemoryUse.parse(usage.memory());
        } catch (IllegalArgumentException e) {
            problems.add(at + ".memory " + e.getMessage());
            return problems;
        }
        Boolean above = switch (memory) {
            case UsageProfile.MemoryUse.Percent p -> p.percent() > 100;
            case UsageProfile.MemoryUse.Mib m ->
                limitMib(resources).map(limit -> m.amount() > limit).orElse(null);
        };
        if (Boolean.TRUE.equals(above) && !usage.overLimit()) {
            problems.add(at + ".memory " + usage.memory() + " is above the container's memory limit; "
                    + "add overLimit: true if that is the point");
        }
        if (Boolean.FALSE.equals(above) && usage.overLimit()) {
            problems.add(at + ".overLimit is true but memory " + usage.memory() + " stays within the limit");
        }
        return problems;
    }

    /** The container's memory limit per device in MiB, when it asks for one ({@code nvidia.com/gpumem}). */
    private static Optional<Long> limitMib(Map<String, String> resources) {
        try {
            return Optional.ofNullable(resources.get(Vendor.NVIDIA.resources().memory()))
                    .map(v -> Long.parseLong(v.strip()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
