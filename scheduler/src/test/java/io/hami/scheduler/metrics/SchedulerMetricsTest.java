package io.hami.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.hami.kube.lock.LockOutcome;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.Reasons;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.Extender;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.FitInputs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchedulerMetricsTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    final PrometheusRegistry registry = new PrometheusRegistry();
    final SchedulerMetrics metrics = new SchedulerMetrics(registry, "1.2.3");

    static DeviceInfo gpu(String id, int index) {
        return new DeviceInfo(id, index, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true);
    }

    static String labels(String node, String uuid, int index) {
        return "device_index=\"%d\",device_type=\"NVIDIA-A100\",device_uuid=\"%s\",node=\"%s\",zone=\"vGPU\""
                .formatted(index, uuid, node);
    }

    @Test
    void buildInfoIsOneForTheVersionWithoutAZone() {
        assertThat(Scrape.samples(registry, "hami_build_info"))
                .containsExactly("hami_build_info{version=\"1.2.3\"} 1.0");
    }

    @Test
    void containerGaugesShowEachContainersGrantOfCountedPodsOnly() {
        var running = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("run")
                .addToAnnotations(
                        "hami.io/vgpu-devices-allocated", "G1,NVIDIA,3000,30:;G1,NVIDIA,1000,0:G2,NVIDIA,2000,10:;")
                .endMetadata()
                .withNewSpec()
                .withNodeName("n1")
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build();
        var finished = new PodBuilder(running)
                .editMetadata()
                .withName("done")
                .endMetadata()
                .editStatus()
                .withPhase("Succeeded")
                .endStatus()
                .build();
        var broken = new PodBuilder(running)
                .editMetadata()
                .withName("broken")
                .addToAnnotations("hami.io/vgpu-devices-allocated", "G1,NVIDIA")
                .endMetadata()
                .build();
        metrics.registerContainerGrants(() -> List.of(running, finished, broken), BACKENDS);

        String g1c0 = "container_index=\"0\",device_uuid=\"G1\",namespace=\"ns\",node=\"n1\",pod=\"run\",zone=\"vGPU\"";
        String g1c1 = g1c0.replace("container_index=\"0\"", "container_index=\"1\"");
        String g2c1 = g1c1.replace("G1", "G2");
        assertThat(Scrape.samples(registry, "hami_vgpu_memory_allocated_bytes"))
                .containsExactlyInAnyOrder(
                        "hami_vgpu_memory_allocated_bytes{" + g1c0 + "} 3.145728E9",
                        "hami_vgpu_memory_allocated_bytes{" + g1c1 + "} 1.048576E9",
                        "hami_vgpu_memory_allocated_bytes{" + g2c1 + "} 2.097152E9");
        assertThat(Scrape.samples(registry, "hami_vgpu_core_allocated_ratio"))
                .containsExactlyInAnyOrder(
                        "hami_vgpu_core_allocated_ratio{" + g1c0 + "} 30.0",
                        "hami_vgpu_core_allocated_ratio{" + g1c1 + "} 0.0",
                        "hami_vgpu_core_allocated_ratio{" + g2c1 + "} 10.0");
    }

    @Test
    void quotaGaugesShowEachLimitAndWhatTheNamespaceHoldsOfIt() {
        var index = new UsageIndex();
        var quotas = new QuotaBook(BACKENDS, index);
        quotas.put(new ResourceQuotaBuilder()
                .withNewMetadata()
                .withNamespace("team")
                .withName("q")
                .endMetadata()
                .withNewSpec()
                .addToHard("limits.nvidia.com/gpumem", new Quantity("20000"))
                .addToHard("limits.cambricon.com/mlu.smlu.vmemory", new Quantity("8"))
                .endSpec()
                .build());
        index.putPod(
                "team/a",
                new PodUsage.Counted(
                        "n1",
                        Map.of("G1", new Grant(1, 3000, 30)),
                        Map.of("NVIDIA", new Grant(1, 3000, 30), "MLU", new Grant(1, 300, 10))));
        metrics.registerQuotas(quotas);

        assertThat(Scrape.samples(registry, "hami_resource_quota_used"))
                .containsExactlyInAnyOrder(
                        "hami_resource_quota_used{limit=\"8\",namespace=\"team\",quota_name=\"cambricon.com/mlu.smlu.vmemory\",zone=\"vGPU\"} 2.0",
                        "hami_resource_quota_used{limit=\"20000\",namespace=\"team\",quota_name=\"nvidia.com/gpumem\",zone=\"vGPU\"} 3000.0");
        assertThat(Scrape.samples(registry, "hami_resource_quota_limit"))
                .containsExactlyInAnyOrder(
                        "hami_resource_quota_limit{namespace=\"team\",quota_name=\"cambricon.com/mlu.smlu.vmemory\",zone=\"vGPU\"} 8.0",
                        "hami_resource_quota_limit{namespace=\"team\",quota_name=\"nvidia.com/gpumem\",zone=\"vGPU\"} 20000.0");
        index.removePod("team/a");
        assertThat(Scrape.samples(registry, "hami_resource_quota_used")).allMatch(sample -> sample.endsWith(" 0.0"));
    }

    @Test
    void podsWithAnUndecodableAllocationAreCountedPerNodeUntilTheyGo() {
        var index = new UsageIndex();
        index.putNode("n1", Map.of(), Map.of("NVIDIA", List.of(gpu("G1", 0))), Map.of());
        metrics.registerDeviceUsage(index);
        assertThat(Scrape.samples(registry, "hami_undecodable_allocation_pods")).isEmpty();

        index.putPod("ns/a", new PodUsage.Undecodable("n1", "pod ns/a has an undecodable annotation"));
        index.putPod("ns/b", new PodUsage.Undecodable("n1", "pod ns/b has an undecodable annotation"));
        index.putPod("ns/c", new PodUsage.Undecodable("n2", "pod ns/c has an undecodable annotation"));
        assertThat(Scrape.samples(registry, "hami_undecodable_allocation_pods"))
                .containsExactlyInAnyOrder(
                        "hami_undecodable_allocation_pods{node=\"n1\"} 2.0",
                        "hami_undecodable_allocation_pods{node=\"n2\"} 1.0");

        index.removePod("ns/a");
        index.removePod("ns/c");
        assertThat(Scrape.samples(registry, "hami_undecodable_allocation_pods"))
                .containsExactly("hami_undecodable_allocation_pods{node=\"n1\"} 1.0");
    }

    @Test
    void deviceGaugesCarryUpstreamNamesAndLabelsAndFollowTheIndexAtEachScrape() {
        var index = new UsageIndex();
        index.putNode("n1", Map.of(), Map.of("NVIDIA", List.of(gpu("G1", 0), gpu("G2", 1))), Map.of());
        index.putNode(
                "n2",
                Map.of(),
                Map.of("MLU", List.of(new DeviceInfo("n2-mlu-0", 0, 1, 0, 100, "MLU370", 0, "", true))),
                Map.of());
        index.putPod("ns/a", new PodUsage.Counted("n1", Map.of("G1", new Grant(2, 3000, 30)), Map.of()));
        metrics.registerDeviceUsage(index);

        String g1 = labels("n1", "G1", 0);
        String g2 = labels("n1", "G2", 1);
        String mlu = "device_index=\"0\",device_type=\"MLU370\",device_uuid=\"n2-mlu-0\",node=\"n2\",zone=\"vGPU\"";
        assertThat(Scrape.samples(registry, "hami_gpu_memory_limit_bytes"))
                .containsExactlyInAnyOrder(
                        "hami_gpu_memory_limit_bytes{" + g1 + "} 8.388608E9",
                        "hami_gpu_memory_limit_bytes{" + g2 + "} 8.388608E9",
                        "hami_gpu_memory_limit_bytes{" + mlu + "} 0.0");
        assertThat(Scrape.samples(registry, "hami_gpu_core_limit_ratio"))
                .contains("hami_gpu_core_limit_ratio{" + g1 + "} 100.0");
        assertThat(Scrape.samples(registry, "hami_gpu_memory_allocated_bytes"))
                .contains(
                        "hami_gpu_memory_allocated_bytes{device_cores=\"100\"," + g1 + "} 3.145728E9",
                        "hami_gpu_memory_allocated_bytes{device_cores=\"100\"," + g2 + "} 0.0");
        assertThat(Scrape.samples(registry, "hami_gpu_shared_count"))
                .contains("hami_gpu_shared_count{" + g1 + "} 2.0", "hami_gpu_shared_count{" + g2 + "} 0.0");
        assertThat(Scrape.samples(registry, "hami_gpu_core_allocated_ratio"))
                .contains("hami_gpu_core_allocated_ratio{" + g1 + "} 30.0");
        assertThat(Scrape.samples(registry, "hami_node_gpu_overview"))
                .contains("hami_node_gpu_overview{device_cores=\"100\",device_index=\"0\",device_memory_limit=\"8000\","
                        + "device_type=\"NVIDIA-A100\",device_uuid=\"G1\",node=\"n1\",zone=\"vGPU\"} 3.145728E9");
        // as upstream, no ratio for a device without memory
        assertThat(Scrape.samples(registry, "hami_node_gpu_memory_allocated_ratio"))
                .containsExactlyInAnyOrder(
                        "hami_node_gpu_memory_allocated_ratio{" + g1 + "} 0.375",
                        "hami_node_gpu_memory_allocated_ratio{" + g2 + "} 0.0");

        index.removePod("ns/a");
        index.removeNode("n2");

        assertThat(Scrape.samples(registry, "hami_gpu_memory_allocated_bytes"))
                .containsExactlyInAnyOrder(
                        "hami_gpu_memory_allocated_bytes{device_cores=\"100\"," + g1 + "} 0.0",
                        "hami_gpu_memory_allocated_bytes{device_cores=\"100\"," + g2 + "} 0.0");
        assertThat(Scrape.text(registry)).doesNotContain("node=\"n2\"");
    }

    @Test
    void aDeviceListedTwiceDoesNotBreakTheScrape() {
        var index = new UsageIndex();
        index.putNode("n1", Map.of(), Map.of("NVIDIA", List.of(gpu("G1", 0), gpu("G1", 1))), Map.of());
        metrics.registerDeviceUsage(index);

        assertThat(Scrape.samples(registry, "hami_gpu_memory_limit_bytes"))
                .containsExactly("hami_gpu_memory_limit_bytes{" + labels("n1", "G1", 0) + "} 8.388608E9");
        assertThat(Scrape.samples(registry, "hami_build_info")).hasSize(1);
    }

    @Test
    void filterRecordsItsDurationAndOneDenialPerReasonKindPerNode() {
        metrics.filtered(
                new Pod(),
                List.of("n4"),
                Map.of(
                        "n1", Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 1, Reasons.NUMA_NOT_FIT, 2), 2),
                        "n2", Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 2), 2),
                        "n3", Denial.UNREGISTERED),
                Duration.ofMillis(3));

        assertThat(Scrape.samples(registry, "hami_filter_denials_total"))
                .containsExactlyInAnyOrder(
                        "hami_filter_denials_total{reason=\"CardInsufficientMemory\"} 2.0",
                        "hami_filter_denials_total{reason=\"NumaNotFit\"} 1.0",
                        "hami_filter_denials_total{reason=\"node unregistered\"} 1.0");
        assertThat(Scrape.samples(registry, "hami_filter_duration_seconds"))
                .contains(
                        "hami_filter_duration_seconds_bucket{le=\"0.0025\"} 0",
                        "hami_filter_duration_seconds_bucket{le=\"0.005\"} 1",
                        "hami_filter_duration_seconds_count 1",
                        "hami_filter_duration_seconds_sum 0.003");
    }

    @Test
    void theReasonsTheExtenderReallyWritesAreCountedByKind() {
        var index = new UsageIndex();
        index.putNode("full", Map.of(), Map.of("NVIDIA", List.of(gpu("G1", 0))), Map.of());
        index.putPod("ns/big", new PodUsage.Counted("full", Map.of("G1", new Grant(1, 6000, 0)), Map.of()));
        index.putNode("closed", Map.of(), Map.of("NVIDIA", List.of(gpu("G2", 0))), Map.of());
        index.putPod("ns/bad", new PodUsage.Undecodable("closed", "pod ns/bad has an undecodable annotation"));
        index.putNode("free", Map.of(), Map.of("NVIDIA", List.of(gpu("G3", 0))), Map.of());
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity("4000"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
        var extender = new Extender(new Extender.Inputs(
                new FitInputs(index, new QuotaBook(BACKENDS, index), BACKENDS, SchedulingPolicy.UPSTREAM_DEFAULTS),
                () -> true,
                metrics,
                Extender.Nodes.ALL));

        var result = extender.filter(new ExtenderArgs(pod, null, List.of("full", "closed", "missing", "free")));

        assertThat(result.nodeNames()).containsExactly("free");
        assertThat(Scrape.samples(registry, "hami_filter_denials_total"))
                .containsExactlyInAnyOrder(
                        "hami_filter_denials_total{reason=\"CardInsufficientMemory\"} 1.0",
                        "hami_filter_denials_total{reason=\"fails closed\"} 1.0",
                        "hami_filter_denials_total{reason=\"node unregistered\"} 1.0");
        assertThat(Scrape.samples(registry, "hami_filter_duration_seconds_count"))
                .containsExactly("hami_filter_duration_seconds_count 1");
    }

    @Test
    void bindDurationsAreSplitByResult() {
        metrics.bound(new Pod(), "n1", Duration.ofMillis(20));
        metrics.bindFailed(null, "n1", "pod ns/p not found", Duration.ofMillis(2));
        metrics.bindFailed(new Pod(), "n1", "lock contention", Duration.ofSeconds(1));

        assertThat(Scrape.samples(registry, "hami_bind_duration_seconds"))
                .contains(
                        "hami_bind_duration_seconds_count{result=\"bound\"} 1",
                        "hami_bind_duration_seconds_sum{result=\"bound\"} 0.02",
                        "hami_bind_duration_seconds_count{result=\"failed\"} 2",
                        "hami_bind_duration_seconds_bucket{result=\"failed\",le=\"0.005\"} 1",
                        "hami_bind_duration_seconds_bucket{result=\"failed\",le=\"1.0\"} 2");
    }

    @Test
    void lockOutcomesCountContentionAndFailuresPerNodeAndTimeEveryAttempt() {
        var holder = new NodeLock(OffsetDateTime.of(2025, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), "ns", "holder");
        metrics.lock("n1", new LockOutcome.Acquired("n1", holder, false), Duration.ofMillis(10));
        metrics.lock("n1", new LockOutcome.Contended("n1", holder), Duration.ofMillis(4));
        metrics.lock("n1", new LockOutcome.Contended("n1", holder), Duration.ofMillis(4));
        metrics.lock("n2", new LockOutcome.Failed("n2", "node n2 not found"), Duration.ofMillis(1));
        metrics.lockReleased("n1", Duration.ofSeconds(7));

        assertThat(Scrape.samples(registry, "hami_node_lock_contention_total"))
                .containsExactly("hami_node_lock_contention_total{node=\"n1\"} 2.0");
        assertThat(Scrape.samples(registry, "hami_node_lock_failures_total"))
                .containsExactly("hami_node_lock_failures_total{node=\"n2\"} 1.0");
        assertThat(Scrape.samples(registry, "hami_node_lock_acquire_duration_seconds_count"))
                .containsExactly(
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"acquired\"} 1",
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"contended\"} 2",
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"failed\"} 1");
        assertThat(Scrape.samples(registry, "hami_node_lock_hold_seconds"))
                .contains(
                        "hami_node_lock_hold_seconds_bucket{le=\"5.0\"} 0",
                        "hami_node_lock_hold_seconds_bucket{le=\"10.0\"} 1",
                        "hami_node_lock_hold_seconds_count 1",
                        "hami_node_lock_hold_seconds_sum 7.0");
    }

    @Test
    void handshakeStateIsOneSeriesPerNodeAndVendorLabelledWithTheLastVerdictsState() {
        metrics.verdict(
                "n1",
                "NVIDIA",
                new HealthVerdict(true, false, Optional.of("Requesting_2025.01.01 00:00:00"), HealthMemory.NONE));
        metrics.verdict("n1", "MLU", HealthVerdict.NO_HANDSHAKE);
        metrics.verdict("n2", "NVIDIA", new HealthVerdict(false, false, Optional.empty(), HealthMemory.NONE));

        assertThat(Scrape.samples(registry, "hami_handshake_state"))
                .containsExactlyInAnyOrder(
                        "hami_handshake_state{node=\"n1\",state=\"healthy\",vendor=\"MLU\"} 1.0",
                        "hami_handshake_state{node=\"n1\",state=\"pending\",vendor=\"NVIDIA\"} 1.0",
                        "hami_handshake_state{node=\"n2\",state=\"unhealthy\",vendor=\"NVIDIA\"} 1.0");

        metrics.verdict("n1", "NVIDIA", HealthVerdict.NO_HANDSHAKE);
        metrics.verdict("n2", "NVIDIA", new HealthVerdict(false, false, Optional.empty(), HealthMemory.NONE));

        assertThat(Scrape.samples(registry, "hami_handshake_state"))
                .containsExactlyInAnyOrder(
                        "hami_handshake_state{node=\"n1\",state=\"healthy\",vendor=\"MLU\"} 1.0",
                        "hami_handshake_state{node=\"n1\",state=\"healthy\",vendor=\"NVIDIA\"} 1.0",
                        "hami_handshake_state{node=\"n2\",state=\"unhealthy\",vendor=\"NVIDIA\"} 1.0");
    }

    @Test
    void handshakeSeriesStayOnePerNodeAndVendorThroughEveryStateChange() {
        for (int round = 0; round < 3; round++) {
            for (int n = 0; n < 50; n++) {
                HealthVerdict v = switch ((n + round) % 3) {
                    case 0 -> HealthVerdict.NO_HANDSHAKE;
                    case 1 ->
                        new HealthVerdict(
                                true, false, Optional.of("Requesting_2025.01.01 00:00:00"), HealthMemory.NONE);
                    default -> new HealthVerdict(false, false, Optional.empty(), HealthMemory.NONE);
                };
                metrics.verdict("n" + n, "NVIDIA", v);
            }
        }

        var samples = Scrape.samples(registry, "hami_handshake_state");
        assertThat(samples).hasSize(50).allMatch(l -> l.endsWith("} 1.0"));
        // round 2: n0 is (0+2)%3 = unhealthy, n1 healthy, n2 pending
        assertThat(samples)
                .contains(
                        "hami_handshake_state{node=\"n0\",state=\"unhealthy\",vendor=\"NVIDIA\"} 1.0",
                        "hami_handshake_state{node=\"n1\",state=\"healthy\",vendor=\"NVIDIA\"} 1.0",
                        "hami_handshake_state{node=\"n2\",state=\"pending\",vendor=\"NVIDIA\"} 1.0");
    }

    @Test
    void aNodesNewInventoryReplacesItsDeviceSeriesAtTheNextScrape() {
        var index = new UsageIndex();
        index.putNode("n1", Map.of(), Map.of("NVIDIA", List.of(gpu("G1", 0), gpu("G2", 1))), Map.of());
        index.putNode("n2", Map.of(), Map.of("NVIDIA", List.of(gpu("G9", 0))), Map.of());
        metrics.registerDeviceUsage(index);
        assertThat(Scrape.samples(registry, "hami_gpu_memory_limit_bytes")).hasSize(3);

        // G2 goes, G3 comes with another memory size, and n1 also gets an HCU; n2 keeps its inventory
        index.putNode(
                "n1",
                Map.of(),
                Map.of(
                        "NVIDIA",
                        List.of(
                                gpu("G1", 0),
                                new DeviceInfo("G3", 1, 10, 16000, 100, "NVIDIA-A100", 0, "hami-core", true)),
                        "HCU",
                        List.of(new DeviceInfo("H1", 0, 4, 4000, 100, "HCU-Z100", 0, "hami-core", true))),
                Map.of());
        index.putPod(
                "ns/a",
                new PodUsage.Counted(
                        "n1", Map.of("G3", new Grant(1, 4000, 50), "H1", new Grant(1, 1000, 0)), Map.of()));

        assertThat(Scrape.samples(registry, "hami_gpu_memory_limit_bytes"))
                .containsExactlyInAnyOrder(
                        "hami_gpu_memory_limit_bytes{" + labels("n1", "G1", 0) + "} 8.388608E9",
                        "hami_gpu_memory_limit_bytes{" + labels("n1", "G3", 1) + "} 1.6777216E10",
                        "hami_gpu_memory_limit_bytes{device_index=\"0\",device_type=\"HCU-Z100\",device_uuid=\"H1\",node=\"n1\",zone=\"vGPU\"} 4.194304E9",
                        "hami_gpu_memory_limit_bytes{" + labels("n2", "G9", 0) + "} 8.388608E9");
        assertThat(Scrape.samples(registry, "hami_node_gpu_memory_allocated_ratio"))
                .contains(
                        "hami_node_gpu_memory_allocated_ratio{" + labels("n1", "G3", 1) + "} 0.25",
                        "hami_node_gpu_memory_allocated_ratio{device_index=\"0\",device_type=\"HCU-Z100\",device_uuid=\"H1\",node=\"n1\",zone=\"vGPU\"} 0.25");
        assertThat(Scrape.samples(registry, "hami_node_gpu_overview"))
                .contains(
                        "hami_node_gpu_overview{device_cores=\"100\",device_index=\"1\",device_memory_limit=\"16000\","
                                + "device_type=\"NVIDIA-A100\",device_uuid=\"G3\",node=\"n1\",zone=\"vGPU\"} 4.194304E9");
        assertThat(Scrape.text(registry)).doesNotContain("G2");

        index.putNode("n3", Map.of(), Map.of("NVIDIA", List.of(gpu("G4", 0))), Map.of());
        index.removeNode("n2");

        assertThat(Scrape.samples(registry, "hami_gpu_core_allocated_ratio"))
                .containsExactlyInAnyOrder(
                        "hami_gpu_core_allocated_ratio{" + labels("n1", "G1", 0) + "} 0.0",
                        "hami_gpu_core_allocated_ratio{" + labels("n1", "G3", 1) + "} 50.0",
                        "hami_gpu_core_allocated_ratio{device_index=\"0\",device_type=\"HCU-Z100\",device_uuid=\"H1\",node=\"n1\",zone=\"vGPU\"} 0.0",
                        "hami_gpu_core_allocated_ratio{" + labels("n3", "G4", 0) + "} 0.0");
    }

    @Test
    void everyDeviceHasSevenSeriesWhateverThePodsOnIt() {
        var index = new UsageIndex();
        index.putNode("n1", Map.of(), Map.of("NVIDIA", List.of(gpu("G1", 0), gpu("G2", 1))), Map.of());
        metrics.registerDeviceUsage(index);
        long empty = Scrape.text(registry)
                .lines()
                .filter(l -> l.contains("device_uuid="))
                .count();

        for (int p = 0; p < 20; p++) {
            index.putPod(
                    "ns/p" + p,
                    new PodUsage.Counted("n1", Map.of(p % 2 == 0 ? "G1" : "G2", new Grant(1, 100, 1)), Map.of()));
        }

        assertThat(empty).isEqualTo(14);
        assertThat(Scrape.text(registry).lines().filter(l -> l.contains("device_uuid=")))
                .hasSize(14);
        assertThat(Scrape.samples(registry, "hami_gpu_shared_count"))
                .containsExactlyInAnyOrder(
                        "hami_gpu_shared_count{" + labels("n1", "G1", 0) + "} 10.0",
                        "hami_gpu_shared_count{" + labels("n1", "G2", 1) + "} 10.0");
    }

    @Test
    void forgettingANodeDropsItsPerNodeSeries() {
        var holder = new NodeLock(OffsetDateTime.of(2025, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), "ns", "holder");
        metrics.verdict("gone", "NVIDIA", HealthVerdict.NO_HANDSHAKE);
        metrics.verdict("kept", "NVIDIA", HealthVerdict.NO_HANDSHAKE);
        metrics.lock("gone", new LockOutcome.Contended("gone", holder), Duration.ZERO);
        metrics.lock("gone", new LockOutcome.Failed("gone", "boom"), Duration.ZERO);

        metrics.forgetNode("gone");

        assertThat(Scrape.text(registry)).doesNotContain("node=\"gone\"").contains("node=\"kept\"");
    }
}
