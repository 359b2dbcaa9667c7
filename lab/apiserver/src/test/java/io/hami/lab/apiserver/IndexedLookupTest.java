package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Objects are found by name through an index rather than a scan of the store ({@link StoreIndex}); whatever writes
 * do to an object, a GET by name and the writes addressing it see exactly what the API server holds.
 */
class IndexedLookupTest {
    @RegisterExtension
    final ApiServer api = new ApiServer();

    @Test
    void anObjectIsFoundAfterWritesThatChangeItsLabels() {
        api.client().pods().resource(Fixtures.pod("p", Map.of("stage", "one"))).create();
        api.client()
                .pods()
                .withName("p")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"stage\":\"two\"}}}");
        api.client()
                .pods()
                .withName("p")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"extra\":\"x\"}}}");

        Pod p = api.client().pods().withName("p").get();

        assertThat(p.getMetadata().getLabels()).containsEntry("stage", "two").containsEntry("extra", "x");
        assertThat(api.client().pods().withLabel("stage", "two").list().getItems())
                .hasSize(1);
        assertThat(api.client().pods().withLabel("stage", "one").list().getItems())
                .isEmpty();
    }

    @Test
    void aDeletedObjectIsGoneAndItsNameCanBeReused() {
        api.client().nodes().resource(Fixtures.node("n")).create();
        api.client().nodes().withName("n").delete();

        assertThat(api.client().nodes().withName("n").get()).isNull();
        api.client().nodes().resource(Fixtures.node("n")).create();
        assertThat(api.client().nodes().withName("n").get()).isNotNull();
    }

    @Test
    void theSameNameInTwoNamespacesIsTwoObjects() {
        api.client().namespaces().resource(Fixtures.namespace("other")).create();
        api.client()
                .pods()
                .inNamespace("default")
                .resource(Fixtures.pod("twin", Map.of("home", "default")))
                .create();
        api.client()
                .pods()
                .inNamespace("other")
                .resource(Fixtures.pod("twin", Map.of("home", "other")))
                .create();

        assertThat(api.client()
                        .pods()
                        .inNamespace("other")
                        .withName("twin")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry("home", "other");
        assertThat(api.client()
                        .pods()
                        .inNamespace("default")
                        .withName("twin")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry("home", "default");
        assertThat(api.client().pods().inNamespace("missing").withName("twin").get())
                .isNull();
    }

    @Test
    void aSelectorListCarriesAVersionThatAWatchCanStartFrom() {
        api.client().pods().resource(Fixtures.pod("a", Map.of("app", "x"))).create();
        api.client().pods().resource(Fixtures.pod("b", Map.of("app", "y"))).create();

        var list = api.client().pods().withLabel("app", "x").list();

        assertThat(list.getItems()).extracting(q -> q.getMetadata().getName()).containsExactly("a");
        long listed = Long.parseLong(list.getMetadata().getResourceVersion());
        long newest = Long.parseLong(
                api.client().pods().withName("b").get().getMetadata().getResourceVersion());
        assertThat(listed).isGreaterThanOrEqualTo(newest);
    }
}
