package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Binding a pod ({@code POST bindings} or {@code POST pods/{name}/binding}) sets its {@code spec.nodeName}, copies the
 * binding's annotations and marks it PodScheduled, once however many bind it at the same time. The errors (409 for a
 * bound pod, 404 for a missing one, 400 for a name that differs) are stated by {@code lab/control-plane}'s
 * {@code ApiBehaviourContract}, which runs on this server too.
 */
class PodBindingSetsNodeNameTest {

    @RegisterExtension
    static final ApiServer api = new ApiServer();

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
        return api.server().url() + "/api/v1/namespaces/default/pods/" + pod + "/binding";
    }

    @Test
    void bindingsCollectionSetsNodeNameAndInformerSeesModified() throws InterruptedException {
        api.client().pods().resource(Fixtures.pod("collection")).create();
        RecordingHandler<Pod> events = new RecordingHandler<>();
        SharedIndexInformer<Pod> informer =
                api.client().pods().inNamespace("default").inform(events);
        try {
            events.await(e -> e.type().equals("ADDED") && e.name().equals("collection"));

            api.client()
                    .bindings()
                    .inNamespace("default")
                    .resource(binding("collection", "gpu-node-1"))
                    .create();

            var modified =
                    events.await(e -> e.type().equals("MODIFIED") && e.name().equals("collection"));
            assertThat(modified.object().getSpec().getNodeName()).isEqualTo("gpu-node-1");
        } finally {
            informer.close();
        }
        Pod stored = api.client().pods().withName("collection").get();
        assertThat(stored.getSpec().getNodeName()).isEqualTo("gpu-node-1");
        assertThat(stored.getMetadata().getAnnotations()).containsEntry("hami.io/bind-phase", "allocating");
        assertThat(stored.getStatus().getConditions())
                .anySatisfy(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("PodScheduled=True"));
    }

    @Test
    void podBindingSubresourceSetsNodeNameAndAnswersCreatedStatus() {
        api.client().pods().resource(Fixtures.pod("subresource")).create();

        String answer = api.client().raw(subresource("subresource"), "POST", binding("subresource", "gpu-node-2"));

        assertThat(answer).contains("\"status\":\"Success\"", "\"code\":201");
        assertThat(api.client().pods().withName("subresource").get().getSpec().getNodeName())
                .isEqualTo("gpu-node-2");
    }

    @Test
    void concurrentBindingsOfOnePodBindItOnce() throws Exception {
        api.client().pods().resource(Fixtures.pod("raced")).create();
        int[] outcomes = new int[2];
        Thread[] threads = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int index = i;
            threads[i] = Thread.ofVirtual().start(() -> {
                try {
                    api.client().raw(subresource("raced"), "POST", binding("raced", "node-" + index));
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
        assertThat(api.client().pods().withName("raced").get().getSpec().getNodeName())
                .isEqualTo(winner);
    }
}
