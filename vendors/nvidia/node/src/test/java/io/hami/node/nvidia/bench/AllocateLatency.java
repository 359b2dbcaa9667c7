package io.hami.node.nvidia.bench;

import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.plugin.PluginApp;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestCluster;
import io.hami.plugin.testing.TestKubelet;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Allocate latency as the kubelet sees it: the NVIDIA plugin on the NVML mock and the embedded API server, a
 * test kubelet over the real Unix socket. Each round binds a fresh one-container pod the way the scheduler does
 * (lock, decision patch, binding), times one Allocate (find the pod, consume the entry, HAMi-core response,
 * success, lock release: 6 API calls) and deletes the pod. Prints p50/p90/p99/max over the measured rounds.
 *
 * <p>Run with {@code scripts/bench.sh plugin AllocateLatency [rounds] [warm-up rounds]}.
 */
public final class AllocateLatency {
    private static final String NODE = "bench-node";
    private static final String GPU = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";

    private AllocateLatency() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        VendorKeys keys = DeviceBackends.load(DeviceConfig.DEFAULTS)
                .byVendor(NvidiaKeys.VENDOR)
                .orElseThrow()
                .keys();
        try (PluginFixture node = PluginFixture.open(NODE)) {
            TestCluster cluster = node.cluster();
            TestKubelet kubelet = node.kubelet();
            PluginApp plugin = node.start("nvidia");
            System.out.printf(
                    "%s plugin with %d GPUs registered%n",
                    plugin.vendor().backend().vendor(),
                    plugin.vendor().devices().size());
            long[] nanos = new long[rounds];
            for (int i = 0; i < warmup + rounds; i++) {
                String pod = "p" + i;
                cluster.pod(pod, List.of(), List.of(TestCluster.container("main")));
                cluster.bind(pod, NODE, Map.of(keys, GPU + ",NVIDIA,1000,10:;"));
                long start = System.nanoTime();
                kubelet.allocate("nvidia.com/gpu", List.of(GPU + "-" + (i % 10)));
                long took = System.nanoTime() - start;
                if (i >= warmup) {
                    nanos[i - warmup] = took;
                }
                cluster.client()
                        .pods()
                        .inNamespace(TestCluster.NS)
                        .withName(pod)
                        .delete();
            }
            Arrays.sort(nanos);
            System.out.printf(
                    "Allocate latency over %d calls (after %d warm-up): p50 %.2f ms, p90 %.2f ms, "
                            + "p99 %.2f ms, max %.2f ms, mean %.2f ms%n",
                    rounds,
                    warmup,
                    ms(percentile(nanos, 50)),
                    ms(percentile(nanos, 90)),
                    ms(percentile(nanos, 99)),
                    ms(nanos[rounds - 1]),
                    ms((long) Arrays.stream(nanos).average().orElse(0)));
        }
    }

    private static long percentile(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
