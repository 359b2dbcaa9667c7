package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Kubernetes applies {@code application/merge-patch+json} per RFC 7386: a {@code null} member deletes the key. */
class MergePatchNullDeletesKeyTest {

    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    @RegisterExtension
    static final ApiServer api = new ApiServer();

    private static Node lockedNode(String name) {
        Node node = Fixtures.node(name);
        node.getMetadata()
                .setAnnotations(Map.of(
                        "hami.io/mutex.lock",
                        "2026-08-01T06:00:00Z,ns,pod-a",
                        "hami.io/node-handshake",
                        "Requesting_2026-08-01 06:00:00"));
        return api.client().nodes().resource(node).create();
    }

    @Test
    void nullAnnotationIsRemovedAndSiblingsAreKept() {
        lockedNode("release");

        Node patched = api.client()
                .nodes()
                .withName("release")
                .patch(MERGE, "{\"metadata\":{\"annotations\":{\"hami.io/mutex.lock\":null}}}");

        assertThat(patched.getMetadata().getAnnotations())
                .doesNotContainKey("hami.io/mutex.lock")
                .containsEntry("hami.io/node-handshake", "Requesting_2026-08-01 06:00:00");
        String stored = api.client().raw(api.server().url() + "/api/v1/nodes/release");
        assertThat(stored).doesNotContain("mutex.lock");
    }

    @Test
    void nullDeletesAtAnyDepthAndWholeObjects() {
        lockedNode("deep");

        api.client()
                .nodes()
                .withName("deep")
                .patch(MERGE, "{\"metadata\":{\"annotations\":null},\"spec\":{\"podCIDR\":" + "\"10.0.0.0/24\"}}");
        api.client().nodes().withName("deep").patch(MERGE, "{\"spec\":{\"podCIDR\":null}}");

        Node stored = api.client().nodes().withName("deep").get();
        assertThat(stored.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(stored.getSpec().getPodCIDR()).isNull();
        assertThat(api.client().raw(api.server().url() + "/api/v1/nodes/deep"))
                .doesNotContain("annotations", "podCIDR");
    }

    @Test
    void nullForAMissingKeyChangesNothing() {
        Node created = lockedNode("absent");

        Node patched = api.client()
                .nodes()
                .withName("absent")
                .patch(MERGE, "{\"metadata\":{\"annotations\":{\"no-such-key\":null}}}");

        assertThat(patched.getMetadata().getAnnotations())
                .isEqualTo(created.getMetadata().getAnnotations());
        assertThat(patched.getMetadata().getResourceVersion())
                .isEqualTo(created.getMetadata().getResourceVersion());
    }

    @Test
    void deletionIsAWriteThatInformersSeeAsModified() throws InterruptedException {
        Node created = lockedNode("watched");
        RecordingHandler<Node> events = new RecordingHandler<>();
        SharedIndexInformer<Node> informer =
                api.client().nodes().withName("watched").inform(events);
        try {
            events.await(e -> e.type().equals("ADDED"));

            api.client()
                    .nodes()
                    .withName("watched")
                    .patch(MERGE, "{\"metadata\":{\"annotations\":{\"hami.io/mutex.lock\":null}}}");

            var modified = events.await(e -> e.type().equals("MODIFIED"));
            assertThat(modified.object().getMetadata().getAnnotations()).doesNotContainKey("hami.io/mutex.lock");
            assertThat(Long.parseLong(modified.object().getMetadata().getResourceVersion()))
                    .isGreaterThan(Long.parseLong(created.getMetadata().getResourceVersion()));
        } finally {
            informer.close();
        }
    }
}
