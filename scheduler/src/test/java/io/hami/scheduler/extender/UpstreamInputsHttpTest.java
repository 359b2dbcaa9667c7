package io.hami.scheduler.extender;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static io.hami.scheduler.SchedulerFixture.names;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.scheduler.SchedulerFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What upstream's plugins write and upstream's webhook lets through, over real HTTP: registers with an unknown NUMA
 * node (design D9) and the lenient quantities of docs/upstream.md#lenient-inputs, filtered and bound alike.
 */
class UpstreamInputsHttpTest {
    static SchedulerFixture f;
    static final JsonMapper JSON = JsonMapper.builder().build();

    /** Upstream's NVIDIA register, byte for byte, when NVML knows no NUMA node for either GPU. */
    static final String NVIDIA_REGISTER_NO_NUMA =
            "[{\"id\":\"GPU-n0\",\"count\":10,\"devmem\":8000,\"devcore\":100,\"type\":\"NVIDIA-A100\",\"numa\":-1,"
                    + "\"mode\":\"hami-core\",\"health\":true},{\"id\":\"GPU-n1\",\"index\":1,\"count\":10,"
                    + "\"devmem\":8000,\"devcore\":100,\"type\":\"NVIDIA-A100\",\"numa\":-1,\"mode\":\"hami-core\","
                    + "\"health\":true}]";

    /** A Hygon register in the colon form with an unknown NUMA node. */
    static final String HCU_REGISTER_NO_NUMA = "HCU-n0,10,16000,100,HCU-Z100,-1,true,0,hami-core:";

