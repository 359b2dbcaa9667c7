package io.hami.scheduler.bench;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.Extender;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.extender.FitInputs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The issue 4/11 cluster: N nodes × 8 GPUs (80,000 MiB, 100 cores, 100 slots, two NUMA nodes) with 40,000 running
 * pods spread at random in the usage index, and an extender over it.
 */
record BenchCluster(Extender extender, List<String> nodeNames) {
    static final int GPUS = 8;
    static final int PODS = 40_000;

    static BenchCluster of(int nodes) {
        var backends = DeviceBackends.load(DeviceConfig.DEFAULTS);
        var index = new UsageIndex();
        var names = new ArrayList<String>(nodes);
        for (int n = 0; n < nodes; n++) {
            var devices = new ArrayList<DeviceInfo>(GPUS);
            for (int g = 0; g < GPUS; g++) {
                devices.add(new DeviceInfo(
                        "GPU-" + n + "-" + g, g, 100, 80_000, 100, "NVIDIA-H100", g / 4, "hami-core", true));
            }
            String name = "node-" + n;
            names.add(name);
            index.putNode(name, Map.of(), Map.of("NVIDIA", devices), Map.of());
        }
        var rnd = new Random(1);
        for (int p = 0; p < PODS; p++) {
            int n = rnd.nextInt(nodes);
            String uuid = "GPU-" + n + "-" + rnd.nextInt(GPUS);
            index.putPod(
                    "default/running-" + p,
                    new PodUsage.Counted(
                            "node-" + n,
                            Map.of(uuid, new Grant(1, 1000 + rnd.nextInt(4000), rnd.nextInt(10))),
                            Map.of()));
        }
        var extender = new Extender(new Extender.Inputs(
                new FitInputs(index, new QuotaBook(backends, index), backends, SchedulingPolicy.UPSTREAM_DEFAULTS),
                () -> true,
                FilterObserver.NONE,
                Extender.Nodes.ALL));
        return new BenchCluster(extender, List.copyOf(names));
    }

    /** A pod asking for one GPU with {@code mib} MiB. */
    static Pod oneGpuPod(int mib) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName("incoming")
                .endMetadata()
                .withNewSpec()
                .withContainers(new ContainerBuilder()
                        .withName("c")
                        .withNewResources()
                        .addToLimits("nvidia.com/gpu", new Quantity("1"))
                        .addToLimits("nvidia.com/gpumem", new Quantity(String.valueOf(mib)))
                        .endResources()
                        .build())
                .endSpec()
                .build();
    }
}
