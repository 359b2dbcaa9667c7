package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Optimistic concurrency: a write that names a {@code metadata.resourceVersion} other than the stored one fails with
 * 409 and a {@code Status} of reason Conflict; every successful write gets a new, larger resourceVersion.
 */
class MergePatchConflictTest {

    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private static EmbeddedApiServer server;
    private static KubernetesClient first;
    private static KubernetesClient second;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
        first = server.newClient();
        second = server.newClient();
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
        server.close();
    }

    private static String lockPatch(String resourceVersion, String holder) {
        return "{\"metadata\":{\"resourceVersion\":\"" + resourceVersion
                + "\",\"annotations\":{\"hami.io/mutex.lock\":\"" + holder + "\"}}}";
    }

    @Test
    void twoClientsWithTheSameResourceVersionExactlyOneWins() throws Exception {
        String version = first.nodes()
                .resource(Fixtures.node("contested"))
                .create()
                .getMetadata()
                .getResourceVersion();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Node>> attempts = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (KubernetesClient client : List.of(first, second)) {
                String holder = client == first ? "first" : "second";
                attempts.add(pool.submit(() -> {
                    go.await();
                    return client.nodes().withName("contested").patch(MERGE, lockPatch(version, holder));
                }));
            }
            go.countDown();
        }

        List<Node> winners = new ArrayList<>();
        List<KubernetesClientException> losers = new ArrayList<>();
        for (Future<Node> attempt : attempts) {
            try {
                winners.add(attempt.get());
            } catch (ExecutionException e) {
                losers.add((KubernetesClientException) e.getCause());
            }
        }
        assertThat(winners).hasSize(1);
        assertThat(losers).singleElement().satisfies(conflict -> {
            assertThat(conflict.getCode()).isEqualTo(409);
            assertThat(conflict.getStatus().getReason()).isEqualTo("Conflict");
            assertThat(conflict.getStatus().getMessage()).contains("the object has been modified");
        });
        String holder = winners.getFirst().getMetadata().getAnnotations().get("hami.io/mutex.lock");
        assertThat(first.nodes().withName("contested").get().getMetadata().getAnnotations())
                .containsEntry("hami.io/mutex.lock", holder);
    }

    @Test
    void aStaleResourceVersionIsRejectedAndChangesNothing() {
        Node created = first.nodes().resource(Fixtures.node("stale")).create();
        Node updated = first.nodes()
                .withName("stale")
                .patch(MERGE, lockPatch(created.getMetadata().getResourceVersion(), "fresh"));

        assertThatThrownBy(() -> second.nodes()
                        .withName("stale")
                        .patch(MERGE, lockPatch(created.getMetadata().getResourceVersion(), "late")))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(409));

        Node stored = first.nodes().withName("stale").get();
        assertThat(stored.getMetadata().getAnnotations()).containsEntry("hami.io/mutex.lock", "fresh");
        assertThat(stored.getMetadata().getResourceVersion())
                .isEqualTo(updated.getMetadata().getResourceVersion());
    }

    @Test
    void withoutAResourceVersionTheLastWriteWinsAndVersionsIncrease() {
        Node created = first.nodes().resource(Fixtures.node("unguarded")).create();
        Node a = first.nodes().withName("unguarded").patch(MERGE, "{\"metadata\":{\"labels\":{\"w\":\"a\"}}}");
        Node b = second.nodes().withName("unguarded").patch(MERGE, "{\"metadata\":{\"labels\":{\"w\":\"b\"}}}");

        assertThat(b.getMetadata().getLabels()).containsEntry("w", "b");
        assertThat(List.of(created, a, b))
                .extracting(n -> Long.parseLong(n.getMetadata().getResourceVersion()))
                .isSorted()
                .doesNotHaveDuplicates();
    }
}
