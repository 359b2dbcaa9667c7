package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Set-based label selectors ({@code in}, {@code notin}) mixed with {@code k}, {@code !k}, {@code k=v}, {@code k!=v}
 * select exactly the matching objects in LIST, WATCH and DELETE-collection; {@code notin} and {@code !=} also match
 * objects without the key; a malformed selector is 400.
 */
class SetBasedLabelSelectorTest {

    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @BeforeEach
    void pods() {
        client.pods().inNamespace("default").delete();
        client.pods()
                .resource(Fixtures.pod("nvidia-a", Map.of("vendor", "nvidia", "tier", "a")))
                .create();
        client.pods()
                .resource(Fixtures.pod("nvidia-b", Map.of("vendor", "nvidia", "tier", "b")))
                .create();
        client.pods()
                .resource(Fixtures.pod("mlu", Map.of("vendor", "cambricon")))
                .create();
        client.pods().resource(Fixtures.pod("plain", Map.of("tier", "a"))).create();
    }

    private static List<String> select(String selector) {
        return client.pods().withLabelSelector(selector).list().getItems().stream()
                .map(p -> p.getMetadata().getName())
                .toList();
    }

    @Test
    void inSelectsListedValues() {
        assertThat(select("vendor in (nvidia, hygon)")).containsExactlyInAnyOrder("nvidia-a", "nvidia-b");
        assertThat(client.pods().withLabelIn("vendor", "cambricon").list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactly("mlu");
    }

    @Test
    void notinAlsoSelectsObjectsWithoutTheKey() {
        assertThat(client.pods().withLabelNotIn("vendor", "nvidia").list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("mlu", "plain");
    }

    @Test
    void mixedRequirementsAllApply() {
        assertThat(select("vendor,tier notin (b)")).containsExactlyInAnyOrder("nvidia-a", "mlu");
        assertThat(select("!vendor,tier=a")).containsExactly("plain");
        assertThat(select("vendor in (nvidia,cambricon),tier!=a")).containsExactlyInAnyOrder("nvidia-b", "mlu");
        assertThat(client.pods()
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
        Watch watch = client.pods().withLabelIn("vendor", "hygon", "mthreads").watch(events);
        try {
            client.pods()
                    .resource(Fixtures.pod("dcu", Map.of("vendor", "hygon")))
                    .create();
            client.pods()
                    .resource(Fixtures.pod("other", Map.of("vendor", "nvidia")))
                    .create();
            client.pods()
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
        client.pods().withLabelIn("vendor", "nvidia").delete();

        assertThat(client.pods().list().getItems())
                .extracting(HasMetadata::getMetadata)
                .extracting(m -> m.getName())
                .containsExactlyInAnyOrder("mlu", "plain");
    }
}
