package io.hami.scheduler.webhook;

import static io.hami.scheduler.SchedulerFixture.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The webhook over HTTP, with AdmissionReview v1 JSON as the API server sends it. */
class WebhookHttpTest {
    static SchedulerFixture f;
    static final KubernetesSerialization K8S = new KubernetesSerialization();

    @BeforeAll
    static void start() throws Exception {
        f = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS);
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    static AdmissionReview review(io.fabric8.kubernetes.api.model.Pod pod) throws Exception {
        return review(pod, "admission.k8s.io/v1");
    }

    static AdmissionReview review(io.fabric8.kubernetes.api.model.Pod pod, String apiVersion) throws Exception {
        return review(f, pod, apiVersion);
    }

    static AdmissionReview review(SchedulerFixture f, io.fabric8.kubernetes.api.model.Pod pod, String apiVersion)
            throws Exception {
        var in = new AdmissionReviewBuilder()
                .withApiVersion(apiVersion)
                .withKind("AdmissionReview")
                .withNewRequest()
                .withUid("uid-1")
                .withNamespace("ns")
                .withOperation("CREATE")
                .withObject(pod)
                .endRequest()
                .build();
        var r = f.post("/webhook", K8S.asJson(in));
        assertThat(r.statusCode()).isEqualTo(200);
        return K8S.unmarshal(r.body(), AdmissionReview.class);
    }

    @Test
    void mutatesWithAJsonPatchThatSetsTheSchedulerAndTheExclusiveDefault() throws Exception {
        var pod = new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .withContainers(container("c", "nvidia.com/gpu", "1"))
                .endSpec()
                .build();
        var out = review(pod).getResponse();
        assertThat(out.getUid()).isEqualTo("uid-1");
        assertThat(out.getAllowed()).isTrue();
        assertThat(out.getPatchType()).isEqualTo("JSONPatch");
        String patch = new String(Base64.getDecoder().decode(out.getPatch()), StandardCharsets.UTF_8);
        assertThat(patch)
                .contains("\"path\":\"/spec/schedulerName\"")
                .contains("\"value\":\"hami-scheduler\"")
                .contains("/spec/containers/0/resources/limits/nvidia.com~1gpucores");
    }

