package io.hami.scheduler.extender;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.backend.nvidia.topology.DevicePairScore;
import io.hami.backend.nvidia.topology.DevicePairScoreCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.fit.ScoringWeights;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Filter's fast path (the node summary) against the full placement, over generated clusters and pods of the four real
 * vendors: every answer (fits, or the reason text) must be the same. Seeded, so a failure repeats; the case counts are
 * fixed.
 */
class QuickFitEquivalenceTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);
    static final int CLUSTERS = 150;
    static final int NODES = 12;
    static final int PODS_PER_CLUSTER = 40;

    /** Vendor keyword, its count, memory and core resources, and device types (one that its rule refuses). */
    record Vendor(String keyword, String count, String memory, String cores, String percentage, List<String> types) {}

    static final List<Vendor> VENDORS = List.of(
            new Vendor(
                    "NVIDIA",
                    "nvidia.com/gpu",
                    "nvidia.com/gpumem",
                    "nvidia.com/gpucores",
                    "nvidia.com/gpumem-percentage",
                    List.of("NVIDIA-A100", "NVIDIA-H100", "Tesla T4")),
            new Vendor(
                    "MLU",
                    "cambricon.com/vmlu",
                    "cambricon.com/mlu.smlu.vmemory",
                    "cambricon.com/mlu.smlu.vcore",
                    null,
                    List.of("MLU370", "MLU590")),
            new Vendor(
                    "Mthreads",
                    "mthreads.com/vgpu",
                    "mthreads.com/sgpu-memory",
                    "mthreads.com/sgpu-core",
                    null,
                    List.of("Mthreads-S4000", "MTT S80")),
            new Vendor(
                    "HCU",
                    "hygon.com/hcunum",
                    "hygon.com/hcumem",
                    "hygon.com/hcucores",
                    null,
                    List.of("HCU-Z100", "DCU-K100")));

    @Test
    void theFastPathAnswersEveryGeneratedPodAndNodeExactlyAsTheFullPlacement() throws Exception {
        var rnd = new Random(20261130);
        int compared = 0;
        int quick = 0;
        int fits = 0;
        var kinds = new HashSet<String>();
        int combined = 0;
        for (int cluster = 0; cluster < CLUSTERS; cluster++) {
            var index = new UsageIndex();
            var names = cluster(rnd, index);
            var extender = extender(index, new SchedulingPolicy("binpack", rnd.nextBoolean() ? "spread" : "binpack"));
            for (int p = 0; p < PODS_PER_CLUSTER; p++) {
                Pod pod = pod(rnd, p);
                CandidateCheck check;
                try {
                    check = extender.check(pod);
                } catch (ScoringWeights.InvalidWeightsException e) {
                    throw new AssertionError(e);
                }
                for (String node : names) {
                    Denial expected = check.whyNotByPlacement(node);
                    Denial actual = check.whyNot(node);
                    assertThat(actual)
                            .as("pod %s on node %s of cluster %d", pod.getSpec(), node, cluster)
                            .isEqualTo(expected);
                    assertThat(text(actual)).isEqualTo(text(expected));
                    compared++;
                    if (check.quick()) {
                        quick++;
                        if (expected == null) {
                            fits++;
                        } else {
                            kinds.addAll(List.of(expected.text()
                                    .replaceAll("[0-9]+/[0-9]+ ", "")
                                    .split(", ")));
                            combined += expected.counts().size() > 1 ? 1 : 0;
                        }
                    }
                }
            }
        }
        // The comparison must have covered the fast path on both outcomes and on many different reasons.
        assertThat(compared).isEqualTo(CLUSTERS * PODS_PER_CLUSTER * (NODES + 1));
        assertThat(quick).isGreaterThan(compared / 3);
        assertThat(fits).isGreaterThan(quick / 20);
        assertThat(kinds)
                .contains(
                        "node unregistered",
                        "NodeInsufficientDevice",
                        "CardInsufficientMemory",
                        "CardInsufficientCore",
                        "CardTypeMismatch",
                        "CardNotHealth",
                        "CardCordoned",
                        "CardTimeSlicingExhausted",
                        "ExclusiveDeviceAllocateConflict",
                        "CardComputeUnitsExhausted",
                        "AllocatedCardsInsufficientRequest");
        assertThat(kinds).anyMatch(k -> k.startsWith("node fails closed"));
        assertThat(combined).isGreaterThan(1000);
    }

    @Test
    void filterOverThousandsOfCandidatesAnswersEachNodeAsTheFullPlacementDoes() throws Exception {
        var rnd = new Random(7);
        var index = new UsageIndex();
        var names = cluster(rnd, index, 3000); // above the size filter splits over all cores
        var extender = extender(index, SchedulingPolicy.UPSTREAM_DEFAULTS);
        for (int p = 0; p < 20; p++) {
            Pod pod = pod(rnd, p);
            var check = extender.check(pod);
            var expectedFit = new ArrayList<String>();
            var expectedFailed = new LinkedHashMap<String, String>();
            for (String node : names) {
                Denial why = check.whyNotByPlacement(node);
                if (why == null) {
                    expectedFit.add(node);
                } else {
                    expectedFailed.put(node, why.text());
                }
            }
            var result = extender.filter(new ExtenderArgs(pod, null, names));
            assertThat(result.nodeNames()).as("pod %d", p).isEqualTo(expectedFit);
            assertThat(result.failedNodes()).as("pod %d", p).containsExactlyEntriesOf(expectedFailed);
        }
    }

    @Test
    void messagesMatchOnNodesWithManyDevicesAndAcrossMoreDistinctMessagesThanAreKept() throws Exception {
        // Fast-path messages are shared by their counts (a bounded cache, 63 devices a vendor at most) and built each
        // time past that: many distinct counts and nodes of up to 80 GPUs must still give the placement's exact text.
        var rnd = new Random(42);
        var index = new UsageIndex();
        var names = new ArrayList<String>();
        int podNo = 0;
        for (int n = 0; n < 500; n++) {
            String node = "big-" + n;
            names.add(node);
            int count = n % 10 == 0 ? 60 + rnd.nextInt(21) : 1 + rnd.nextInt(40);
            boolean sick = n % 20 == 0; // one reason for 60 to 80 devices: a count past what a packed field holds
            var list = new ArrayList<DeviceInfo>();
            for (int i = 0; i < count; i++) {
                var d = new DeviceInfo(
                        node + "-" + i,
                        i,
                        pick(rnd, 1, 2, 10),
                        pick(rnd, 16000, 80000),
                        100,
                        rnd.nextInt(3) == 0 ? "NVIDIA-A100" : "NVIDIA-H100",
                        0,
                        "hami-core",
                        !sick && rnd.nextInt(8) != 0);
                list.add(d);
            }
            index.putNode(node, Map.of(), Map.of("NVIDIA", list), Map.of());
            for (DeviceInfo d : list) {
                if (rnd.nextBoolean()) {
                    var grant = new Grant(1 + rnd.nextInt(d.count()), rnd.nextInt(d.devmem()), rnd.nextInt(101));
                    index.putPod(
                            "ns/running-" + podNo++,
                            new PodUsage.Counted(node, Map.of(d.id(), grant), Map.of("NVIDIA", grant)));
                }
            }
        }
        var extender = extender(index, SchedulingPolicy.UPSTREAM_DEFAULTS);
        var distinct = new HashSet<String>();
        int wide = 0;
        int over63 = 0;
        for (int p = 0; p < 16; p++) {
            var limits = new LinkedHashMap<String, Quantity>();
            limits.put("nvidia.com/gpu", new Quantity(String.valueOf(pick(rnd, 1, 4, 20, 50))));
            limits.put("nvidia.com/gpumem", new Quantity(String.valueOf(pick(rnd, 1000, 30000, 70000))));
            limits.put("nvidia.com/gpucores", new Quantity(String.valueOf(pick(rnd, 0, 30, 100))));
            Pod pod = new PodBuilder()
                    .withNewMetadata()
                    .withNamespace("ns")
                    .withName("many-" + p)
                    .withAnnotations(p % 3 == 0 ? Map.of("nvidia.com/use-gputype", "A100") : Map.of())
                    .endMetadata()
                    .withNewSpec()
                    .withContainers(new ContainerBuilder()
                            .withName("c")
                            .withNewResources()
                            .withLimits(limits)
                            .endResources()
                            .build())
                    .endSpec()
                    .build();
            var check = extender.check(pod);
            assertThat(check.quick()).as("pod %d takes the fast path", p).isTrue();
            for (int round = 0; round < 2; round++) { // the second round answers from the kept messages
                for (String node : names) {
                    String expected = text(check.whyNotByPlacement(node));
                    assertThat(text(check.whyNot(node)))
                            .as("pod %d on %s, round %d", p, node, round)
                            .isEqualTo(expected);
                    if (expected != null
                            && distinct.add(expected)
                            && expected.matches("^[0-9]+/(6[4-9]|[78][0-9]) .*")) {
                        wide++;
                        over63 += expected.matches("(.*, )?(6[4-9]|[78][0-9])/.*") ? 1 : 0;
                    }
                }
            }
        }
        assertThat(distinct).hasSizeGreaterThan(800); // more than the 512 kept: entries are replaced and built again
        assertThat(wide).isGreaterThan(50);
        assertThat(over63).isGreaterThan(5);
    }

    /** An extender over {@code index} that leads, reports nothing and considers every node. */
    static Extender extender(UsageIndex index, SchedulingPolicy policy) {
        var fit = new FitInputs(index, new QuotaBook(BACKENDS, index), BACKENDS, policy);
        return new Extender(new Extender.Inputs(fit, () -> true, FilterObserver.NONE, Extender.Nodes.ALL));
    }

    static List<String> cluster(Random rnd, UsageIndex index) {
        return cluster(rnd, index, NODES);
    }

    /** Nodes of random vendors, devices, health, cordons and usage; one more candidate name is not registered. */
    static List<String> cluster(Random rnd, UsageIndex index, int nodes) {
        var names = new ArrayList<String>();
        int podNo = 0;
        for (int n = 0; n < nodes; n++) {
            String node = "node-" + n;
            names.add(node);
            var devices = new TreeMap<String, List<DeviceInfo>>();
            var ids = new ArrayList<String>();
            for (Vendor v : VENDORS) {
                if (rnd.nextInt(3) == 0) {
                    continue;
                }
                var list = new ArrayList<DeviceInfo>();
                int count = rnd.nextInt(6);
                for (int i = 0; i < count; i++) {
                    String id = node + "-" + v.keyword() + "-" + i;
                    ids.add(id);
                    list.add(new DeviceInfo(
                            id,
                            i,
                            pick(rnd, 0, 1, 2, 4, 10, 10),
                            pick(rnd, 0, 8000, 16000, 16000, 80000),
                            pick(rnd, 0, 16, 100, 100),
                            v.types().get(rnd.nextInt(v.types().size())),
                            rnd.nextInt(2),
                            rnd.nextInt(4) == 0 ? "mig" : "hami-core",
                            rnd.nextInt(10) != 0));
                }
                devices.put(v.keyword(), list);
            }
            var annotations = new HashMap<String, String>();
            if (!ids.isEmpty() && rnd.nextInt(4) == 0) {
                annotations.put(
                        "hami.io/device-cordon",
                        ids.get(rnd.nextInt(ids.size())) + " , " + ids.get(rnd.nextInt(ids.size())));
            } else if (rnd.nextBoolean()) {
                annotations.put("example.com/other", "x");
            }
            List<DeviceInfo> gpus = devices.getOrDefault("NVIDIA", List.of());
            if (gpus.size() > 1) {
                annotations.put("hami.io/node-nvidia-score", pairScores(gpus)); // read under topology-aware
            }
            index.putNode(node, annotations, devices, Map.of());
            for (var e : devices.entrySet()) {
                for (DeviceInfo d : e.getValue()) {
                    if (rnd.nextInt(3) != 0) {
                        var grant = new Grant(
                                rnd.nextInt(d.count() + 2),
                                rnd.nextInt(Math.max(d.devmem(), 1) + 1000),
                                rnd.nextInt(Math.max(d.devcore(), 1) + 10));
                        index.putPod(
                                "ns/running-" + podNo++,
                                new PodUsage.Counted(node, Map.of(d.id(), grant), Map.of(e.getKey(), grant)));
                    }
                }
            }
            if (rnd.nextInt(25) == 0) {
                index.putPod(
                        "ns/unreadable-" + podNo++, new PodUsage.Undecodable(node, "pod ns/x: allocation unreadable"));
            }
        }
        names.add("not-registered");
        return names;
    }

    static Pod pod(Random rnd, int p) {
        var init = new ArrayList<Container>();
        var app = new ArrayList<Container>();
        int shape = rnd.nextInt(10);
        if (shape == 0) {
            init.add(container(rnd, "init"));
            app.add(container(rnd, "app"));
        } else if (shape == 1) {
            app.add(container(rnd, "a"));
            app.add(container(rnd, "b"));
        } else if (shape == 2) {
            app.add(new ContainerBuilder().withName("sidecar").build());
            app.add(container(rnd, "app"));
        } else {
            app.add(container(rnd, "app"));
        }
        var annotations = new LinkedHashMap<String, String>();
        String[][] options = {
            {"hami.io/gpu-scheduler-policy", "binpack"},
            {"hami.io/gpu-scheduler-policy", "mutex"},
            {"hami.io/gpu-scheduler-policy", " spread , mutex"},
            {"hami.io/gpu-scheduler-policy", "binpack,numa"},
            {"hami.io/gpu-scheduler-policy", "topology-aware"},
            {"nvidia.com/use-gputype", "A100"},
            {"nvidia.com/nouse-gputype", "h100"},
            {"nvidia.com/vgpu-mode", "hami-core"},
            {"nvidia.com/vgpu-mode", "mig"},
            {"hygon.com/use-hcutype", "Z100"},
            {"nvidia.com/use-gpuuuid", "node-1-NVIDIA-0"},
            {"nvidia.com/nouse-gpuuuid", " "},
            {"nvidia.com/numa-bind", "true"},
            {"hami.io/device-scoring-weights", "slot=1,core=2,memory=3"}
        };
        for (int k = rnd.nextInt(3); k > 0; k--) {
            String[] o = options[rnd.nextInt(options.length)];
            annotations.put(o[0], o[1]);
        }
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("incoming-" + p)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withInitContainers(init)
                .withContainers(app)
                .endSpec()
                .build();
    }

    /** Pair scores of a node's GPUs, without drawing from the cluster's random sequence: even and odd indexes linked. */
    static String pairScores(List<DeviceInfo> gpus) {
        var scores = new ArrayList<DevicePairScore>();
        for (DeviceInfo a : gpus) {
            var row = new HashMap<String, Integer>();
            for (DeviceInfo b : gpus) {
                if (!a.id().equals(b.id())) {
                    row.put(b.id(), a.index() % 2 == b.index() % 2 ? 200 : 20);
                }
            }
            scores.add(new DevicePairScore(a.id(), row));
        }
        return DevicePairScoreCodec.encode(scores);
    }

    /** A container asking one vendor (sometimes two) for random amounts. */
    static Container container(Random rnd, String name) {
        var limits = new LinkedHashMap<String, Quantity>();
        int vendors = rnd.nextInt(5) == 0 ? 2 : 1;
        for (int k = 0; k < vendors; k++) {
            Vendor v = rnd.nextInt(2) == 0 ? VENDORS.getFirst() : VENDORS.get(rnd.nextInt(VENDORS.size()));
            limits.put(v.count(), new Quantity(String.valueOf(pick(rnd, 1, 1, 1, 2, 3))));
            if (v.percentage() != null && rnd.nextInt(4) == 0) {
                // above 100 and non-positive too: filter's two paths must read them alike
                // (docs/upstream.md#lenient-inputs)
                limits.put(v.percentage(), new Quantity(String.valueOf(pick(rnd, 10, 50, 100, 150, 101, 0, -1))));
            } else if (rnd.nextInt(4) != 0) {
                limits.put(v.memory(), new Quantity(String.valueOf(pick(rnd, 1, 4, 20, 1000, 7000, 16000))));
            }
            if (rnd.nextInt(3) != 0) {
                limits.put(v.cores(), new Quantity(String.valueOf(pick(rnd, 0, 1, 10, 50, 100, 120))));
            }
        }
        return new ContainerBuilder()
                .withName(name)
                .withNewResources()
                .withLimits(limits)
                .endResources()
                .build();
    }

    static int pick(Random rnd, int... values) {
        return values[rnd.nextInt(values.length)];
    }

    /** Upstream's text of a denial, as filter writes it; null when the pod fits. */
    private static String text(Denial denial) {
        return denial == null ? null : denial.text();
    }
}
