package io.hami.monitor;

import io.hami.monitor.scan.ContainerRegion;
import io.hami.nativebind.hamicore.Control;
import io.hami.nativebind.hamicore.DeviceMemory;
import io.hami.nativebind.hamicore.DeviceShare;
import io.hami.nativebind.hamicore.ProcessUsage;
import io.hami.nativebind.hamicore.SharedRegion;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Regions as plain values, for the rules' tests. */
public final class Regions {
    private Regions() {}

    /** A container {@code name} of pod {@code pod} on {@code uuids}, with the given feedback fields. */
    public static ContainerRegion container(
            String pod, String name, int priority, int recentKernel, int utilizationSwitch, String... uuids) {
        List<DeviceShare> devices =
                Arrays.stream(uuids).map(u -> new DeviceShare(u, 1L << 30, 50)).toList();
        var region =
                new SharedRegion(1, 1, devices, List.of(), new Control(priority, recentKernel, utilizationSwitch, 0));
        return new ContainerRegion(Path.of("/hook/containers/" + pod + "_" + name + "/r.cache"), pod, name, region);
    }

    /** One device {@code uuid} with a limit, used by processes each holding {@code memory} and {@code sm}. */
    public static SharedRegion region(String uuid, long limit, long lastKernel, List<DeviceMemory> memory, long... sm) {
        var processes = new java.util.ArrayList<ProcessUsage>();
        for (int p = 0; p < memory.size(); p++) {
            processes.add(new ProcessUsage(p + 1, 1000 + p, List.of(memory.get(p)), List.of(sm[p])));
        }
        return new SharedRegion(
                1, 1, List.of(new DeviceShare(uuid, limit, 100)), processes, new Control(0, 0, 0, lastKernel));
    }
}
