package io.hami.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioLoaderTest {

    private static final String VALID = """
            name: tiny
            seed: 7
            scheduler: {replicas: 2, handshakePeriod: 5s}
            nodes:
              - name: gpu
                count: 2
                devices:
                  - {vendor: nvidia, model: NVIDIA A100, count: 4, memory: 40960, numa: 2}
                  - {vendor: cambricon, model: MLU370-X8, count: 2, memory: 24576}
            workloads:
              - name: infer
                count: 10
                rate: 5
                lifetime: 2s..4s
                annotations: {hami.io/gpu-scheduler-policy: binpack}
                initContainers:
                  - {name: warm, resources: {nvidia.com/gpu: 1}}
                containers:
                  - {name: main, resources: {nvidia.com/gpu: 1, nvidia.com/gpumem: 4000}}
            faults:
              - {at: 3s, type: plugin-restart, node: gpu-1, vendor: nvidia}
              - {at: 4s, type: device-unhealthy, node: gpu-0, vendor: nvidia, device: 3, for: 1m30s}
              - {at: 5s, type: leader-failover}
            """;

    @Test
    void readsEveryPartWithDefaults() throws Exception {
        Scenario s = ScenarioLoader.parse(VALID, "tiny.yaml");

        assertThat(s.nodeSpecs()).extracting(NodeSpec::name).containsExactly("gpu-0", "gpu-1");
        DeviceGroup gpus = s.nodeSpecs().get(0).devices(Vendor.NVIDIA).orElseThrow();
        assertThat(gpus.split()).isEqualTo(10);
        assertThat(List.of(gpus.numaOf(0), gpus.numaOf(1), gpus.numaOf(2), gpus.numaOf(3)))
                .containsExactly(0, 0, 1, 1);
        Workload w = s.workloads().getFirst();
        assertThat(w.lifetime()).isEqualTo(new Lifetime(Duration.ofSeconds(2), Duration.ofSeconds(4)));
        assertThat(w.containers().getFirst().resources()).containsEntry("nvidia.com/gpumem", "4000");
        assertThat(s.faults().get(1))
                .isEqualTo(new Fault.DeviceUnhealthy(
                        Duration.ofSeconds(4), "gpu-0", Vendor.NVIDIA, 3, Duration.ofSeconds(90)));
        assertThat(s.scheduler().handshakePeriod()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.scheduler().lockTimeout()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void unknownKeyIsNamedWithItsPathAndTheKnownKeys() {
        String yaml = VALID.replace("{name: main, resources:", "{name: main, resoures:");

        assertThatThrownBy(() -> ScenarioLoader.parse(yaml, "tiny.yaml"))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith("scenario tiny.yaml: unknown key \"resoures\" at workloads[0].containers[0]")
                .hasMessageContaining("known keys: env, name, resources");
    }

    @Test
    void unknownTopLevelKeyIsNamed() {
        assertThatThrownBy(() -> ScenarioLoader.parse("name: x\nnodez: []\n", "x.yaml"))
                .hasMessageStartingWith("scenario x.yaml: unknown key \"nodez\"");
    }

    @Test
    void wrongTypeNamesTheKey() {
        String yaml = VALID.replace("count: 10", "count: ten");

        assertThatThrownBy(() -> ScenarioLoader.parse(yaml, "tiny.yaml"))
                .hasMessageContaining("workloads[0].count")
                .hasMessageContaining("ten");
    }

    @Test
    void badDurationSaysHowToWriteOne() {
        String yaml = VALID.replace("at: 3s", "at: soon");

        assertThatThrownBy(() -> ScenarioLoader.parse(yaml, "tiny.yaml"))
                .hasMessageContaining("faults[0].at")
                .hasMessageContaining("\"soon\" is not a duration");
    }

    @Test
    void unknownVendorAndFaultTypeAreNamed() {
        assertThatThrownBy(() -> ScenarioLoader.parse(VALID.replace("vendor: cambricon", "vendor: intel"), "t.yaml"))
                .hasMessageContaining("nodes[0].devices[1].vendor")
                .hasMessageContaining("\"intel\" is not one of nvidia, cambricon, mthreads, hygon");
        assertThatThrownBy(() -> ScenarioLoader.parse(VALID.replace("type: leader-failover", "type: meteor"), "t.yaml"))
                .hasMessageContaining("type \"meteor\"")
                .hasMessageContaining("known: plugin-restart, kubelet-restart, device-unhealthy, api-write-errors,"
                        + " leader-failover, self-grant, kubelet-rejects)");
    }

    @Test
    void rulesBetweenPartsAreAllReported() {
        String yaml = VALID.replace("node: gpu-1", "node: gpu-7")
                .replace("device: 3", "device: 4")
                .replace("replicas: 2", "replicas: 1");

        assertThatThrownBy(() -> ScenarioLoader.parse(yaml, "tiny.yaml"))
                .hasMessageContaining("faults[0].node \"gpu-7\" is not a node of this scenario")
                .hasMessageContaining("faults[1].device 4 does not exist on gpu-0 (4 nvidia devices)")
                .hasMessageContaining("faults[2]: leader-failover needs scheduler.replicas of 2 or more");
    }

    @Test
    void trustFaultsAreReadAndTheirNodesChecked() throws Exception {
        String faults =
                "\n  - {at: 6s, type: self-grant, node: gpu-0}\n  - {at: 7s, type: kubelet-rejects, node: gpu-1}";
        Scenario s = ScenarioLoader.parse(VALID.stripTrailing() + faults, "tiny.yaml");

        assertThat(s.faults())
                .contains(
                        new Fault.SelfGrant(Duration.ofSeconds(6), "gpu-0"),
                        new Fault.KubeletRejects(Duration.ofSeconds(7), "gpu-1"));
        assertThatThrownBy(() -> ScenarioLoader.parse(
                        VALID.stripTrailing() + faults.replace("node: gpu-1", "node: gpu-9"), "tiny.yaml"))
                .hasMessageContaining("faults[4].node \"gpu-9\" is not a node of this scenario");
    }

    @Test
    void syntheticNodesMustHaveARegisterAnnotation() {
        String yaml = VALID.replace("count: 2\n    devices:", "count: 2\n    synthetic: true\n    devices:")
                .replace("  - {at: 3s, type: plugin-restart, node: gpu-1, vendor: nvidia}\n", "")
                .replace(
                        "  - {at: 4s, type: device-unhealthy, node: gpu-0, vendor: nvidia, device: 3, for: 1m30s}\n",
                        "");

        assertThatThrownBy(() -> ScenarioLoader.parse(yaml, "tiny.yaml"))
                .hasMessageContaining(
                        "nodes[0].devices[1]: synthetic nodes carry their inventory in a register annotation")
                .hasMessageNotContaining("devices[0]:");
    }

    @Test
    void bundledScenariosAreFoundByName() throws Exception {
        assertThat(ScenarioLoader.bundled()).contains("default", "faults", "scale", "scheduling");
        assertThat(ScenarioLoader.resolve("default").name()).isEqualTo("default");
        assertThatThrownBy(() -> ScenarioLoader.resolve("nope"))
                .hasMessageContaining("no bundled scenario of that name (bundled: ")
                .hasMessageContaining("default");
    }

    @Test
    void scalingKeepsAtLeastOnePodPerWorkload() throws Exception {
        Scenario s = ScenarioLoader.parse(VALID, "tiny.yaml").scaled(0.01);

        assertThat(s.workloads().getFirst().count()).isEqualTo(1);
    }

    private static final String MAIN = "{name: main, resources: {nvidia.com/gpu: 1, nvidia.com/gpumem: 4000}}";

    private static String withMain(String main) {
        return VALID.replace(MAIN, main);
    }

    @Test
    void usageProfilesAreReadWithDefaults() throws Exception {
        Scenario s = ScenarioLoader.parse(
                withMain("{name: main, resources: {nvidia.com/gpu: 1, nvidia.com/gpumem: 4000},"
                        + " usage: {memory: 60%, sm: 40, profile: ramp}}"),
                "tiny.yaml");
        UsageProfile usage = s.workloads().getFirst().containers().getFirst().usage();

        assertThat(usage).isEqualTo(new UsageProfile("60%", 40, UsageProfile.Shape.RAMP, false));
        assertThat(usage.memoryMib(4000)).isEqualTo(2400);
        assertThat(new UsageProfile("3000", null, null, null))
                .isEqualTo(new UsageProfile("3000", 0, UsageProfile.Shape.STEADY, false));
        assertThat(new UsageProfile("3000", null, null, null).memoryMib(4000)).isEqualTo(3000);
        assertThat(ScenarioLoader.parse(VALID, "tiny.yaml")
                        .workloads()
                        .getFirst()
                        .containers()
                        .getFirst()
                        .usage())
                .as("no profile: no workload")
                .isNull();
    }

    @Test
    void usageProfileErrorsNameTheWorkloadAndTheKey() {
        assertThatThrownBy(() -> ScenarioLoader.parse(
                        withMain("{name: main, resources: {nvidia.com/gpu: 1}, usage: {memory: 10%, profile: wave}}"),
                        "tiny.yaml"))
                .hasMessageContaining(
                        "key workloads[0].containers[0].usage.profile: \"wave\" is not one of steady, ramp, burst");
        assertThatThrownBy(() -> ScenarioLoader.parse(
                        withMain("{name: main, resources: {nvidia.com/gpu: 1}, usage: {memory: 10%, gpu: 3}}"),
                        "tiny.yaml"))
                .hasMessageContaining("unknown key \"gpu\" at workloads[0].containers[0].usage")
                .hasMessageContaining("memory, overLimit, profile, sm");
        assertThatThrownBy(() -> ScenarioLoader.parse(
                        withMain("{name: main, resources: {nvidia.com/gpu: 1, nvidia.com/gpumem: 4000},"
                                + " usage: {memory: lots, sm: 140}}"),
                        "tiny.yaml"))
                .hasMessageContaining("workloads[0] (infer).containers[0].usage.sm (SM utilisation in percent) must be"
                        + " 0..100, got 140")
                .hasMessageContaining("workloads[0] (infer).containers[0].usage.memory \"lots\" is neither a share of"
                        + " the limit such as 60% nor MiB such as 3000");
    }

    @Test
    void usageAboveTheLimitNeedsOverLimitAndOnlyAnNvidiaAppContainerGetsAProfile() throws Exception {
        String above = "{name: main, resources: {nvidia.com/gpu: 1, nvidia.com/gpumem: 4000}, usage: {memory: 4500}}";
        assertThatThrownBy(() -> ScenarioLoader.parse(withMain(above), "tiny.yaml"))
                .hasMessageContaining("workloads[0] (infer).containers[0].usage.memory 4500 is above the container's"
                        + " memory limit; add overLimit: true");
        assertThat(ScenarioLoader.parse(withMain(above.replace("4500}", "4500, overLimit: true}")), "tiny.yaml")
                        .workloads()
                        .getFirst()
                        .containers()
                        .getFirst()
                        .usage()
                        .overLimit())
                .isTrue();
        assertThatThrownBy(() ->
                        ScenarioLoader.parse(withMain(above.replace("memory: 4500}", "memory: 120%}")), "tiny.yaml"))
                .hasMessageContaining("usage.memory 120% is above the container's memory limit");
        assertThatThrownBy(() -> ScenarioLoader.parse(
                        withMain(above.replace("memory: 4500}", "memory: 50%, overLimit: true}")), "tiny.yaml"))
                .hasMessageContaining("usage.overLimit is true but memory 50% stays within the limit");
        assertThatThrownBy(() -> ScenarioLoader.parse(
                        VALID.replace(
                                "{name: warm, resources: {nvidia.com/gpu: 1}}",
                                "{name: warm, resources: {nvidia.com/gpu: 1}, usage: {memory: 10%}}"),
                        "tiny.yaml"))
                .hasMessageContaining(
                        "workloads[0] (infer).initContainers[0].usage: init containers end before the pod" + " runs");
        assertThatThrownBy(() -> ScenarioLoader.parse(
                        withMain("{name: main, resources: {cambricon.com/vmlu: 1}, usage: {memory: 10%}}"),
                        "tiny.yaml"))
                .hasMessageContaining("workloads[0] (infer).containers[0].usage: a usage profile needs an NVIDIA GPU");
    }
}
