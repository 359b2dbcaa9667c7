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
        var in = new AdmissionReviewBuilder().withApiVersion("admission.k8s.io/v1").withKind("AdmissionReview")
                .withNewRequest().withUid("uid-1").withNamespace("ns").withOperation("CREATE").withObject(pod).endRequest().build();
        var r = f.post("/webhook", K8S.asJson(in));
        assertThat(r.statusCode()).isEqualTo(200);
        return K8S.unmarshal(r.body(), AdmissionReview.class);
    }

    @Test
    void mutatesWithAJsonPatchThatSetsTheSchedulerAndTheExclusiveDefault() throws Exception {
        var pod = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec()
                .withContainers(container("c", "nvidia.com/gpu", "1")).endSpec().build();
        var out = review(pod).getResponse();
        assertThat(out.getUid()).isEqualTo("uid-1");
        assertThat(out.getAllowed()).isTrue();
        assertThat(out.getPatchType()).isEqualTo("JSONPatch");
        String patch = new String(Base64.getDecoder().decode(out.getPatch()), StandardCharsets.UTF_8);
        assertThat(patch).contains("\"path\":\"/spec/schedulerName\"").contains("\"value\":\"hami-scheduler\"")
                .contains("/spec/containers/0/resources/limits/nvidia.com~1gpucores");
    }

    @Test
    void deniesWithTheMessageForTheUser() throws Exception {
        var pod = new PodBuilder().withNewMetadata().withName("p").addToAnnotations("hami.io/bind-phase", "success").endMetadata()
                .withNewSpec().withContainers(container("c", "cpu", "1")).endSpec().build();
        var out = review(pod).getResponse();
        assertThat(out.getAllowed()).isFalse();
        assertThat(out.getStatus().getCode()).isEqualTo(403);
        assertThat(out.getStatus().getMessage()).startsWith("pod sets annotation hami.io/bind-phase");
    }

    @Test
    void answersUnreadableReviewsWith400() throws Exception {
        assertThat(f.post("/webhook", "{not json").statusCode()).isEqualTo(400);
        assertThat(f.post("/webhook", "").statusCode()).isEqualTo(400);
        var noPod = f.post("/webhook", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}");
        assertThat(K8S.unmarshal(noPod.body(), AdmissionReview.class).getResponse().getStatus().getMessage()).isEqualTo("the review carries no Pod");
    }
}
