package io.hami.scheduler.webhook;

import static io.hami.scheduler.SchedulerFixture.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.spi.DeviceBackends;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AdmissionRulesTest {
    final AdmissionRules rules = new AdmissionRules(DeviceBackends.load(DeviceConfig.DEFAULTS), "hami-scheduler");

    static Pod pod(Container... containers) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .withContainers(containers)
                .endSpec()
                .build();
    }

    Pod allowed(Pod pod) {
        var v = rules.review(pod);
        assertThat(v).isInstanceOf(AdmissionRules.Verdict.Allowed.class);
        return ((AdmissionRules.Verdict.Allowed) v).pod();
    }

    String denied(Pod pod) {
        var v = rules.review(pod);
        assertThat(v).isInstanceOf(AdmissionRules.Verdict.Denied.class);
        return ((AdmissionRules.Verdict.Denied) v).message();
    }

    static Map<String, Quantity> limits(Pod pod, int i) {
        return pod.getSpec().getContainers().get(i).getResources().getLimits();
    }

    @Test
    void aPodThatAloneExceedsItsNamespacesQuotaIsDeniedOthersPass() {
        var quoted = new AdmissionRules(
                DeviceBackends.load(DeviceConfig.DEFAULTS),
                "hami-scheduler",
                ns -> ns.equals("ns") ? Map.of("NVIDIA", new QuotaRoom(8000, Long.MAX_VALUE)) : Map.of());
        // two app containers of 2 x 2000 MiB each: 8000 fits; an init container of 9000 does not
        Pod fits = pod(
                container("a", "nvidia.com/gpu", "2", "nvidia.com/gpumem", "2000"),
                container("b", "nvidia.com/gpu", "2", "nvidia.com/gpumem", "2000"));
        assertThat(quoted.review(fits, "ns")).isInstanceOf(AdmissionRules.Verdict.Allowed.class);
        Pod bigInit = new PodBuilder(fits)
                .editSpec()
                .addToInitContainers(container("i", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "9000"))
                .endSpec()
                .build();
        assertThat(quoted.review(bigInit, "ns"))
                .isInstanceOfSatisfying(
                        AdmissionRules.Verdict.Denied.class,
                        d -> assertThat(d.message())
                                .isEqualTo(
                                        "exceeding resource quota: the pod asks for 9000 MiB and 0 cores of NVIDIA devices, namespace ns has 8000 MiB"
                                                + " and unlimited cores left under its ResourceQuota"));
        // the review's namespace counts, not the pod's (a new pod may not carry one); a namespace without quota passes
        assertThat(quoted.review(bigInit, "other")).isInstanceOf(AdmissionRules.Verdict.Allowed.class);
        // Hygon asks nothing of an NVIDIA quota
        assertThat(quoted.review(pod(container("h", "hygon.com/hcunum", "1", "hygon.com/hcumem", "64000")), "ns"))
                .isInstanceOf(AdmissionRules.Verdict.Allowed.class);
    }

    @Test
    void theConfiguredRuntimeClassGoesOnNvidiaPodsThatHaveNone() throws Exception {
        var config = io.hami.protocol.config.DeviceConfigLoader.parse(
                        "nvidia:\n  runtimeClassName: nvidia\n", "test", DeviceBackends.configSections())
                .config();
        var withClass = new AdmissionRules(DeviceBackends.load(config), "hami-scheduler");

        var gpuPod = withClass.review(pod(container("c", "nvidia.com/gpumem", "2000")));
        assertThat(((AdmissionRules.Verdict.Allowed) gpuPod).pod().getSpec().getRuntimeClassName())
                .isEqualTo("nvidia");
        // the pod's own class is kept; pods of other vendors, or of none, get no class
        var own = pod(container("c", "nvidia.com/gpu", "1"));
        own.getSpec().setRuntimeClassName("kata");
        assertThat(((AdmissionRules.Verdict.Allowed) withClass.review(own))
                        .pod()
                        .getSpec()
                        .getRuntimeClassName())
                .isEqualTo("kata");
        for (Pod other : new Pod[] {pod(container("h", "hygon.com/hcunum", "1")), pod(container("c", "cpu", "1"))}) {
            assertThat(((AdmissionRules.Verdict.Allowed) withClass.review(other))
                            .pod()
                            .getSpec()
                            .getRuntimeClassName())
                    .isNull();
        }
        // without the setting, nothing is set
        assertThat(allowed(pod(container("c", "nvidia.com/gpu", "1"))).getSpec().getRuntimeClassName())
                .isNull();
    }

    @Test
    void aBareGpuCountBecomesAnExclusiveWholeCardOnOurScheduler() {
        var out = allowed(pod(container("c", "nvidia.com/gpu", "1")));
        assertThat(out.getSpec().getSchedulerName()).isEqualTo("hami-scheduler");
        assertThat(limits(out, 0)).containsEntry("nvidia.com/gpucores", new Quantity("100"));
    }

    @Test
    void memoryAloneGetsTheDefaultCountAndNoExclusiveCores() {
        var out = allowed(pod(container("c", "nvidia.com/gpumem", "2000")));
        assertThat(limits(out, 0))
                .containsEntry("nvidia.com/gpu", new Quantity("1"))
                .doesNotContainKey("nvidia.com/gpucores");
    }

    @Test
    void mooreThreadsMultiGpuPodsGetWholeCards() {
        var out = allowed(pod(container("c", "mthreads.com/vgpu", "2")));
        assertThat(limits(out, 0))
                .containsEntry("mthreads.com/sgpu-core", new Quantity("32"))
                .containsEntry("mthreads.com/sgpu-memory", new Quantity("192"));
        assertThat(out.getMetadata().getAnnotations()).containsEntry("mthreads.com/request-gpu-num", "2");
        assertThat(denied(pod(container("c", "mthreads.com/vgpu", "1", "mthreads.com/sgpu-memory", "5"))))
                .isEqualTo("sGPU memory request value is invalid, valid values are [2, 4, 8, 16, 32, 64, 96]");
    }

    @Test
    void podsWithoutManagedDevicesPassUnchanged() {
        var in = pod(container("c", "cpu", "1"));
        var out = allowed(in);
        assertThat(out).isEqualTo(in);
        var privileged = pod(new ContainerBuilder(container("c", "cpu", "1"))
                .withNewSecurityContext()
                .withPrivileged(true)
                .endSecurityContext()
                .build());
        assertThat(allowed(privileged)).isEqualTo(privileged);
    }

    @Test
    void privilegedPodsThatRequestDevicesAreRejected() {
        var p = pod(new ContainerBuilder(container("main", "nvidia.com/gpu", "1"))
                .withNewSecurityContext()
                .withPrivileged(true)
                .endSecurityContext()
                .build());
        assertThat(denied(p)).startsWith("container main is privileged");
    }

    @Test
    void podsThatSetNodeNameAreRejected() {
        var p = new PodBuilder(pod(container("c", "hygon.com/hcunum", "1")))
                .editSpec()
                .withNodeName("n1")
                .endSpec()
                .build();
        assertThat(denied(p)).startsWith("pod has node assigned (spec.nodeName n1)");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "hami.io/vgpu-devices-allocated",
                "hami.io/vgpu-node",
                "hami.io/bind-phase",
                "hami.io/cambricon-mlu-devices-to-allocate",
                "hami.io/hcu-devices-allocated",
                "hami.io/mthreads-vgpu-devices-allocated"
            })
    void protocolAnnotationsAreRejectedEvenWithoutDeviceRequests(String key) {
        var p = new PodBuilder(pod(container("c", "cpu", "1")))
                .editMetadata()
                .addToAnnotations(key, "GPU-1,NVIDIA,1000,0:;")
                .endMetadata()
                .build();
        assertThat(denied(p)).startsWith("pod sets annotation " + key + ", which only the hami scheduler");
    }

    @Test
    void invalidQuantitiesAreRejectedNamingTheResourceAndContainer() {
        assertThat(denied(pod(container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1.5"))))
                .isEqualTo(
                        "container c: nvidia.com/gpumem \"1.5\" is not a whole number; NVIDIA takes a whole number from 0 to 2147483647 (MiB)");
        var bad = new ContainerBuilder()
                .withName("x")
                .withNewResources()
                .addToLimits("hygon.com/hcumem", new Quantity("12x"))
                .endResources()
                .build();
        assertThat(denied(pod(bad)))
                .startsWith(
                        "container x: hygon.com/hcumem \"12x\" is not a quantity; HCU takes a whole number from 0 to");
        assertThat(denied(pod(container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "150"))))
                .isEqualTo(
                        "container c: nvidia.com/gpumem-percentage \"150\" is out of range; NVIDIA takes a whole number from 0 to 100"
                                + " (percent of a device's memory)");
    }

    /** Issue 16: amounts a vendor cannot represent used to read as "no request" and bind without a grant. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "nvidia.com/gpu|1e18|\"1e18\" (1000000000000000000) is out of range; NVIDIA takes a whole number from 0 to 2147483647 (devices)",
                "nvidia.com/gpu|2147483648|\"2147483648\" is out of range; NVIDIA takes a whole number from 0 to 2147483647 (devices)",
                "nvidia.com/gpu|4Gi|\"4Gi\" (4294967296) is out of range; NVIDIA takes a whole number from 0 to 2147483647 (devices)",
                "nvidia.com/gpumem|4Gi|\"4Gi\" (4294967296) is out of range; NVIDIA takes a whole number from 0 to 2147483647 (MiB)",
                "nvidia.com/gpucores|2147483648|\"2147483648\" is out of range; NVIDIA takes a whole number from 0 to 2147483647 (percent of a device; above 100 counts as 100)",
                "nvidia.com/gpucores|-1|\"-1\" is out of range; NVIDIA takes a whole number from 0 to 2147483647 (percent of a device; above 100 counts as 100)",
                "cambricon.com/vmlu|2147483648|\"2147483648\" is out of range; MLU takes a whole number from 0 to 2147483647 (devices)",
                "cambricon.com/mlu.smlu.vmemory|8388608|\"8388608\" is out of range; MLU takes a whole number from 0 to 8388607 (units of 256 MiB)",
                "cambricon.com/mlu.smlu.vcore|4Gi|\"4Gi\" (4294967296) is out of range; MLU takes a whole number from 0 to 2147483647 (percent of a device; above 100 counts as 100)",
                "cambricon.com/mlu.smlu.vcore|-5|\"-5\" is out of range; MLU takes a whole number from 0 to 2147483647 (percent of a device; above 100 counts as 100)",
                "mthreads.com/vgpu|4Gi|\"4Gi\" (4294967296) is out of range; Mthreads takes a whole number from 0 to 2147483647 (devices)",
                "mthreads.com/sgpu-memory|4194304|\"4194304\" is out of range; Mthreads takes a whole number from 0 to 4194303 (units of 512 MiB)",
                "hygon.com/hcunum|1e10|\"1e10\" (10000000000) is out of range; HCU takes a whole number from 0 to 2147483647 (devices)",
                "hygon.com/hcumem|2147483648|\"2147483648\" is out of range; HCU takes a whole number from 0 to 2147483647 (MiB)",
                "hygon.com/hcucores|1e10|\"1e10\" (10000000000) is out of range; HCU takes a whole number from 0 to 2147483647 (percent of a device; above 100 counts as 100)",
                "hygon.com/hcumem|16Gi|\"16Gi\" (17179869184) is out of range; HCU takes a whole number from 0 to 2147483647 (MiB)",
                "hygon.com/hcumem|1.5|\"1.5\" is not a whole number; HCU takes a whole number from 0 to 2147483647 (MiB)",
                "nvidia.com/gpumem|16Gi|\"16Gi\" (17179869184) is out of range; NVIDIA takes a whole number from 0 to 2147483647 (MiB)",
                "nvidia.com/gpumem|16.0Gi|\"16.0Gi\" is not a whole number; NVIDIA takes a whole number from 0 to 2147483647 (MiB)",
                "nvidia.com/gpu|-1|\"-1\" is out of range; NVIDIA takes a whole number from 0 to 2147483647 (devices)",
                "nvidia.com/gpu|4294967297|\"4294967297\" is out of range; NVIDIA takes a whole number from 0 to 2147483647 (devices)",
            })
    void quantitiesAVendorCannotRepresentAreRefusedNamingTheResourceAndTheLimit(
            String resource, String quantity, String why) {
        assertThat(denied(pod(container("main", resource, quantity))))
                .isEqualTo("container main: " + resource + " " + why);
    }

    /**
     * docs/upstream.md#lenient-inputs: a memory percentage outside 0..100 is refused as upstream's webhook refuses it
     * (filter and bind, for a pod admitted elsewhere, clamp it as upstream's requests do).
     */
    @ParameterizedTest
    @ValueSource(strings = {"150", "101", "-1", "4294967346", "50.5"})
    void aMemoryPercentageOutsideZeroToHundredIsRefusedAsUpstreamsWebhookDoes(String percentage) {
        String shown = percentage.equals("50.5") ? "is not a whole number" : "is out of range";
        assertThat(denied(pod(container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", percentage))))
                .isEqualTo("container c: nvidia.com/gpumem-percentage \"" + percentage + "\" " + shown
                        + "; NVIDIA takes a whole number from 0 to 100 (percent of a device's memory)");
    }

    /** docs/upstream.md#lenient-inputs: what upstream's webhook and requests accept safely, ours accepts too. */
    @Test
    void coresAboveAWholeDeviceAndKiloQuantitiesAreAdmittedAsUpstreamAdmitsThem() {
        for (var c : java.util.List.of(
                container("c", "nvidia.com/gpu", "1", "nvidia.com/gpucores", "120"),
                container("c", "nvidia.com/gpu", "1", "nvidia.com/gpucores", "2147483647"),
                container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3k"),
                container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "0"),
                container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "100"),
                container("c", "cambricon.com/vmlu", "1", "cambricon.com/mlu.smlu.vcore", "150"),
                container("c", "hygon.com/hcunum", "1", "hygon.com/hcucores", "101", "hygon.com/hcumem", "3k"),
                container(
                        "c",
                        "mthreads.com/vgpu",
                        "1",
                        "mthreads.com/sgpu-memory",
                        "2",
                        "mthreads.com/sgpu-core",
                        "120"))) {
            Pod out = allowed(pod(c));
            assertThat(out.getSpec().getSchedulerName())
                    .as("%s", c.getResources())
                    .isEqualTo("hami-scheduler");
            // the pod's quantities stay as written: only defaults are added
            assertThat(limits(out, 0)).containsAllEntriesOf(c.getResources().getLimits());
        }
    }

    /** Quota counts cores as the fit grants them (above 100 as 100), so the webhook and filter agree. */
    @Test
    void quotaCountsCoresAboveAWholeDeviceAsAWholeDevice() {
        var quoted = new AdmissionRules(
                DeviceBackends.load(DeviceConfig.DEFAULTS),
                "hami-scheduler",
                ns -> Map.of("NVIDIA", new QuotaRoom(Long.MAX_VALUE, 200)));
        Pod twoWhole = pod(container("c", "nvidia.com/gpu", "2", "nvidia.com/gpucores", "120"));
        assertThat(quoted.review(twoWhole)).isInstanceOf(AdmissionRules.Verdict.Allowed.class);
        Pod three = pod(container("c", "nvidia.com/gpu", "3", "nvidia.com/gpucores", "120"));
        assertThat(quoted.review(three))
                .isInstanceOfSatisfying(
                        AdmissionRules.Verdict.Denied.class,
                        d -> assertThat(d.message())
                                .startsWith(
                                        "exceeding resource quota: the pod asks for 0 MiB and 300 cores of NVIDIA"));
    }

    @Test
    void theLargestRepresentableAmountsPass() {
        allowed(pod(container(
                "main", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "2147483647", "nvidia.com/gpucores", "100")));
        allowed(pod(container("main", "hygon.com/hcunum", "1", "hygon.com/hcucores", "100")));
    }

    @Test
    void anEmptyQuantityIsRefusedNamingTheResource() {
        // fabric8 cannot build Quantity(""), but a model object can carry an empty amount (as read from JSON "").
        var c = new ContainerBuilder()
                .withName("main")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity())
                .endResources()
                .build();
        assertThat(denied(pod(c)))
                .isEqualTo(
                        "container main: nvidia.com/gpu \"\" is not a quantity; NVIDIA takes a whole number from 0 to"
                                + " 2147483647 (devices)");
    }

    @Test
    void mooreThreadsDefaultsForManyGpusMustBeRepresentableToo() {
        // 43691 GPUs make the webhook's default memory 43691 * 96 units, more than 4194303.
        assertThat(denied(pod(container("main", "mthreads.com/vgpu", "43691"))))
                .startsWith("container main: mthreads.com/sgpu-memory \"4194336\" is out of range;")
                .endsWith("(after the Mthreads defaults were applied)");
        allowed(pod(container("main", "mthreads.com/vgpu", "43690")));
    }

    @Test
    void podsForAnotherSchedulerAreLeftAloneAndEmptyPodsRejected() {
        var other = new PodBuilder(pod(container("c", "nvidia.com/gpu", "1")))
                .editSpec()
                .withSchedulerName("volcano")
                .endSpec()
                .build();
        assertThat(allowed(other)).isEqualTo(other);
        assertThat(denied(new PodBuilder()
                        .withNewMetadata()
                        .withName("e")
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .build()))
                .isEqualTo("pod has no containers");
    }

    @Test
    void initContainersAreMutatedToo() {
        var p = new PodBuilder(pod(container("app", "cpu", "1")))
                .editSpec()
                .withInitContainers(container("init", "nvidia.com/gpu", "1"))
                .endSpec()
                .build();
        var out = allowed(p);
        assertThat(out.getSpec().getInitContainers().getFirst().getResources().getLimits())
                .containsEntry("nvidia.com/gpucores", new Quantity("100"));
        assertThat(out.getSpec().getSchedulerName()).isEqualTo("hami-scheduler");
    }
}
