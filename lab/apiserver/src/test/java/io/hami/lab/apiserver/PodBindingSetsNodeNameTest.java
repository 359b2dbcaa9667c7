package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Binding a pod ({@code POST bindings} or {@code POST pods/{name}/binding}) sets its {@code spec.nodeName}, copies the
 * binding's annotations and marks it PodScheduled; binding a bound pod is 409 and binding a missing pod is 404.
 */
class PodBindingSetsNodeNameTest {

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

    private static Binding binding(String pod, String node) {
        return new BindingBuilder()
                .withNewMetadata()
                .withName(pod)
                .withNamespace("default")
                .withAnnotations(Map.of("hami.io/bind-phase", "allocating"))
                .endMetadata()
                .withNewTarget()
                .withKind("Node")
                .withApiVersion("v1")
                .withName(node)
                .endTarget()
                .build();
    }

    private static String subresource(String pod) {
        return server.url() + "/api/v1/namespaces/default/pods/" + pod + "/binding";
    }

    @Test
    void bindingsCollectionSetsNodeNameAndInformerSeesModified() throws InterruptedException {
        client.pods().resource(Fixtures.pod("collection")).create();
        RecordingHandler<Pod> events = new RecordingHandler<>();
        SharedIndexInformer<Pod> informer = client.pods().inNamespace("default").inform(events);
        try {
            events.await(e -> e.type().equals("ADDED") && e.name().equals("collection"));

            client.bindings()
                    .inNamespace("default")
                    .resource(binding("collection", "gpu-node-1"))
                    .create();

            var modified =
                    events.await(e -> e.type().equals("MODIFIED") && e.name().equals("collection"));
            assertThat(modified.object().getSpec().getNodeName()).isEqualTo("gpu-node-1");
        } finally {
            informer.close();
        }
        Pod stored = client.pods().withName("collection").get();
        assertThat(stored.getSpec().getNodeName()).isEqualTo("gpu-node-1");
        assertThat(stored.getMetadata().getAnnotations()).containsEntry("hami.io/bind-phase", "allocating");
        assertThat(stored.getStatus().getConditions())
                .anySatisfy(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("PodScheduled=True"));
    }

    @Test
    void podBindingSubresourceSetsNodeNameAndAnswersCreatedStatus() {
        client.pods().resource(Fixtures.pod("subresource")).create();

        String answer = client.raw(subresource("subresource"), "POST", binding("subresource", "gpu-node-2"));

        assertThat(answer).contains("\"status\":\"Success\"", "\"code\":201");
        assertThat(client.pods().withName("subresource").get().getSpec().getNodeName())
                .isEqualTo("gpu-node-2");
    }

    @Test
    void bindingABoundPodIsAConflictAndKeepsTheFirstNode() {
        client.pods().resource(Fixtures.pod("twice")).create();
        client.bindings()
                .inNamespace("default")
                .resource(binding("twice", "first"))
                .create();
        String version = client.pods().withName("twice").get().getMetadata().getResourceVersion();

        assertThatThrownBy(() -> client.bindings()
                        .inNamespace("default")
                        .resource(binding("twice", "second"))
                        .create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
                    assertThat(e.getStatus().getMessage()).contains("already assigned to node \"first\"");
                });
        Pod stored = client.pods().withName("twice").get();
        assertThat(stored.getSpec().getNodeName()).isEqualTo("first");
        assertThat(stored.getMetadata().getResourceVersion()).isEqualTo(version);
    }

    @Test
    void bindingAMissingPodIsNotFound() {
        assertThatThrownBy(() -> client.raw(subresource("ghost"), "POST", binding("ghost", "n")))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(e.getStatus().getReason()).isEqualTo("NotFound");
                });
        assertThat(client.pods().withName("ghost").get()).isNull();
    }

    @Test
    void subresourceNameMustMatchTheBindingName() {
        client.pods().resource(Fixtures.pod("mismatch")).create();

        assertThatThrownBy(() -> client.raw(subresource("mismatch"), "POST", binding("other", "n")))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(400));
        assertThat(client.pods().withName("mismatch").get().getSpec().getNodeName())
                .isNull();
    }

    @Test
    void concurrentBindingsOfOnePodBindItOnce() throws Exception {
        client.pods().resource(Fixtures.pod("raced")).create();
        int[] outcomes = new int[2];
        Thread[] threads = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int index = i;
            threads[i] = Thread.ofVirtual().start(() -> {
                try {
                    client.raw(subresource("raced"), "POST", binding("raced", "node-" + index));
                    outcomes[index] = 201;
                } catch (KubernetesClientException e) {
                    outcomes[index] = e.getCode();
                }
            });
        }
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(outcomes).containsExactlyInAnyOrder(201, 409);
        String winner = outcomes[0] == 201 ? "node-0" : "node-1";
        assertThat(client.pods().withName("raced").get().getSpec().getNodeName())
                .isEqualTo(winner);
    }
}