    @Test
    void theNvidiaRuntimeClassOfTheDeviceConfigIsPatchedIn() throws Exception {
        var base = SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, java.time.Duration.ofMinutes(5));
        var config = io.hami.protocol.config.DeviceConfigLoader.parse(
                        "nvidia:\n  runtimeClassName: nvidia\n",
                        "test",
                        io.hami.protocol.spi.DeviceBackends.configSections())
                .config();
        var s = base.scheduling();
        try (var withClass = new SchedulerFixture(new io.hami.scheduler.SchedulerApp.Settings(
                base.http(),
                new io.hami.scheduler.SchedulerApp.Settings.Scheduling(
                        s.schedulerName(), s.policy(), s.lockTimeout(), config),
                base.replica(),
                base.metrics()))) {
            var pod = new PodBuilder()
                    .withNewMetadata()
                    .withName("p")
                    .endMetadata()
                    .withNewSpec()
                    .withContainers(container("c", "nvidia.com/gpu", "1"))
                    .endSpec()
                    .build();
            var out = review(withClass, pod, "admission.k8s.io/v1").getResponse();
            String patch = new String(Base64.getDecoder().decode(out.getPatch()), StandardCharsets.UTF_8);
            assertThat(patch).contains("{\"op\":\"add\",\"path\":\"/spec/runtimeClassName\",\"value\":\"nvidia\"}");
            // the default config sets none
            String plain = new String(
                    Base64.getDecoder().decode(review(pod).getResponse().getPatch()), StandardCharsets.UTF_8);
            assertThat(plain).doesNotContain("runtimeClassName");
        }
    }

    @Test
    void deniesWithTheMessageForTheUser() throws Exception {
        var pod = new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .addToAnnotations("hami.io/bind-phase", "success")
                .endMetadata()
                .withNewSpec()
                .withContainers(container("c", "cpu", "1"))
                .endSpec()
                .build();
        var out = review(pod).getResponse();
        assertThat(out.getAllowed()).isFalse();
        assertThat(out.getStatus().getCode()).isEqualTo(403);
        assertThat(out.getStatus().getMessage()).startsWith("pod sets annotation hami.io/bind-phase");
    }

    static io.fabric8.kubernetes.api.model.Pod podWith(String... resources) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .withContainers(container("c", resources))
                .endSpec()
                .build();
    }

    /** docs/upstream.md#lenient-inputs over HTTP: admitted as upstream admits them, or refused naming key, value, range. */
    @Test
    void lenientInputsAreAdmittedOrRefusedAsTheListSays() throws Exception {
        for (var admitted : java.util.List.of(
                podWith("nvidia.com/gpu", "1", "nvidia.com/gpucores", "120"),
                podWith("nvidia.com/gpu", "1", "nvidia.com/gpumem", "3k"),
                podWith("hygon.com/hcunum", "1", "hygon.com/hcucores", "101"))) {
            var out = review(admitted).getResponse();
            assertThat(out.getAllowed()).as("%s", admitted.getSpec()).isTrue();
            String patch = new String(Base64.getDecoder().decode(out.getPatch()), StandardCharsets.UTF_8);
            assertThat(patch)
                    .contains("\"value\":\"hami-scheduler\"")
                    .doesNotContain("/resources/limits/nvidia.com~1gpucores");
        }
        var refused = java.util.Map.of(
                podWith("nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "150"),
                "container c: nvidia.com/gpumem-percentage \"150\" is out of range; NVIDIA takes a whole number from 0"
                        + " to 100 (percent of a device's memory)",
                podWith("nvidia.com/gpu", "1", "nvidia.com/gpumem", "16Gi"),
                "container c: nvidia.com/gpumem \"16Gi\" (17179869184) is out of range; NVIDIA takes a whole number"
                        + " from 0 to 2147483647 (MiB)",
                podWith("nvidia.com/gpu", "4294967297"),
                "container c: nvidia.com/gpu \"4294967297\" is out of range; NVIDIA takes a whole number from 0 to"
                        + " 2147483647 (devices)");
        for (var e : refused.entrySet()) {
            var out = review(e.getKey()).getResponse();
            assertThat(out.getAllowed()).isFalse();
            assertThat(out.getStatus().getMessage()).isEqualTo(e.getValue());
        }
    }

    @Test
    void answersUnreadableReviewsWith400AndAReasonEach() throws Exception {
        assertThat(f.post("/webhook", "{not json")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(r.body()).startsWith("malformed AdmissionReview: not valid JSON at line 1, column 2");
        });
        assertThat(f.post("/webhook", "").body()).isEqualTo("AdmissionReview body missing");
        assertThat(f.post("/webhook", "null")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(r.body()).isEqualTo("AdmissionReview body is JSON null, want an AdmissionReview object");
        });
        assertThat(f.post("/webhook", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}"))
                .satisfies(r -> {
                    assertThat(r.statusCode()).isEqualTo(400);
                    assertThat(r.body()).isEqualTo("AdmissionReview has no request");
                });
        assertThat(
                        f.post(
                                "/webhook",
                                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"operation\":\"CREATE\"}}"))
                .satisfies(r -> {
                    assertThat(r.statusCode()).isEqualTo(400);
                    assertThat(r.body()).isEqualTo("AdmissionReview request has no uid to answer with");
                });
        assertThat(
                        f.post(
                                "/webhook",
                                "{\"apiVersion\":\"admission.k8s.io/v2\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}"))
                .satisfies(r -> {
                    assertThat(r.statusCode()).isEqualTo(400);
                    assertThat(r.body()).contains("apiVersion admission.k8s.io/v2 is not served");
                });
        assertThat(f.post(
                                "/webhook",
                                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":\"x\"}")
                        .body())
                .isEqualTo("malformed AdmissionReview: field request: expected an object, got a string");
        var noPod = f.post(
                "/webhook",
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}");
        assertThat(K8S.unmarshal(noPod.body(), AdmissionReview.class)
                        .getResponse()
                        .getStatus()
                        .getMessage())
                .isEqualTo("the review carries no Pod");
    }

    @Test
    void aV1beta1ReviewIsAnsweredAsV1beta1() throws Exception {
        var pod = new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .withContainers(container("c", "nvidia.com/gpu", "1"))
                .endSpec()
                .build();
        var out = review(pod, "admission.k8s.io/v1beta1");
        assertThat(out.getApiVersion()).isEqualTo("admission.k8s.io/v1beta1");
        assertThat(out.getResponse().getUid()).isEqualTo("uid-1");
        assertThat(out.getResponse().getAllowed()).isTrue();
        assertThat(out.getResponse().getPatchType()).isEqualTo("JSONPatch");
        assertThat(review(pod).getApiVersion()).isEqualTo("admission.k8s.io/v1");
    }

    static io.fabric8.kubernetes.api.model.Pod optedOut(io.fabric8.kubernetes.api.model.Container c) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .addToLabels("hami.io/webhook", "ignore")
                .endMetadata()
                .withNewSpec()
                .withContainers(c)
                .endSpec()
                .build();
    }

    @Test
    void theOptOutLabelExemptsAPodWithoutManagedResources() throws Exception {
        var out = review(optedOut(container("c", "cpu", "1"))).getResponse();
        assertThat(out.getAllowed()).isTrue();
        assertThat(out.getPatch()).isNull();
        assertThat(out.getWarnings()).isNullOrEmpty();
    }

    @Test
    void theOptOutLabelDoesNotExemptAPodThatRequestsDevices() throws Exception {
        var out = review(optedOut(container("c", "nvidia.com/gpu", "1"))).getResponse();
        assertThat(out.getAllowed()).isTrue();
        String patch = new String(Base64.getDecoder().decode(out.getPatch()), StandardCharsets.UTF_8);
        assertThat(patch).contains("\"path\":\"/spec/schedulerName\"").contains("nvidia.com~1gpucores");
        assertThat(out.getWarnings())
                .singleElement()
                .asString()
                .isEqualTo(
                        "label hami.io/webhook=ignore does not exempt pods that request devices (nvidia.com/gpu): this pod was reviewed like any other");

        // the self-grant of issue 16: label, nodeName and a device request; refused like any pod
        var selfGrant = new PodBuilder(optedOut(container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000")))
                .editSpec()
                .withNodeName("gpu-node")
                .endSpec()
                .build();
        var denied = review(selfGrant).getResponse();
        assertThat(denied.getAllowed()).isFalse();
        assertThat(denied.getStatus().getMessage()).startsWith("pod has node assigned (spec.nodeName gpu-node)");
        assertThat(denied.getWarnings()).singleElement().asString().contains("nvidia.com/gpu, nvidia.com/gpumem");
    }

    @Test
    void aLabelOtherThanIgnoreChangesNothing() throws Exception {
        var pod = new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .addToLabels("hami.io/webhook", "enabled")
                .endMetadata()
                .withNewSpec()
                .withContainers(container("c", "hygon.com/hcunum", "1"))
                .endSpec()
                .build();
        var out = review(pod).getResponse();
        assertThat(out.getWarnings()).isNullOrEmpty();
        assertThat(out.getPatch()).isNotNull();
    }
}
