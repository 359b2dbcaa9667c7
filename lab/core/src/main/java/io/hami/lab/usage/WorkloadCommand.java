package io.hami.lab.usage;

import io.hami.lab.scenario.UsageProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The {@code hami-workload} command line for one container (hardware-mocks' README, "HAMi-core workloads"). */
final class WorkloadCommand {
    /** How often the workload rewrites its figures. */
    static final Duration PERIOD = Duration.ofMillis(250);
    /** The ramp of a container that runs until the end of the run. */
    static final Duration DEFAULT_RAMP = Duration.ofSeconds(10);

    private WorkloadCommand() {}

    /**
     * @param lifetime how long the container runs; null: until the end of the run
     */
    static List<String> of(Path tool, RegionPlan plan, UsageProfile profile, Duration lifetime) {
        var argv = new ArrayList<String>(
                List.of(tool.toString(), "--region", plan.region().toString(), "--format-version", "1"));
        for (RegionPlan.Device d : plan.devices()) {
            argv.add("--device");
            argv.add(d.uuid() + ":" + d.limitMib() + ":" + d.smLimit());
        }
        argv.addAll(List.of(
                "--priority", Integer.toString(plan.priority()),
                "--processes", "1",
                "--used-mib", Long.toString(usedMib(plan, profile)),
                "--sm-util", Integer.toString(profile.sm()),
                "--profile", profile.profile().yamlName(),
                "--period-ms", Long.toString(PERIOD.toMillis())));
        if (profile.profile() == UsageProfile.Shape.RAMP) {
            // A ramp reaches its top at the end of the container's life (then the workload exits with it written).
            Duration ramp = lifetime == null ? DEFAULT_RAMP : lifetime;
            argv.addAll(List.of("--duration-s", Long.toString(Math.max(1, ramp.toSeconds()))));
        }
        return argv;
    }

    /** The profile's memory on the first device, whose limit a share is taken of (HAMi grants one size to all). */
    static long usedMib(RegionPlan plan, UsageProfile profile) {
        return profile.memoryMib(plan.devices().getFirst().limitMib());
    }
}