    @BeforeAll
    static void cluster() throws Exception {
        f = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS);
        registered("numa-gpu", "hami.io/node-nvidia-register", NVIDIA_REGISTER_NO_NUMA, "nvidia.com/gpu", "20");
        registered("numa-hcu", "hami.io/node-hcu-register", HCU_REGISTER_NO_NUMA, "hygon.com/hcunum", "10");
        f.mluNode("numa-mlu", 1, 64);
        f.mthreadsNode("numa-mt", 1);
        f.nvidiaNode("cores-gpu", gpu("GPU-c", 0, 8000));
        f.nvidiaNode("pct-gpu", gpu("GPU-p", 0, 8000));
        f.nvidiaNode("kilo-gpu", gpu("GPU-k", 0, 8000));
        f.awaitNodes("numa-gpu", "numa-hcu", "numa-mlu", "numa-mt", "cores-gpu", "pct-gpu", "kilo-gpu");
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    static void registered(String name, String key, String register, String count, String allocatable) {
        f.client
                .nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToAnnotations(key, register)
                        .endMetadata()
                        .withNewStatus()
                        .addToAllocatable(count, new Quantity(allocatable))
                        .endStatus()
                        .build())
                .create();
    }

    /** A pod that asks every vendor for NUMA-aligned devices. */
    static Pod numaBound(String name, Container c) {
        return f.client
                .pods()
                .inNamespace("default")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withNamespace("default")
                        .withName(name)
                        .addToAnnotations("nvidia.com/numa-bind", "true")
                        .endMetadata()
                        .withNewSpec()
                        .withSchedulerName("hami-scheduler")
                        .withContainers(c)
                        .endSpec()
                        .build())
                .create();
    }

    static JsonNode filter(Pod pod, String... nodes) throws Exception {
        var r = f.post("/filter", "{\"Pod\":" + f.podJson(pod) + ",\"NodeNames\":" + names(nodes) + "}");
        assertThat(r.statusCode()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    static String bind(String pod, String node) throws Exception {
        return JSON.readTree(f.post(
                                "/bind",
                                "{\"PodName\":\"" + pod + "\",\"PodNamespace\":\"default\",\"Node\":\"" + node + "\"}")
                        .body())
                .get("Error")
                .asString();
    }

    @Test
    void nvidiaDevicesOfUnknownNumaAreScheduledOntoEvenUnderNumaBind() throws Exception {
        var pod = numaBound("numa-2", container("c", "nvidia.com/gpu", "2", "nvidia.com/gpumem", "1000"));
        assertThat(filter(pod, "numa-gpu").get("NodeNames").toString()).isEqualTo("[\"numa-gpu\"]");
        assertThat(bind("numa-2", "numa-gpu")).isEmpty();
        assertThat(f.annotations("numa-2").get("hami.io/vgpu-devices-allocated"))
                .matches("GPU-n[01],NVIDIA,1000,0:GPU-n[01],NVIDIA,1000,0:;")
                .contains("GPU-n0")
                .contains("GPU-n1");
    }

    @Test
    void hygonDevicesOfUnknownNumaAreScheduledOnto() throws Exception {
        var pod = numaBound("numa-h", container("c", "hygon.com/hcunum", "1", "hygon.com/hcumem", "1000"));
        assertThat(filter(pod, "numa-hcu").get("NodeNames").toString()).isEqualTo("[\"numa-hcu\"]");
        assertThat(bind("numa-h", "numa-hcu")).isEmpty();
        assertThat(f.annotations("numa-h")).containsEntry("hami.io/hcu-devices-allocated", "HCU-n0,HCU,1000,100:;");
    }

    /**
     * Cambricon and Moore Threads devices come from node Capacity, which has no NUMA node: discovery gives them NUMA
     * node 0, so numa-bind (which orders every vendor's devices NUMA first) groups them all, and they place as before.
     */
    @Test
    void capacityVendorsHaveNoNumaNodeAndPlaceUnderNumaBindAsWithout() throws Exception {
        var mlu = numaBound("numa-m", container("c", "cambricon.com/vmlu", "1", "cambricon.com/mlu.smlu.vmemory", "4"));
        assertThat(filter(mlu, "numa-mlu").get("NodeNames").toString()).isEqualTo("[\"numa-mlu\"]");
        var mt = numaBound("numa-t", container("c", "mthreads.com/vgpu", "1", "mthreads.com/sgpu-memory", "2"));
        assertThat(filter(mt, "numa-mt").get("NodeNames").toString()).isEqualTo("[\"numa-mt\"]");
    }

    @Test
    void coresAboveAWholeDeviceAreGrantedAsAWholeDeviceByFilterAndBind() throws Exception {
        f.pod("cores-120", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpucores", "120"));
        assertThat(filter(f.get("cores-120"), "cores-gpu").get("NodeNames").toString())
                .isEqualTo("[\"cores-gpu\"]");
        assertThat(bind("cores-120", "cores-gpu")).isEmpty();
        assertThat(f.annotations("cores-120"))
                .containsEntry("hami.io/vgpu-devices-allocated", "GPU-c,NVIDIA,8000,100:;");
    }

    @Test
    void aMemoryPercentageAboveHundredIsClampedByFilterAndBind() throws Exception {
        f.pod("pct-150", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "150"));
        assertThat(filter(f.get("pct-150"), "pct-gpu").get("NodeNames").toString())
                .isEqualTo("[\"pct-gpu\"]");
        assertThat(bind("pct-150", "pct-gpu")).isEmpty();
        assertThat(f.annotations("pct-150")).containsEntry("hami.io/vgpu-devices-allocated", "GPU-p,NVIDIA,8000,0:;");
    }

    @Test
    void kiloQuantitiesAreReadAndOverflowingOnesRefusedByFilterAndBind() throws Exception {
        f.pod("mem-16gi", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "16Gi"));
        String why = "unrepresentable request: container c: nvidia.com/gpumem \"16Gi\" (17179869184) is out of range;"
                + " NVIDIA takes a whole number from 0 to 2147483647 (MiB)";
        assertThat(filter(f.get("mem-16gi"), "kilo-gpu")
                        .get("FailedNodes")
                        .get("kilo-gpu")
                        .asString())
                .isEqualTo(why);
        assertThat(bind("mem-16gi", "kilo-gpu")).contains(why);
        f.pod("mem-3k", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3k"));
        assertThat(filter(f.get("mem-3k"), "kilo-gpu").get("NodeNames").toString())
                .isEqualTo("[\"kilo-gpu\"]");
        assertThat(bind("mem-3k", "kilo-gpu")).isEmpty();
        assertThat(f.annotations("mem-3k")).containsEntry("hami.io/vgpu-devices-allocated", "GPU-k,NVIDIA,3000,0:;");
    }
}
