package io.hami.controlplane.differential;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ApiBehaviourContract} against {@code lab/apiserver}'s {@link EmbeddedApiServer}. What is overridden here is
 * a known difference from kube-apiserver, stated as the embedded server's behaviour and listed in
 * {@code lab/apiserver/README.md} ("Differences from kube-apiserver"); everything else behaves the same on both.
 */
class EmbeddedApiServerBehaviourTest extends ApiBehaviourContract {

    private final EmbeddedApiServer server = EmbeddedApiServer.start();
    private final KubernetesClient client = server.newClient();

    @Override
    protected KubernetesClient client() {
        return client;
    }

    @Override
    protected void prepareNamespace(String namespace) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .endMetadata()
                        .build())
                .create();
    }

    @AfterAll
    void stop() {
        client.close();
        server.close();
    }

    /** Difference: a pod is deleted in one step, without the write of its deletionTimestamp first (no MODIFIED). */
    @Override
    protected List<String> deletionEvents(String pod) {
        return List.of("DELETED " + pod);
    }

    /** Difference: a bound pod is deleted at once too; there is no graceful deletion waiting for a kubelet. */
    @Override
    protected void assertBoundPodAfterPlainDelete(Pod pod) {
        assertThat(pod).isNull();
    }

    /**
     * Difference: no watch history. A watch from a resourceVersion starts with ADDED for every selected object changed
     * since (in store order, whatever the change was), and a deletion since is not replayed.
     */
    @Override
    protected void assertHistoryReplayed(List<Seen<Pod>> seen) {
        assertThat(seen.subList(0, seen.size() - 1))
                .extracting(Seen::toString)
                .containsExactlyInAnyOrder("ADDED history-a", "ADDED history-b");
        assertThat(seen.getLast()).hasToString("ADDED history-end");
    }

    /** Difference: the status of a new pod is stored as given (the unit tests create pods Running this way). */
    @Override
    protected void assertCreatedStatus(Pod created) {
        assertThat(created.getStatus().getPhase()).isEqualTo("Running");
    }

    /**
     * Difference: a write to the pod itself (patch, update, edit) also writes its status. Unit tests rely on this to
     * set a node's allocatable or a pod's phase; against a real server they must use the status subresource.
     */
    @Override
    protected void assertMainResourceStatusPatch(Pod before, Pod after) {
        assertThat(after.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(version(after)).isGreaterThan(version(before));
    }

    /** Difference: no validation of pod updates; a patch may change any field of the spec, here its node. */
    @Override
    @Test
    void podSpecNodeNameCannotBePatched() {
        createPod(pod("spec-immutable", Map.of(), Map.of()));

        mergePatchPod("spec-immutable", "{\"spec\":{\"nodeName\":\"" + node("spec-immutable") + "\"}}");

        assertThat(getPod("spec-immutable").getSpec().getNodeName()).isEqualTo(node("spec-immutable"));
    }
}
