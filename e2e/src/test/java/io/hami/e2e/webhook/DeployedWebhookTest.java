package io.hami.e2e.webhook;

import static io.hami.e2e.support.Cluster.container;
import static io.hami.e2e.support.Cluster.pod;
import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.controlplane.DeployedWebhook;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.HamiScheduler;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube-apiserver calling our webhook over TLS through deploy/'s MutatingWebhookConfiguration (only its clientConfig
 * changed: a loopback URL and the CA as caBundle). Pods are created for real; the webhook's failurePolicy is Ignore,
 * so every "untouched" case is paired with a pod the same webhook did change.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 2, unit = TimeUnit.MINUTES)
class DeployedWebhookTest {
    static final String NS = "e2e-webhook";
    static final String IGNORED_NS = "e2e-webhook-ignored";
    static final String SYSTEM_NS = "kube-system";
    static final String QUOTA_NS = "e2e-webhook-quota";
    static final String DEFAULT_SCHEDULER = "default-scheduler";

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static HamiScheduler scheduler;

    @BeforeAll
    static void webhook(@TempDir Path dir) throws Exception {
        plane.ensureNamespace(NS);
        plane.ensureNamespace(IGNORED_NS);
        plane.ensureNamespace(SYSTEM_NS);
        plane.ensureNamespace(QUOTA_NS);
        admin.namespaces()
                .withName(IGNORED_NS)
                .edit(n -> new NamespaceBuilder(n)
                        .editMetadata()
                        .addToLabels("hami.io/webhook", "ignore")
                        .endMetadata()
                        .build());
        scheduler =
                HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("hami-scheduler"));
        DeployedWebhook.register(admin, scheduler.url(), plane.ca().certificatePem());
    }

    @AfterAll
    static void stop() {
        try {
            if (scheduler != null) {
                scheduler.close();
            }
        } finally {
            admin.admissionRegistration()
                    .v1()
                    .mutatingWebhookConfigurations()
                    .withName("hami-scheduler")
                    .delete();
            for (String ns : List.of(NS, IGNORED_NS, QUOTA_NS)) {
                ClusterOps.deletePods(admin, ns);
            }
            for (String name : List.of("system-gpu", "system-spoofed")) {
                admin.pods()
                        .inNamespace(SYSTEM_NS)
                        .withName(name)
                        .withGracePeriod(0)
                        .delete();
            }
        }
    }

    private static Pod create(Pod pod) {
        return admin.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(pod)
                .create();
    }

    private static Map<String, Quantity> limits(Container c) {
        return c.getResources().getLimits();
    }

    private static Map<String, String> env(Container c) {
        return c.getEnv() == null
                ? Map.of()
                : c.getEnv().stream()
                        .collect(java.util.stream.Collectors.toMap(
                                EnvVar::getName, e -> e.getValue() == null ? "" : e.getValue()));
    }

    @Test
    void aBareGpuCountGoesToOurSchedulerAsAnExclusiveWholeCard() {
        Pod created = create(
                pod(NS, "bare-gpu", container("cuda", "nvidia.com/gpu", "1")).build());
        assertThat(created.getSpec().getSchedulerName()).isEqualTo(HamiScheduler.SCHEDULER_NAME);
        assertThat(limits(created.getSpec().getContainers().getFirst()))
                .containsEntry("nvidia.com/gpu", new Quantity("1"))
                .containsEntry("nvidia.com/gpucores", new Quantity("100"));
    }

    @Test
    void aPodNamedByGenerateNameIsMutatedToo() {
        Pod p = new PodBuilder(
                        pod(NS, null, container("cuda", "nvidia.com/gpu", "1")).build())
                .editMetadata()
                .withName(null)
                .withGenerateName("generated-")
                .endMetadata()
                .build();
        Pod created = create(p);
        assertThat(created.getMetadata().getName()).startsWith("generated-");
        assertThat(created.getSpec().getSchedulerName()).isEqualTo(HamiScheduler.SCHEDULER_NAME);
        assertThat(limits(created.getSpec().getContainers().getFirst()))
                .containsEntry("nvidia.com/gpucores", new Quantity("100"));
    }

    @Test
    void memoryAloneGetsTheDefaultCountAndThePriorityBecomesHamiCoresEnv() {
        Pod created =
                create(pod(NS, "mem-only", container("cuda", "nvidia.com/gpumem", "4000", "nvidia.com/priority", "1"))
                        .build());
        Container c = created.getSpec().getContainers().getFirst();
        assertThat(created.getSpec().getSchedulerName()).isEqualTo(HamiScheduler.SCHEDULER_NAME);
        assertThat(limits(c))
                .containsEntry("nvidia.com/gpu", new Quantity("1"))
                .doesNotContainKey("nvidia.com/gpucores");
        assertThat(env(c)).containsEntry("CUDA_TASK_PRIORITY", "1");
        // The API server defaults requests from limits after the webhook; the added count is there too.
        assertThat(c.getResources().getRequests()).containsEntry("nvidia.com/gpu", new Quantity("1"));
    }

    @Test
    void mooreThreadsDefaultsAndInitContainersAreMutatedToo() {
        Pod p = new PodBuilder(
                        pod(NS, "mthreads", container("main", "cpu", "100m")).build())
                .editSpec()
                .withInitContainers(container("warmup", "mthreads.com/vgpu", "2"))
                .endSpec()
                .build();
        Pod created = create(p);
        assertThat(created.getSpec().getSchedulerName()).isEqualTo(HamiScheduler.SCHEDULER_NAME);
        assertThat(limits(created.getSpec().getInitContainers().getFirst()))
                .containsEntry("mthreads.com/sgpu-core", new Quantity("32"))
                .containsEntry("mthreads.com/sgpu-memory", new Quantity("192"));
        assertThat(annotations(created)).containsEntry("mthreads.com/request-gpu-num", "2");
        assertThat(limits(created.getSpec().getContainers().getFirst())).containsOnlyKeys("cpu");
    }

    @Test
    void cambriconAndHygonPodsGoToOurSchedulerUnchangedOtherwise() {
        Pod mlu = create(
                pod(NS, "mlu", container("mlu", "cambricon.com/vmlu", "1", "cambricon.com/mlu.smlu.vmemory", "8"))
                        .build());
        Pod hcu = create(pod(NS, "hcu", container("dtk", "hygon.com/hcunum", "1", "hygon.com/hcumem", "2000"))
                .build());
        for (Pod created : List.of(mlu, hcu)) {
            assertThat(created.getSpec().getSchedulerName()).isEqualTo(HamiScheduler.SCHEDULER_NAME);
            assertThat(limits(created.getSpec().getContainers().getFirst())).hasSize(2);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "hami.io/vgpu-devices-allocated",
                "hami.io/bind-phase",
                "hami.io/cambricon-mlu-devices-to-allocate",
                "hami.io/hcu-devices-allocated",
                "hami.io/mthreads-vgpu-devices-to-allocate",
                "hami.io/vgpu-node"
            })
    void spoofedProtocolAnnotationsAreRejectedWithOurMessage(String key) {
        String name = "spoofed-" + Integer.toUnsignedString(key.hashCode());
        Pod p = new PodBuilder(
                        pod(NS, name, container("cuda", "nvidia.com/gpu", "1")).build())
                .editMetadata()
                .addToAnnotations(key, "GPU-0,NVIDIA,1000,10:;")
                .endMetadata()
                .build();
        assertThatThrownBy(() -> create(p)).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(403);
            assertThat(e.getMessage())
                    .contains("admission webhook \"vgpu.hami.io\" denied the request")
                    .contains("pod sets annotation " + key
                            + ", which only the hami scheduler and device plugins may write");
        });
        assertThat(admin.pods().inNamespace(NS).withName(name).get()).isNull();
    }

    @Test
    void spoofedAnnotationsAreRejectedEvenOnAPodWithoutDevices() {
        Pod p = new PodBuilder(pod(NS, "spoofed-plain", container("app", "cpu", "100m"))
                        .build())
                .editMetadata()
                .addToAnnotations("hami.io/bind-phase", "success")
                .endMetadata()
                .build();
        assertThatThrownBy(() -> create(p))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getMessage()).contains("pod sets annotation hami.io/bind-phase"));
    }

    @Test
    void otherRejectionsReachTheUserToo() {
        Pod pinned = new PodBuilder(pod(NS, "pinned", container("cuda", "nvidia.com/gpu", "1"))
                        .build())
                .editSpec()
                .withNodeName("some-node")
                .endSpec()
                .build();
        assertThatThrownBy(() -> create(pinned))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getMessage()).contains("pod has node assigned (spec.nodeName some-node)"));
        Pod privileged = new PodBuilder(pod(NS, "privileged", container("cuda", "nvidia.com/gpu", "1"))
                        .build())
                .editSpec()
                .editFirstContainer()
                .withNewSecurityContext()
                .withPrivileged(true)
                .endSecurityContext()
                .endContainer()
                .endSpec()
                .build();
        assertThatThrownBy(() -> create(privileged))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getMessage()).contains("container cuda is privileged"));
        assertThatThrownBy(() -> create(pod(
                                NS,
                                "bad-sgpu",
                                container("musa", "mthreads.com/vgpu", "1", "mthreads.com/sgpu-memory", "3"))
                        .build()))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getMessage()).contains("sGPU memory request value is invalid"));
    }

    @Test
    void podsOfSystemNamespacesAreNotSent() {
        // The same pods in a namespace the webhook serves are changed (or refused): the webhook is up.
        assertThat(create(pod(NS, "control-gpu", container("cuda", "nvidia.com/gpu", "1"))
                                .build())
                        .getSpec()
                        .getSchedulerName())
                .isEqualTo(HamiScheduler.SCHEDULER_NAME);
        Pod gpu = create(pod(SYSTEM_NS, "system-gpu", container("cuda", "nvidia.com/gpu", "1"))
                .build());
        assertUntouched(gpu);
        // Not even a spoofed annotation is looked at: the API server never calls the webhook for kube-system.
        Pod spoofed = create(new PodBuilder(pod(SYSTEM_NS, "system-spoofed", container("cuda", "nvidia.com/gpu", "1"))
                        .build())
                .editMetadata()
                .addToAnnotations("hami.io/bind-phase", "success")
                .endMetadata()
                .build());
        assertUntouched(spoofed);
    }

    @Test
    void namespacesLabelledIgnoreAreNotSent() {
        Pod inIgnoredNamespace = create(new PodBuilder(pod(IGNORED_NS, "gpu", container("cuda", "nvidia.com/gpu", "1"))
                        .build())
                .editMetadata()
                .addToAnnotations("hami.io/bind-phase", "success")
                .endMetadata()
                .build());
        assertUntouched(inIgnoredNamespace);
        // Without the label the same pod is refused: the webhook is up and would have seen it.
        assertThatThrownBy(() -> create(new PodBuilder(pod(NS, "not-labelled", container("cuda", "nvidia.com/gpu", "1"))
                                .build())
                        .editMetadata()
                        .addToAnnotations("hami.io/bind-phase", "success")
                        .endMetadata()
                        .build()))
                .isInstanceOf(KubernetesClientException.class);
    }

    @Test
    void aPodLabelledIgnoreIsLeftAloneOnlyWhileItRequestsNoManagedResource() {
        // Pods are user-written: the label reaches the webhook (no objectSelector) and exempts only device-less pods.
        Pod plain = create(new PodBuilder(pod(NS, "labelled-plain", container("app", "cpu", "100m"))
                        .build())
                .editMetadata()
                .addToLabels("hami.io/webhook", "ignore")
                .endMetadata()
                .build());
        assertUntouched(plain);
        assertThat(limits(plain.getSpec().getContainers().getFirst())).containsOnlyKeys("cpu");
        Pod gpu = create(new PodBuilder(pod(NS, "labelled-gpu", container("cuda", "nvidia.com/gpu", "1"))
                        .build())
                .editMetadata()
                .addToLabels("hami.io/webhook", "ignore")
                .endMetadata()
                .build());
        assertThat(gpu.getSpec().getSchedulerName()).isEqualTo(HamiScheduler.SCHEDULER_NAME);
        assertThat(limits(gpu.getSpec().getContainers().getFirst()))
                .containsEntry("nvidia.com/gpucores", new Quantity("100"));
        // The self-grant: labelled, pinned, with the decision written by its author.
        Pod selfGrant = new PodBuilder(pod(NS, "labelled-self-grant", container("cuda", "nvidia.com/gpu", "1"))
                        .build())
                .editMetadata()
                .addToLabels("hami.io/webhook", "ignore")
                .addToAnnotations("hami.io/bind-phase", "allocating")
                .endMetadata()
                .editSpec()
                .withNodeName("some-node")
                .endSpec()
                .build();
        assertThatThrownBy(() -> create(selfGrant))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getMessage())
                                .contains("admission webhook \"vgpu.hami.io\" denied the request")
                                .contains("pod sets annotation hami.io/bind-phase"));
        assertThat(admin.pods().inNamespace(NS).withName("labelled-self-grant").get())
                .isNull();
    }

    @Test
    void aPodWithoutManagedResourcesIsUntouched() {
        Pod plain = create(pod(NS, "plain", container("app", "cpu", "100m", "memory", "64Mi"))
                .build());
        assertUntouched(plain);
        assertThat(limits(plain.getSpec().getContainers().getFirst())).containsOnlyKeys("cpu", "memory");
        // Sent and answered: a spoofed annotation on the same kind of pod is refused.
        assertThatThrownBy(() -> create(new PodBuilder(pod(NS, "plain-spoofed", container("app", "cpu", "100m"))
                                .build())
                        .editMetadata()
                        .addToAnnotations("hami.io/vgpu-time", "1")
                        .endMetadata()
                        .build()))
                .isInstanceOf(KubernetesClientException.class);
    }

    @Test
    void aPodOverItsNamespacesDeviceQuotaIsRefusedWithOurMessage() {
        // HAMi's quota keys (limits.<device memory resource>): the API server accepts them and its own quota admission
        // counts no limits.<extended resource> (nor does it need a quota controller's status for them), so the
        // within-quota
        // pod below is admitted and the one over it refused by our webhook alone.
        var quota = new ResourceQuotaBuilder()
                .withNewMetadata()
                .withName("gpu-memory")
                .withNamespace(QUOTA_NS)
                .endMetadata()
                .withNewSpec()
                .addToHard("limits.nvidia.com/gpumem", new Quantity("4000"))
                .endSpec()
                .build();
        admin.resourceQuotas().inNamespace(QUOTA_NS).resource(quota).create();

        Pod tooBig = pod(QUOTA_NS, "over-quota", container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "6000"))
                .build();
        // The scheduler learns of the quota through its informer: a server-side dry run reaches the webhook too.
        await("the webhook enforces the new quota")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    try {
                        admin.pods()
                                .inNamespace(QUOTA_NS)
                                .resource(tooBig)
                                .dryRun()
                                .create();
                        return false;
                    } catch (KubernetesClientException e) {
                        return e.getMessage().contains("exceeding resource quota");
                    }
                });
        assertThatThrownBy(() -> create(tooBig))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getMessage())
                                .contains("admission webhook \"vgpu.hami.io\" denied the request")
                                .contains("exceeding resource quota: the pod asks for 6000 MiB"));
        Pod fits = create(
                pod(QUOTA_NS, "within-quota", container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000"))
                        .build());
        assertThat(fits.getSpec().getSchedulerName()).isEqualTo(HamiScheduler.SCHEDULER_NAME);
    }

    /** As the API server alone makes it: default scheduler, no limits or env added. */
    private static void assertUntouched(Pod pod) {
        assertThat(pod.getSpec().getSchedulerName())
                .as("%s scheduler", pod.getMetadata().getName())
                .isEqualTo(DEFAULT_SCHEDULER);
        for (Container c : pod.getSpec().getContainers()) {
            assertThat(limits(c))
                    .as("%s limits", pod.getMetadata().getName())
                    .doesNotContainKeys("nvidia.com/gpucores");
            assertThat(c.getEnv()).as("%s env", pod.getMetadata().getName()).isNullOrEmpty();
        }
    }
}
