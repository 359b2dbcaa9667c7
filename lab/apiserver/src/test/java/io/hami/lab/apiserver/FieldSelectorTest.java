package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Field selectors on the fields the API server indexes ({@code spec.nodeName}, {@code status.phase}, ...) filter LIST
 * and WATCH with {@code =}, {@code ==}, {@code !=} joined by commas; an unsupported field is 400, never an empty list.
 */
class FieldSelectorTest {

    @RegisterExtension
    static final ApiServer api = new ApiServer();

    @BeforeAll
    static void start() {
        api.client().pods().resource(Fixtures.podOn("a1", "node-a", "Running")).create();
        api.client().pods().resource(Fixtures.podOn("a2", "node-a", "Pending")).create();
        api.client().pods().resource(Fixtures.podOn("b1", "node-b", "Running")).create();
        api.client().pods().resource(Fixtures.pod("unscheduled")).create();
    }

    private static List<String> names(List<? extends HasMetadata> objects) {
        return objects.stream().map(o -> o.getMetadata().getName()).toList();
    }

    @Test
    void nodeNameListsOnlyThatNodesPods() {
        assertThat(names(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "node-a")
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("a1", "a2");
    }

    @Test
    void emptyNodeNameListsUnscheduledPods() {
        assertThat(names(api.client()
                        .pods()
                        .withField("spec.nodeName", "")
                        .list()
                        .getItems()))
                .containsExactly("unscheduled");
    }

    @Test
    void notEqualAndCommaJoinedRequirementsAllApply() {
        assertThat(names(api.client()
                        .pods()
                        .withoutField("spec.nodeName", "node-a")
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("b1", "unscheduled");
        assertThat(names(api.client()
                        .pods()
                        .withFields(Map.of("spec.nodeName", "node-a", "status.phase", "Running"))
                        .list()
                        .getItems()))
                .containsExactly("a1");
        assertThat(api.client()
                        .raw(api.server().url() + "/api/v1/namespaces/default/pods?fieldSelector="
                                + "status.phase%3D%3DRunning%2Cspec.nodeName%21%3Dnode-a"))
                .contains("\"b1\"")
                .doesNotContain("\"a1\"");
    }

    @Test
    void unsupportedFieldIsBadRequest() {
        assertThatThrownBy(() ->
                        api.client().pods().withField("spec.priority", "1").list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(400);
                    assertThat(e.getStatus().getMessage()).contains("field label not supported: spec.priority");
                });
    }

    @Test
    void watchFollowsObjectsIntoAndOutOfTheSelection() throws InterruptedException {
        api.client().pods().resource(Fixtures.pod("mover")).create();
        RecordingHandler<Pod> events = new RecordingHandler<>();
        Watch watch = api.client().pods().withField("spec.nodeName", "node-c").watch(events);
        try {
            api.client()
                    .pods()
                    .resource(Fixtures.podOn("c1", "node-c", "Pending"))
                    .create();
            assertThat(events.await(e -> !e.type().equals("CLOSED")).name()).isEqualTo("c1");

            api.client()
                    .pods()
                    .withName("mover")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"nodeName\":\"node-c\"}}");
            var entered = events.await(e -> e.name().equals("mover"));
            assertThat(entered.type()).isEqualTo("ADDED");

            api.client().pods().withName("c1").delete();
            var deleted = events.await(e -> e.name().equals("c1"));
            assertThat(deleted.type()).isEqualTo("DELETED");

            api.client()
                    .pods()
                    .resource(Fixtures.podOn("elsewhere", "node-d", "Pending"))
                    .create();
            assertThat(events.drain(Duration.ofMillis(300))).isEmpty();
        } finally {
            watch.close();
        }
    }

    @Test
    void watchSendsDeletedWhenAnObjectStopsMatching() throws InterruptedException {
        api.client()
                .pods()
                .resource(Fixtures.podOn("starting", "node-e", "Pending"))
                .create();
        RecordingHandler<Pod> events = new RecordingHandler<>();
        Watch watch = api.client()
                .pods()
                .withField("status.phase", "Pending")
                .withField("spec.nodeName", "node-e")
                .watch(events);
        try {
            assertThat(events.await(e -> e.name().equals("starting")).type()).isEqualTo("ADDED");

            api.client().pods().withName("starting").editStatus(p -> {
                p.getStatus().setPhase("Running");
                return p;
            });

            var left = events.await(e -> e.name().equals("starting"));
            assertThat(left.type()).isEqualTo("DELETED");
            assertThat(left.object().getStatus().getPhase()).isEqualTo("Pending");
        } finally {
            watch.close();
        }
    }
}
