package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Objects are found by name through an index rather than a scan of the store ({@link StoreIndex}); whatever writes
 * do to an object, a GET by name and the writes addressing it see exactly what the API server holds.
 */
class IndexedLookupTest {
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
    void anObjectIsFoundAfterWritesThatChangeItsLabels() {
        client.pods().resource(Fixtures.pod("p", Map.of("stage", "one"))).create();
        client.pods()
                .withName("p")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"stage\":\"two\"}}}");
        client.pods()
                .withName("p")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"extra\":\"x\"}}}");

        Pod p = client.pods().withName("p").get();

        assertThat(p.getMetadata().getLabels()).containsEntry("stage", "two").containsEntry("extra", "x");
        assertThat(client.pods().withLabel("stage", "two").list().getItems()).hasSize(1);
        assertThat(client.pods().withLabel("stage", "one").list().getItems()).isEmpty();
    }

    @Test
    void aDeletedObjectIsGoneAndItsNameCanBeReused() {
        client.nodes().resource(Fixtures.node("n")).create();
        client.nodes().withName("n").delete();

        assertThat(client.nodes().withName("n").get()).isNull();
        client.nodes().resource(Fixtures.node("n")).create();
        assertThat(client.nodes().withName("n").get()).isNotNull();
    }

    @Test
    void theSameNameInTwoNamespacesIsTwoObjects() {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("other")
                        .endMetadata()
                        .build())
                .create();
        client.pods()
                .inNamespace("default")
                .resource(Fixtures.pod("twin", Map.of("home", "default")))
                .create();
        client.pods()
                .inNamespace("other")
                .resource(Fixtures.pod("twin", Map.of("home", "other")))
                .create();

        assertThat(client.pods()
                        .inNamespace("other")
                        .withName("twin")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry("home", "other");
        assertThat(client.pods()
                        .inNamespace("default")
                        .withName("twin")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry("home", "default");
        assertThat(client.pods().inNamespace("missing").withName("twin").get()).isNull();
    }

    @Test
    void aSelectorListCarriesAVersionThatAWatchCanStartFrom() {
        client.pods().resource(Fixtures.pod("a", Map.of("app", "x"))).create();
        client.pods().resource(Fixtures.pod("b", Map.of("app", "y"))).create();

        var list = client.pods().withLabel("app", "x").list();

        assertThat(list.getItems()).extracting(q -> q.getMetadata().getName()).containsExactly("a");
        long listed = Long.parseLong(list.getMetadata().getResourceVersion());
        long newest =
                Long.parseLong(client.pods().withName("b").get().getMetadata().getResourceVersion());
        assertThat(listed).isGreaterThanOrEqualTo(newest);
    }
}
