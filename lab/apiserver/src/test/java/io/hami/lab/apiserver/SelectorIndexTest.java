package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pod LISTs by {@code spec.nodeName} or by label are answered from indexes ({@link StoreIndex}); whatever writes do to
 * a pod's node and labels, the answer is what a scan of every pod would give.
 */
class SelectorIndexTest {
    private EmbeddedApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void aListByNodeFollowsBindingsAndDeletions() {
        client.pods().resource(Fixtures.podOn("a", "n1", "Running")).create();
        client.pods().resource(Fixtures.podOn("b", "n2", "Running")).create();
        client.pods().resource(Fixtures.pod("c")).create();
        client.pods().resource(Fixtures.pod("d")).create();

        assertThat(names(client.pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "n1")
                        .list()
                        .getItems()))
                .containsExactly("a");
        assertThat(names(client.pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "")
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("c", "d");

        bind("c", "n1");
        client.pods().withName("a").delete();

        assertThat(names(client.pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "n1")
                        .list()
                        .getItems()))
                .containsExactly("c");
        assertThat(names(client.pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "")
                        .list()
                        .getItems()))
                .containsExactly("d");
        assertThat(names(client.pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", "n2")
                        .list()
                        .getItems()))
                .containsExactly("b");
        // an inequality is not indexed: every pod is looked at
        assertThat(names(client.pods()
                        .inAnyNamespace()
                        .withoutField("spec.nodeName", "n1")
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("b", "d");
    }

    @Test
    void aListByLabelFollowsRelabellingAndCombinesWithTheOtherRequirements() {
        client.pods()
                .resource(Fixtures.pod("a", Map.of("app", "x", "tier", "web")))
                .create();
        client.pods().resource(Fixtures.pod("b", Map.of("app", "x"))).create();
        client.pods().resource(Fixtures.pod("c", Map.of("app", "y"))).create();

        assertThat(names(client.pods().withLabel("app", "x").list().getItems())).containsExactlyInAnyOrder("a", "b");
        assertThat(names(client.pods()
                        .withLabel("app", "x")
                        .withLabel("tier", "web")
                        .list()
                        .getItems()))
                .containsExactly("a");
        assertThat(names(client.pods().withLabelIn("app", "x", "y").list().getItems()))
                .containsExactlyInAnyOrder("a", "b", "c");

        client.pods()
                .withName("b")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"app\":\"y\"}}}");
        client.pods()
                .withName("a")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"app\":null}}}");

        assertThat(names(client.pods().withLabel("app", "x").list().getItems())).isEmpty();
        assertThat(names(client.pods().withLabel("app", "y").list().getItems())).containsExactlyInAnyOrder("b", "c");
        assertThat(names(client.pods().withLabel("tier", "web").list().getItems()))
                .containsExactly("a");
        bind("b", "n1");
        assertThat(names(client.pods()
                        .inAnyNamespace()
                        .withLabel("app", "y")
                        .withField("spec.nodeName", "n1")
                        .list()
                        .getItems()))
                .containsExactly("b");
    }

    @Test
    void anIndexedListKeepsToItsNamespace() {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("other")
                        .endMetadata()
                        .build())
                .create();
        client.pods()
                .inNamespace("default")
                .resource(Fixtures.pod("twin", Map.of("app", "x")))
                .create();
        client.pods()
                .inNamespace("other")
                .resource(Fixtures.pod("twin", Map.of("app", "x")))
                .create();

        assertThat(client.pods()
                        .inNamespace("other")
                        .withLabel("app", "x")
                        .list()
                        .getItems())
                .extracting(p -> p.getMetadata().getNamespace())
                .containsExactly("other");
        assertThat(client.pods().inAnyNamespace().withLabel("app", "x").list().getItems())
                .hasSize(2);
    }

    @Test
    void requestsAreCountedByVerbAndResource() {
        client.pods().resource(Fixtures.pod("a", Map.of("app", "x"))).create();
        server.requests().reset();

        client.pods().withName("a").get();
        client.pods().withLabel("app", "x").list();
        // a patch through resource(...) with the name only: withName(...).patch(...) would GET the pod first
        client.pods()
                .resource(Fixtures.pod("a"))
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"b\":\"c\"}}}");
        bind("a", "n1");
        client.nodes().list();

        assertThat(server.requests().snapshot())
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
        assertThat(server.requests().count("list pods")).isEqualTo(1);
    }

    private void bind(String pod, String node) {
        client.raw(
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
