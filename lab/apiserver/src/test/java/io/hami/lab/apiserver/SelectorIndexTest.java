package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pod LISTs by {@code spec.nodeName} or by label are answered from indexes ({@link StoreIndex}); whatever writes do to
 * a pod's node and labels, the answer is what a scan of every pod would give.
 */
class SelectorIndexTest {
    @RegisterExtension
    final ApiServer api = new ApiServer();

    @Test
    void aListByNodeFollowsBindingsAndDeletions() {
        api.client().pods().resource(Fixtures.podOn("a", "n1", "Running")).create();
        api.client().pods().resource(Fixtures.podOn("b", "n2", "Running")).create();
        api.client().pods().resource(Fixtures.pod("c")).create();
        api.client().pods().resource(Fixtures.pod("d")).create();

        assertThat(names(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "n1")
                        .list()
                        .getItems()))
                .containsExactly("a");
        assertThat(names(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "")
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("c", "d");

        bind("c", "n1");
        api.client().pods().withName("a").delete();

        assertThat(names(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "n1")
                        .list()
                        .getItems()))
                .containsExactly("c");
        assertThat(names(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "")
                        .list()
                        .getItems()))
                .containsExactly("d");
        assertThat(names(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "n2")
                        .list()
                        .getItems()))
                .containsExactly("b");
        // an inequality is not indexed: every pod is looked at
        assertThat(names(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withoutField("spec.nodeName", "n1")
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("b", "d");
    }

    @Test
    void aListByLabelFollowsRelabellingAndCombinesWithTheOtherRequirements() {
        api.client()
                .pods()
                .resource(Fixtures.pod("a", Map.of("app", "x", "tier", "web")))
                .create();
        api.client().pods().resource(Fixtures.pod("b", Map.of("app", "x"))).create();
        api.client().pods().resource(Fixtures.pod("c", Map.of("app", "y"))).create();

        assertThat(names(api.client().pods().withLabel("app", "x").list().getItems()))
                .containsExactlyInAnyOrder("a", "b");
        assertThat(names(api.client()
                        .pods()
                        .withLabel("app", "x")
                        .withLabel("tier", "web")
                        .list()
                        .getItems()))
                .containsExactly("a");
        assertThat(names(api.client().pods().withLabelIn("app", "x", "y").list().getItems()))
                .containsExactlyInAnyOrder("a", "b", "c");

        api.client()
                .pods()
                .withName("b")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"app\":\"y\"}}}");
        api.client()
                .pods()
                .withName("a")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"app\":null}}}");

        assertThat(names(api.client().pods().withLabel("app", "x").list().getItems()))
                .isEmpty();
        assertThat(names(api.client().pods().withLabel("app", "y").list().getItems()))
                .containsExactlyInAnyOrder("b", "c");
        assertThat(names(api.client().pods().withLabel("tier", "web").list().getItems()))
                .containsExactly("a");
        bind("b", "n1");
        assertThat(names(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withLabel("app", "y")
                        .withField("spec.nodeName", "n1")
                        .list()
                        .getItems()))
                .containsExactly("b");
    }

    @Test
    void anIndexedListKeepsToItsNamespace() {
        api.client().namespaces().resource(Fixtures.namespace("other")).create();
        api.client()
                .pods()
                .inNamespace("default")
                .resource(Fixtures.pod("twin", Map.of("app", "x")))
                .create();
        api.client()
                .pods()
                .inNamespace("other")
                .resource(Fixtures.pod("twin", Map.of("app", "x")))
                .create();

        assertThat(api.client()
                        .pods()
                        .inNamespace("other")
                        .withLabel("app", "x")
                        .list()
                        .getItems())
                .extracting(p -> p.getMetadata().getNamespace())
                .containsExactly("other");
        assertThat(api.client()
                        .pods()
                        .inAnyNamespace()
                        .withLabel("app", "x")
                        .list()
                        .getItems())
                .hasSize(2);
    }

    @Test
    void requestsAreCountedByVerbAndResource() {
        api.client().pods().resource(Fixtures.pod("a", Map.of("app", "x"))).create();
        api.server().requests().reset();

        api.client().pods().withName("a").get();
        api.client().pods().withLabel("app", "x").list();
        // a patch through resource(...) with the name only: withName(...).patch(...) would GET the pod first
        api.client()
                .pods()
                .resource(Fixtures.pod("a"))
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"b\":\"c\"}}}");
        bind("a", "n1");
        api.client().nodes().list();

        assertThat(api.server().requests().snapshot())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "get pods",
                        1L,
                        "list pods",
                        1L,
                        "patch pods",
                        1L,
                        "create pods/binding",
                        1L,
                        "list nodes",
                        1L));
        assertThat(api.server().requests().count("list pods")).isEqualTo(1);
    }

    private void bind(String pod, String node) {
        api.client()
                .raw(
                        "/api/v1/namespaces/default/pods/" + pod + "/binding",
                        "POST",
                        Map.of(
                                "apiVersion",
                                "v1",
                                "kind",
                                "Binding",
                                "metadata",
                                Map.of("name", pod),
                                "target",
                                Map.of("apiVersion", "v1", "kind", "Node", "name", node)));
    }

    private static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }
}
