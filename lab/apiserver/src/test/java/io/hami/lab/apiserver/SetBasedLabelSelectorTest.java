package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Set-based label selectors ({@code in}, {@code notin}) mixed with {@code k}, {@code !k}, {@code k=v}, {@code k!=v}
 * select exactly the matching objects in LIST, WATCH and DELETE-collection; {@code notin} and {@code !=} also match
 * objects without the key; a malformed selector is 400.
 */
class SetBasedLabelSelectorTest {

    @RegisterExtension
    static final ApiServer api = new ApiServer();

    @BeforeEach
    void pods() {
        api.client().pods().inNamespace("default").delete();
        api.client()
                .pods()
                .resource(Fixtures.pod("nvidia-a", Map.of("vendor", "nvidia", "tier", "a")))
                .create();
        api.client()
                .pods()
                .resource(Fixtures.pod("nvidia-b", Map.of("vendor", "nvidia", "tier", "b")))
                .create();
        api.client()
                .pods()
                .resource(Fixtures.pod("mlu", Map.of("vendor", "cambricon")))
                .create();
        api.client().pods().resource(Fixtures.pod("plain", Map.of("tier", "a"))).create();
    }

    private static List<String> select(String selector) {
        return api.client().pods().withLabelSelector(selector).list().getItems().stream()
                .map(p -> p.getMetadata().getName())
                .toList();
    }

    @Test
    void inSelectsListedValues() {
        assertThat(select("vendor in (nvidia, hygon)")).containsExactlyInAnyOrder("nvidia-a", "nvidia-b");
        assertThat(api.client().pods().withLabelIn("vendor", "cambricon").list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly("mlu");
    }

    @Test
    void notinAlsoSelectsObjectsWithoutTheKey() {
        assertThat(api.client().pods().withLabelNotIn("vendor", "nvidia").list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("mlu", "plain");
    }

    @Test
    void mixedRequirementsAllApply() {
        assertThat(select("vendor,tier notin (b)")).containsExactlyInAnyOrder("nvidia-a", "mlu");
        assertThat(select("!vendor,tier=a")).containsExactly("plain");
        assertThat(select("vendor in (nvidia,cambricon),tier!=a")).containsExactlyInAnyOrder("nvidia-b", "mlu");
        assertThat(api.client()
                        .pods()
                        .withLabelSelector(new LabelSelectorBuilder()
                                .addToMatchLabels("tier", "a")
                                .addNewMatchExpression()
                                .withKey("vendor")
                                .withOperator("NotIn")
                                .withValues("cambricon")
                                .endMatchExpression()
                                .addNewMatchExpression()
                                .withKey("vendor")
                                .withOperator("Exists")
                                .endMatchExpression()
                                .build())
                        .list()
                        .getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly("nvidia-a");
    }

    @Test
    void malformedSelectorIsBadRequest() {
        assertThatThrownBy(() -> select("vendor in (nvidia"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(400);
                    assertThat(e.getStatus().getReason()).isEqualTo("BadRequest");
                });
    }

    @Test
    void watchDeliversOnlyMatchingObjects() throws InterruptedException {
        RecordingHandler<Pod> events = new RecordingHandler<>();
        Watch watch =
                api.client().pods().withLabelIn("vendor", "hygon", "mthreads").watch(events);
        try {
            api.client()
                    .pods()
                    .resource(Fixtures.pod("dcu", Map.of("vendor", "hygon")))
                    .create();
            api.client()
                    .pods()
                    .resource(Fixtures.pod("other", Map.of("vendor", "nvidia")))
                    .create();
            api.client()
                    .pods()
                    .resource(Fixtures.pod("mt", Map.of("vendor", "mthreads")))
                    .create();

            List<String> seen = events.drain(Duration.ofMillis(500)).stream()
                    .map(e -> e.type() + " " + e.name())
                    .toList();
            assertThat(seen).containsExactly("ADDED dcu", "ADDED mt");
        } finally {
            watch.close();
        }
    }

    @Test
    void deleteCollectionDeletesOnlySelectedObjects() {
        api.client().pods().withLabelIn("vendor", "nvidia").delete();

        assertThat(api.client().pods().list().getItems())
                .extracting(HasMetadata::getMetadata)
                .extracting(m -> m.getName())
                .containsExactlyInAnyOrder("mlu", "plain");
    }
}
