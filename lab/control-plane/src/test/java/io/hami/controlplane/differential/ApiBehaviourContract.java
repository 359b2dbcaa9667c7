package io.hami.controlplane.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.hami.protocol.testing.PatientTimeout;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The API behaviours hami-java relies on, stated once and run against every server a subclass provides: the embedded
 * API server the unit tests use ({@code EmbeddedApiServerBehaviourTest}) and a real kube-apiserver
 * ({@code KubeApiServerBehaviourTest}). A difference between the two is either fixed in {@code lab/apiserver} or
 * stated by the embedded subclass, which overrides the test with the embedded behaviour and a comment, and listed in
 * {@code lab/apiserver/README.md} ("Differences from kube-apiserver").
 *
 * <p>Every test works in the class's own namespace with its own names; cluster-scoped objects (nodes) carry the run's
 * suffix, so the suite can share a control plane with other classes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@PatientTimeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class ApiBehaviourContract {

    /** How long a watch event may take to arrive. */
    protected static final Duration EVENT_WAIT = Duration.ofSeconds(10);

    /** An administrator's client of the server under test. */
    protected abstract KubernetesClient client();

    /** Makes {@code namespace} ready for pods (on a real server: the namespace and its default ServiceAccount). */
    protected abstract void prepareNamespace(String namespace);

    /** Unique per test class run: nodes are cluster-scoped, and the real server may be shared with other classes. */
    protected final String run = UUID.randomUUID().toString().substring(0, 8);

    protected String ns;

    @BeforeAll
    void namespace() {
        ns = "diff-" + run;
        prepareNamespace(ns);
    }

    // ---------------------------------------------------------------- JSON merge patch (RFC 7386)

    @Test
    void mergePatchNullDeletesAnnotationAndWholeLabelMap() {
        createPod(pod("merge-null", Map.of("app", "x"), Map.of("a", "1", "b", "2")));

        Pod patched = mergePatchPod(
                "merge-null",
                "{\"metadata\":{\"annotations\":{\"a\":null,\"c\":\"3\",\"missing\":null},\"labels\":null}}");

        assertThat(patched.getMetadata().getAnnotations()).isEqualTo(Map.of("b", "2", "c", "3"));
        assertThat(patched.getMetadata().getLabels()).isNullOrEmpty();
        assertThat(getPod("merge-null").getMetadata().getAnnotations()).isEqualTo(Map.of("b", "2", "c", "3"));
    }

    @Test
    void mergePatchNullDeletesNodeSpecFields() {
        String name = node("merge-spec");
        client().nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .withUnschedulable(true)
                        .addNewTaint()
                        .withKey("hami.io/t")
                        .withValue("v")
                        .withEffect("NoSchedule")
                        .endTaint()
                        .endSpec()
                        .build())
                .create();

        client().nodes()
                .withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":null,\"taints\":null}}");

        Node stored = client().nodes().withName(name).get();
        assertThat(stored.getSpec().getUnschedulable()).isNull();
        assertThat(stored.getSpec().getTaints()).isNullOrEmpty();
    }

    @Test
    void mergePatchThatChangesNothingKeepsTheResourceVersion() {
        Pod pod = createPod(pod("merge-noop", Map.of(), Map.of("hami.io/bind-phase", "allocating")));
        String nodeName = node("merge-noop");
        Node node = client().nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(nodeName)
                        .withAnnotations(Map.of("hami.io/node-handshake", "Requesting_2024.01.01 00:00:00"))
                        .endMetadata()
                        .build())
                .create();

        Pod samePod = mergePatchPod(
                "merge-noop",
                "{\"metadata\":{\"annotations\":{\"hami.io/bind-phase\":\"allocating\",\"absent\":null}}}");
        Node sameNode = client().nodes()
                .withName(nodeName)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"hami.io/node-handshake\":\"Requesting_2024.01.01 00:00:00\"}}}");

        assertThat(samePod.getMetadata().getResourceVersion())
                .isEqualTo(pod.getMetadata().getResourceVersion());
        assertThat(sameNode.getMetadata().getResourceVersion())
                .isEqualTo(node.getMetadata().getResourceVersion());
        assertThat(getPod("merge-noop").getMetadata().getResourceVersion())
                .isEqualTo(pod.getMetadata().getResourceVersion());
    }

    // ---------------------------------------------------------------- JSON patch (RFC 6902)

    @Test
    void jsonPatchAddsAndRemovesAnnotationsWithEscapedSlashes() {
        createPod(pod("json-escape", Map.of(), Map.of("hami.io/keep", "k", "hami.io/drop", "d")));

        jsonPatchPod(
                "json-escape",
                "[{\"op\":\"add\",\"path\":\"/metadata/annotations/hami.io~1vgpu-node\",\"value\":\"n1\"},"
                        + "{\"op\":\"remove\",\"path\":\"/metadata/annotations/hami.io~1drop\"}]");

        assertThat(getPod("json-escape").getMetadata().getAnnotations())
                .isEqualTo(Map.of("hami.io/keep", "k", "hami.io/vgpu-node", "n1"));
    }

    @Test
    void jsonPatchWithAPassingTestApplies() {
        createPod(pod("json-test-ok", Map.of("lock", "free"), Map.of()));

        jsonPatchPod(
                "json-test-ok",
                "[{\"op\":\"test\",\"path\":\"/metadata/labels/lock\",\"value\":\"free\"},"
                        + "{\"op\":\"replace\",\"path\":\"/metadata/labels/lock\",\"value\":\"mine\"}]");

        assertThat(getPod("json-test-ok").getMetadata().getLabels()).isEqualTo(Map.of("lock", "mine"));
    }

    @Test
    void jsonPatchWithAFailingTestIsInvalidAndChangesNothing() {
        Pod pod = createPod(pod("json-test-fail", Map.of("lock", "held"), Map.of()));

        KubernetesClientException e = failure(() -> jsonPatchPod(
                "json-test-fail",
                "[{\"op\":\"test\",\"path\":\"/metadata/labels/lock\",\"value\":\"free\"},"
                        + "{\"op\":\"replace\",\"path\":\"/metadata/labels/lock\",\"value\":\"mine\"}]"));

        assertThat(e.getCode()).isEqualTo(422);
        assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
        Pod stored = getPod("json-test-fail");
        assertThat(stored.getMetadata().getLabels()).isEqualTo(Map.of("lock", "held"));
        assertThat(stored.getMetadata().getResourceVersion())
                .isEqualTo(pod.getMetadata().getResourceVersion());
    }

    @Test
    void jsonPatchRemovingAMissingKeyIsInvalid() {
        createPod(pod("json-remove-missing", Map.of(), Map.of("a", "1")));

        KubernetesClientException e = failure(() -> jsonPatchPod(
                "json-remove-missing", "[{\"op\":\"remove\",\"path\":\"/metadata/annotations/hami.io~1absent\"}]"));

        assertThat(e.getCode()).isEqualTo(422);
        assertThat(getPod("json-remove-missing").getMetadata().getAnnotations()).isEqualTo(Map.of("a", "1"));
    }

    /** A pod without annotations has no {@code /metadata/annotations} to add a key under: add the map first. */
    @Test
    void jsonPatchAddingUnderAMissingParentIsInvalid() {
        createPod(pod("json-no-parent", Map.of(), Map.of()));

        KubernetesClientException e = failure(() -> jsonPatchPod(
                "json-no-parent",
                "[{\"op\":\"add\",\"path\":\"/metadata/annotations/hami.io~1vgpu-node\",\"value\":\"n1\"}]"));
        jsonPatchPod(
                "json-no-parent",
                "[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{}},"
                        + "{\"op\":\"add\",\"path\":\"/metadata/annotations/hami.io~1vgpu-node\",\"value\":\"n1\"}]");

        assertThat(e.getCode()).isEqualTo(422);
        assertThat(getPod("json-no-parent").getMetadata().getAnnotations())
                .isEqualTo(Map.of("hami.io/vgpu-node", "n1"));
    }

    // ---------------------------------------------------------------- pods/binding

    @Test
    void bindingSubresourceSetsNodeNameConditionAndAnnotations() {
        Pod pod = createPod(pod("bind-sub", Map.of(), Map.of("kept", "yes")));
        String node = node("bind-sub");

        String answer = client().raw(
                        url("/api/v1/namespaces/" + ns + "/pods/bind-sub/binding"),
                        "POST",
                        binding("bind-sub", node, null, Map.of("hami.io/bind-phase", "allocating")));

        assertThat(answer).contains("\"status\":\"Success\"");
        Pod bound = getPod("bind-sub");
        assertThat(bound.getSpec().getNodeName()).isEqualTo(node);
        assertThat(bound.getMetadata().getAnnotations())
                .isEqualTo(Map.of("kept", "yes", "hami.io/bind-phase", "allocating"));
        assertThat(bound.getStatus().getConditions())
                .filteredOn(c -> c.getType().equals("PodScheduled"))
                .singleElement()
                .extracting(PodCondition::getStatus)
                .isEqualTo("True");
        assertThat(version(bound)).isGreaterThan(version(pod));
    }

    @Test
    void bindingsCollectionWithTheScheduledUidBindsThePod() {
        Pod pod = createPod(pod("bind-collection", Map.of(), Map.of()));
        String node = node("bind-collection");

        // What the scheduler's Binder posts: the pod's uid as a precondition.
        client().bindings()
                .inNamespace(ns)
                .resource(binding("bind-collection", node, pod.getMetadata().getUid(), Map.of()))
                .create();

        assertThat(getPod("bind-collection").getSpec().getNodeName()).isEqualTo(node);
    }

    /**
     * The API server does not check a Binding's {@code metadata.uid} against the pod's: a pod deleted and created
     * again under the same name is bound all the same. The scheduler's Binder compares the uid itself before binding.
     */
    @Test
    void bindingIgnoresTheUidOfTheBinding() {
        createPod(pod("bind-uid", Map.of(), Map.of()));
        String node = node("bind-uid");

        client().bindings()
                .inNamespace(ns)
                .resource(binding("bind-uid", node, UUID.randomUUID().toString(), Map.of()))
                .create();

        assertThat(getPod("bind-uid").getSpec().getNodeName()).isEqualTo(node);
    }

    @Test
    void bindingABoundPodIsAConflictAndKeepsTheFirstNode() {
        createPod(pod("bind-twice", Map.of(), Map.of()));
        String first = node("bind-first");
        client().bindings()
                .inNamespace(ns)
                .resource(binding("bind-twice", first, null, Map.of()))
                .create();
        String version = getPod("bind-twice").getMetadata().getResourceVersion();

        KubernetesClientException e = failure(() -> client().raw(
                        url("/api/v1/namespaces/" + ns + "/pods/bind-twice/binding"),
                        "POST",
                        binding("bind-twice", node("bind-second"), null, Map.of())));

        assertThat(e.getCode()).isEqualTo(409);
        assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
        assertThat(e.getStatus().getMessage()).contains("already assigned to node \"" + first + "\"");
        Pod stored = getPod("bind-twice");
        assertThat(stored.getSpec().getNodeName()).isEqualTo(first);
        assertThat(stored.getMetadata().getResourceVersion()).isEqualTo(version);
    }

    @Test
    void bindingAMissingPodIsNotFound() {
        KubernetesClientException e = failure(() -> client().raw(
                        url("/api/v1/namespaces/" + ns + "/pods/bind-ghost/binding"),
                        "POST",
                        binding("bind-ghost", node("bind-ghost"), null, Map.of())));

        assertThat(e.getCode()).isEqualTo(404);
        assertThat(e.getStatus().getReason()).isEqualTo("NotFound");
        assertThat(getPod("bind-ghost")).isNull();
    }

    @Test
    void bindingSubresourceNameMustMatchTheBinding() {
        createPod(pod("bind-mismatch", Map.of(), Map.of()));

        KubernetesClientException e = failure(() -> client().raw(
                        url("/api/v1/namespaces/" + ns + "/pods/bind-mismatch/binding"),
                        "POST",
                        binding("bind-other", node("bind-mismatch"), null, Map.of())));

        assertThat(e.getCode()).isEqualTo(400);
        assertThat(e.getStatus().getReason()).isEqualTo("BadRequest");
        assertThat(getPod("bind-mismatch").getSpec().getNodeName()).isNullOrEmpty();
    }

    // ---------------------------------------------------------------- field selectors

    @Test
    void fieldSelectorsOnPods() {
        String nodeA = node("field-a");
        String nodeB = node("field-b");
        createPod(boundPod("field-a1", nodeA));
        createPod(boundPod("field-a2", nodeA));
        createPod(boundPod("field-b1", nodeB));
        createPod(pod("field-free", Map.of("case", "field"), Map.of()));
        setPhase("field-a1", "Running");
        setPhase("field-b1", "Running");
        var pods = client().pods().inNamespace(ns);

        // What the scheduler's Binder and the plugins ask: every pod of one node, across namespaces.
        assertThat(names(client().pods()
                        .inAnyNamespace()
                        .withField("spec.nodeName", nodeA)
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("field-a1", "field-a2");
        assertThat(names(pods.withLabel("case", "field")
                        .withField("spec.nodeName", "")
                        .list()
                        .getItems()))
                .containsExactly("field-free");
        assertThat(names(pods.withLabel("case", "field")
                        .withoutField("spec.nodeName", nodeA)
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("field-b1", "field-free");
        assertThat(names(pods.withLabel("case", "field")
                        .withField("status.phase", "Running")
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("field-a1", "field-b1");
        assertThat(names(pods.withFields(Map.of("spec.nodeName", nodeA, "status.phase", "Running"))
                        .list()
                        .getItems()))
                .containsExactly("field-a1");
        assertThat(names(pods.withField("metadata.name", "field-b1").list().getItems()))
                .containsExactly("field-b1");
        // The query as written on the wire: '==', '!=' and commas.
        assertThat(names(pods.list(new ListOptionsBuilder()
                                .withLabelSelector("case=field")
                                .withFieldSelector(
                                        "metadata.name!=field-b1,metadata.name!=field-free,status.phase==Running")
                                .build())
                        .getItems()))
                .containsExactly("field-a1");
    }

    @Test
    void fieldSelectorOnNodes() {
        String cordoned = node("field-cordoned");
        client().nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(cordoned)
                        .endMetadata()
                        .withNewSpec()
                        .withUnschedulable(true)
                        .endSpec()
                        .build())
                .create();

        assertThat(names(client().nodes()
                        .withField("metadata.name", cordoned)
                        .list()
                        .getItems()))
                .containsExactly(cordoned);
        assertThat(names(client().nodes()
                        .withField("spec.unschedulable", "true")
                        .list()
                        .getItems()))
                .contains(cordoned);
        assertThat(names(client().nodes()
                        .withField("spec.unschedulable", "false")
                        .list()
                        .getItems()))
                .doesNotContain(cordoned);
    }

    @Test
    void unsupportedFieldSelectorIsBadRequest() {
        KubernetesClientException e = failure(() ->
                client().pods().inNamespace(ns).withField("spec.priority", "1").list());

        assertThat(e.getCode()).isEqualTo(400);
        assertThat(e.getStatus().getReason()).isEqualTo("BadRequest");
        assertThat(e.getStatus().getMessage()).contains("field label not supported: spec.priority");
    }

    // ---------------------------------------------------------------- label selectors

    @Test
    void labelSelectorsEqualityAndSetBased() {
        createPod(pod("label-1", Map.of("case", "label", "tier", "gpu", "vendor", "nvidia"), Map.of()));
        createPod(pod("label-2", Map.of("case", "label", "tier", "gpu", "vendor", "amd"), Map.of()));
        createPod(pod("label-3", Map.of("case", "label", "tier", "cpu"), Map.of()));
        createPod(pod("label-4", Map.of("case", "label"), Map.of()));
        var pods = client().pods().inNamespace(ns);

        assertThat(select("case=label,tier=gpu")).containsExactlyInAnyOrder("label-1", "label-2");
        assertThat(select("case==label,tier==gpu")).containsExactlyInAnyOrder("label-1", "label-2");
        assertThat(select("case=label,vendor!=nvidia")).containsExactlyInAnyOrder("label-2", "label-3", "label-4");
        assertThat(select("case=label,vendor in (nvidia,amd)")).containsExactlyInAnyOrder("label-1", "label-2");
        assertThat(select("case=label,vendor notin (nvidia)"))
                .containsExactlyInAnyOrder("label-2", "label-3", "label-4");
        assertThat(select("case=label,vendor")).containsExactlyInAnyOrder("label-1", "label-2");
        assertThat(select("case=label,!vendor")).containsExactlyInAnyOrder("label-3", "label-4");
        assertThat(select("case=label,tier in (gpu),vendor notin (amd)")).containsExactly("label-1");
        // fabric8's builders, as the project calls them
        assertThat(names(pods.withLabel("case", "label")
                        .withLabel("vendor", "amd")
                        .list()
                        .getItems()))
                .containsExactly("label-2");
        assertThat(names(pods.withLabel("case", "label")
                        .withLabelIn("tier", "cpu", "tpu")
                        .list()
                        .getItems()))
                .containsExactly("label-3");
        assertThat(names(pods.withLabel("case", "label")
                        .withLabelNotIn("tier", "gpu")
                        .list()
                        .getItems()))
                .containsExactlyInAnyOrder("label-3", "label-4");
        assertThat(names(pods.withLabel("case", "label")
                        .withoutLabel("tier")
                        .list()
                        .getItems()))
                .containsExactly("label-4");
    }

    @Test
    void malformedLabelSelectorIsBadRequest() {
        KubernetesClientException e = failure(() -> client().pods()
                .inNamespace(ns)
                .withLabelSelector("tier in (gpu")
                .list());

        assertThat(e.getCode()).isEqualTo(400);
        assertThat(e.getStatus().getReason()).isEqualTo("BadRequest");
    }

    // ---------------------------------------------------------------- watches

    @Test
    void watchSeesAddedModifiedDeletedInOrder() {
        var events = new Recorder<Pod>();
        Watch watch =
                client().pods().inNamespace(ns).withLabel("case", "watch-order").watch(events);
        try {
            Pod created = createPod(pod("watch-order", Map.of("case", "watch-order"), Map.of()));
            Pod patched = mergePatchPod("watch-order", "{\"metadata\":{\"annotations\":{\"step\":\"2\"}}}");
            client().pods().inNamespace(ns).withName("watch-order").delete();
            createPod(pod("watch-order-end", Map.of("case", "watch-order"), Map.of()));

            List<Seen<Pod>> seen = events.until(e -> e.is("ADDED", "watch-order-end"));

            assertThat(seen)
                    .extracting(Seen::toString)
                    .containsExactlyElementsOf(concat(
                            List.of("ADDED watch-order", "MODIFIED watch-order"),
                            deletionEvents("watch-order"),
                            List.of("ADDED watch-order-end")));
            assertThat(seen.get(0).object().getMetadata().getResourceVersion())
                    .isEqualTo(created.getMetadata().getResourceVersion());
            assertThat(seen.get(1).object().getMetadata().getResourceVersion())
                    .isEqualTo(patched.getMetadata().getResourceVersion());
            assertThat(seen.get(1).object().getMetadata().getAnnotations()).containsEntry("step", "2");
            // The deletion is a write of its own: DELETED carries a newer resourceVersion than the last change.
            assertThat(version(seen.get(seen.size() - 2).object())).isGreaterThan(version(patched));
            seen.subList(2, seen.size() - 1).stream()
                    .filter(e -> e.type().equals("MODIFIED"))
                    .forEach(e -> {
                        assertThat(e.object().getMetadata().getDeletionTimestamp())
                                .isNotNull();
                        assertThat(e.object().getMetadata().getDeletionGracePeriodSeconds())
                                .isZero();
                    });
        } finally {
            watch.close();
        }
    }

    @Test
    void labelSelectedWatchSeesObjectsEnterAsAddedAndLeaveAsDeleted() {
        createPod(pod("watch-enter", Map.of("case", "watch-enter-other"), Map.of()));
        var events = new Recorder<Pod>();
        Watch watch =
                client().pods().inNamespace(ns).withLabel("selected", "yes").watch(events);
        try {
            mergePatchPod("watch-enter", "{\"metadata\":{\"annotations\":{\"unseen\":\"1\"}}}");
            Pod entered = mergePatchPod("watch-enter", "{\"metadata\":{\"labels\":{\"selected\":\"yes\"}}}");
            Pod modified = mergePatchPod("watch-enter", "{\"metadata\":{\"annotations\":{\"seen\":\"1\"}}}");
            Pod left = mergePatchPod("watch-enter", "{\"metadata\":{\"labels\":{\"selected\":\"no\"}}}");
            mergePatchPod("watch-enter", "{\"metadata\":{\"annotations\":{\"unseen\":\"2\"}}}");
            createPod(pod("watch-enter-end", Map.of("selected", "yes"), Map.of()));

            List<Seen<Pod>> seen = events.until(e -> e.is("ADDED", "watch-enter-end"));

            assertThat(seen)
                    .extracting(Seen::toString)
                    .containsExactly(
                            "ADDED watch-enter",
                            "MODIFIED watch-enter",
                            "DELETED watch-enter",
                            "ADDED watch-enter-end");
            assertThat(version(seen.get(0).object())).isEqualTo(version(entered));
            assertThat(version(seen.get(1).object())).isEqualTo(version(modified));
            // Leaving the selection: the last state that matched, at the version of the write that made it leave.
            assertThat(seen.get(2).object().getMetadata().getLabels()).containsEntry("selected", "yes");
            assertThat(seen.get(2).object().getMetadata().getAnnotations()).containsEntry("seen", "1");
            assertThat(version(seen.get(2).object())).isEqualTo(version(left));
        } finally {
            watch.close();
        }
    }

    @Test
    void fieldSelectedWatchSeesABoundPodAsAdded() {
        String node = node("watch-node");
        createPod(pod("watch-bind", Map.of(), Map.of()));
        // What the simulated kubelet watches: the pods of its node, across namespaces.
        var events = new Recorder<Pod>();
        Watch watch = client().pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .watch(events);
        try {
            client().bindings()
                    .inNamespace(ns)
                    .resource(binding("watch-bind", node, null, Map.of()))
                    .create();
            client().pods()
                    .inNamespace(ns)
                    .withName("watch-bind")
                    .withGracePeriod(0)
                    .delete();
            createPod(boundPod("watch-bind-end", node));

            List<Seen<Pod>> seen = events.until(e -> e.is("ADDED", "watch-bind-end"));

            assertThat(seen)
                    .extracting(Seen::toString)
                    .containsExactlyElementsOf(concat(
                            List.of("ADDED watch-bind"),
                            deletionEvents("watch-bind"),
                            List.of("ADDED watch-bind-end")));
            assertThat(seen.get(0).object().getSpec().getNodeName()).isEqualTo(node);
        } finally {
            watch.close();
        }
    }

    /**
     * An informer lists, then watches from the list's resourceVersion: it must get exactly the changes after the
     * list, in order, as the kind of change each was.
     */
    @Test
    void watchFromAListResourceVersionReplaysTheChangesSinceInOrder() {
        createPod(pod("history-a", Map.of("case", "history"), Map.of()));
        createPod(pod("history-c", Map.of("case", "history"), Map.of()));
        String listed = client().pods()
                .inNamespace(ns)
                .withLabel("case", "history")
                .list()
                .getMetadata()
                .getResourceVersion();
        createPod(pod("history-b", Map.of("case", "history"), Map.of()));
        mergePatchPod("history-a", "{\"metadata\":{\"annotations\":{\"after\":\"list\"}}}");
        client().pods().inNamespace(ns).withName("history-c").delete();

        var events = new Recorder<Pod>();
        Watch watch = client().pods()
                .inNamespace(ns)
                .withLabel("case", "history")
                .watch(new ListOptionsBuilder().withResourceVersion(listed).build(), events);
        try {
            createPod(pod("history-end", Map.of("case", "history"), Map.of()));

            List<Seen<Pod>> seen = events.until(e -> e.is("ADDED", "history-end"));

            assertHistoryReplayed(seen);
        } finally {
            watch.close();
        }
    }

    protected void assertHistoryReplayed(List<Seen<Pod>> seen) {
        assertThat(seen)
                .extracting(Seen::toString)
                .containsExactlyElementsOf(concat(
                        List.of("ADDED history-b", "MODIFIED history-a"),
                        deletionEvents("history-c"),
                        List.of("ADDED history-end")));
    }

    /**
     * What a watcher sees when a pod is deleted (unbound, or with grace period 0): the API server first writes the
     * deletion (deletionTimestamp, deletionGracePeriodSeconds 0), then removes the pod.
     */
    protected List<String> deletionEvents(String pod) {
        return List.of("MODIFIED " + pod, "DELETED " + pod);
    }

    protected static List<String> concat(List<String> first, List<String> second, List<String> third) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        all.addAll(third);
        return all;
    }

    // ---------------------------------------------------------------- resourceVersion and conflicts

    @Test
    void updateWithAStaleResourceVersionIsAConflict() {
        Pod stale = createPod(pod("rv-update", Map.of(), Map.of("v", "1")));
        mergePatchPod("rv-update", "{\"metadata\":{\"annotations\":{\"v\":\"2\"}}}");
        stale.getMetadata().getAnnotations().put("v", "3");

        KubernetesClientException e =
                failure(() -> client().pods().inNamespace(ns).resource(stale).update());

        assertThat(e.getCode()).isEqualTo(409);
        assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
        assertThat(getPod("rv-update").getMetadata().getAnnotations()).containsEntry("v", "2");
    }

    @Test
    void mergePatchWithAStaleResourceVersionIsAConflict() {
        String name = node("rv-patch");
        Node node = client().nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withAnnotations(Map.of("hami.io/mutex.lock", ""))
                        .endMetadata()
                        .build())
                .create();
        String stale = node.getMetadata().getResourceVersion();
        // The node lock's compare-and-swap: a merge patch carrying the version it read.
        Node taken = client().nodes()
                .withName(name)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"resourceVersion\":\"" + stale
                                + "\",\"annotations\":{\"hami.io/mutex.lock\":\"first\"}}}");

        KubernetesClientException e = failure(() -> client().nodes()
                .withName(name)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"resourceVersion\":\"" + stale
                                + "\",\"annotations\":{\"hami.io/mutex.lock\":\"second\"}}}"));

        assertThat(version(taken)).isGreaterThan(version(node));
        assertThat(e.getCode()).isEqualTo(409);
        assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
        assertThat(e.getStatus().getMessage()).contains("the object has been modified");
        Node stored = client().nodes().withName(name).get();
        assertThat(stored.getMetadata().getAnnotations()).containsEntry("hami.io/mutex.lock", "first");
        assertThat(stored.getMetadata().getResourceVersion())
                .isEqualTo(taken.getMetadata().getResourceVersion());
    }

    @Test
    void resourceVersionGrowsOnEveryWrite() {
        List<Long> versions = new ArrayList<>();
        Pod pod = createPod(pod("rv-grows", Map.of(), Map.of()));
        versions.add(version(pod));
        versions.add(version(mergePatchPod("rv-grows", "{\"metadata\":{\"annotations\":{\"a\":\"1\"}}}")));
        versions.add(version(
                jsonPatchPod("rv-grows", "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"b\":\"2\"}}]")));
        Pod current = getPod("rv-grows");
        current.getMetadata().getAnnotations().put("a", "put");
        versions.add(version(client().pods().inNamespace(ns).resource(current).update()));
        versions.add(version(client().pods()
                .inNamespace(ns)
                .withName("rv-grows")
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"message\":\"hello\"}}")));
        client().bindings()
                .inNamespace(ns)
                .resource(binding("rv-grows", node("rv-grows"), null, Map.of()))
                .create();
        versions.add(version(getPod("rv-grows")));

        assertThat(versions).doesNotHaveDuplicates().isSorted();
    }

    @Test
    void creatingAnExistingObjectIsAlreadyExists() {
        createPod(pod("exists", Map.of(), Map.of()));

        KubernetesClientException e = failure(() -> createPod(pod("exists", Map.of(), Map.of())));

        assertThat(e.getCode()).isEqualTo(409);
        assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists");
    }

    @Test
    void patchingAMissingObjectIsNotFound() {
        KubernetesClientException e =
                failure(() -> mergePatchPod("patch-ghost", "{\"metadata\":{\"annotations\":{\"a\":\"1\"}}}"));

        assertThat(e.getCode()).isEqualTo(404);
        assertThat(e.getStatus().getReason()).isEqualTo("NotFound");
        assertThat(getPod("patch-ghost")).isNull();
    }

    // ---------------------------------------------------------------- status and deletion

    /** Pod status is the kubelet's: only the status subresource writes it. */
    @Test
    void podStatusChangesOnlyThroughTheStatusSubresource() {
        Pod created = createPod(new PodBuilder(pod("status-only", Map.of(), Map.of()))
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build());
        assertCreatedStatus(created);

        Pod ignored = mergePatchPod("status-only", "{\"status\":{\"phase\":\"Failed\"}}");
        assertMainResourceStatusPatch(created, ignored);

        Pod written = client().pods()
                .inNamespace(ns)
                .withName("status-only")
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"phase\":\"Succeeded\"}}");
        assertThat(written.getStatus().getPhase()).isEqualTo("Succeeded");
        assertThat(version(written)).isGreaterThan(version(ignored));
        assertThat(getPod("status-only").getStatus().getPhase()).isEqualTo("Succeeded");
    }

    /** The API server ignores the status of a new pod: it starts Pending. */
    protected void assertCreatedStatus(Pod created) {
        assertThat(created.getStatus().getPhase()).isEqualTo("Pending");
    }

    /** A merge patch of the pod itself leaves its status as it was; changing nothing else, it is no write. */
    protected void assertMainResourceStatusPatch(Pod before, Pod after) {
        assertThat(after.getStatus().getPhase()).isEqualTo(before.getStatus().getPhase());
        assertThat(after.getMetadata().getResourceVersion())
                .isEqualTo(before.getMetadata().getResourceVersion());
    }

    /** A pod's spec is immutable but for a few fields (images, tolerations, ...): only a binding sets its node. */
    @Test
    void podSpecNodeNameCannotBePatched() {
        Pod pod = createPod(pod("spec-immutable", Map.of(), Map.of()));

        KubernetesClientException e = failure(
                () -> mergePatchPod("spec-immutable", "{\"spec\":{\"nodeName\":\"" + node("spec-immutable") + "\"}}"));

        assertThat(e.getCode()).isEqualTo(422);
        assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
        Pod stored = getPod("spec-immutable");
        assertThat(stored.getSpec().getNodeName()).isNullOrEmpty();
        assertThat(stored.getMetadata().getResourceVersion())
                .isEqualTo(pod.getMetadata().getResourceVersion());
    }

    @Test
    void nodeStatusIsKeptOnCreateAndWrittenThroughTheStatusSubresource() {
        String name = node("status-node");
        client().nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewStatus()
                        .addToCapacity("nvidia.com/gpu", new Quantity("4"))
                        .endStatus()
                        .build())
                .create();
        assertThat(client().nodes().withName(name).get().getStatus().getCapacity())
                .containsEntry("nvidia.com/gpu", new Quantity("4"));

        client().nodes()
                .withName(name)
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"}}}");

        assertThat(client().nodes().withName(name).get().getStatus().getCapacity())
                .containsEntry("nvidia.com/gpu", new Quantity("8"));
    }

    /** An unbound pod is deleted at once; a bound one waits for its kubelet unless deleted with grace period 0. */
    @Test
    void boundPodsAreDeletedGracefully() {
        createPod(pod("delete-unbound", Map.of(), Map.of()));
        createPod(boundPod("delete-bound", node("delete")));

        client().pods().inNamespace(ns).withName("delete-unbound").delete();
        client().pods().inNamespace(ns).withName("delete-bound").delete();

        assertThat(getPod("delete-unbound")).isNull();
        assertBoundPodAfterPlainDelete(getPod("delete-bound"));
        client().pods()
                .inNamespace(ns)
                .withName("delete-bound")
                .withGracePeriod(0)
                .delete();
        assertThat(getPod("delete-bound")).isNull();
    }

    protected void assertBoundPodAfterPlainDelete(Pod pod) {
        assertThat(pod).isNotNull();
        assertThat(pod.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(pod.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
    }

    // ---------------------------------------------------------------- Leases

    @Test
    void leaseCreateUpdateAndStaleUpdate() {
        ZonedDateTime renewed = ZonedDateTime.of(2025, 1, 2, 3, 4, 5, 123_456_000, ZoneOffset.UTC);
        var leases = client().resources(Lease.class).inNamespace(ns);
        Lease created = leases.resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName("lease-cas")
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity("replica-a")
                        .withLeaseDurationSeconds(15)
                        .withAcquireTime(renewed)
                        .withRenewTime(renewed)
                        .withLeaseTransitions(0)
                        .endSpec()
                        .build())
                .create();
        assertThat(created.getSpec().getRenewTime().toInstant()).isEqualTo(renewed.toInstant());

        Lease read = leases.withName("lease-cas").get();
        read.getSpec().setRenewTime(renewed.plusSeconds(2));
        Lease renewedLease = leases.resource(read).update();
        created.getSpec().setHolderIdentity("replica-b");

        KubernetesClientException e = failure(() -> leases.resource(created).update());

        assertThat(version(renewedLease)).isGreaterThan(version(created));
        assertThat(e.getCode()).isEqualTo(409);
        assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
        Lease stored = leases.withName("lease-cas").get();
        assertThat(stored.getSpec().getHolderIdentity()).isEqualTo("replica-a");
        assertThat(stored.getSpec().getRenewTime().toInstant())
                .isEqualTo(renewed.plusSeconds(2).toInstant());
        assertThat(stored.getSpec().getLeaseDurationSeconds()).isEqualTo(15);
        assertThat(leases.withName("lease-missing").get()).isNull();
    }

    /** fabric8's leader election on a Lease, as the scheduler campaigns: one leader, the other takes over on release. */
    @Test
    void leaderElectionOnALease() throws InterruptedException {
        CountDownLatch aLeads = new CountDownLatch(1);
        CountDownLatch bLeads = new CountDownLatch(1);
        CompletableFuture<?> a = elect("replica-a", aLeads);
        CompletableFuture<?> b = null;
        try {
            assertThat(aLeads.await(EVENT_WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("replica-a leads")
                    .isTrue();
            b = elect("replica-b", bLeads);
            assertThat(bLeads.await(500, TimeUnit.MILLISECONDS))
                    .as("replica-b must not lead while a holds the lease")
                    .isFalse();
            assertThat(client().resources(Lease.class)
                            .inNamespace(ns)
                            .withName("leader")
                            .get()
                            .getSpec()
                            .getHolderIdentity())
                    .isEqualTo("replica-a");

            a.cancel(true); // releases the lease

            assertThat(bLeads.await(EVENT_WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("replica-b takes over")
                    .isTrue();
            assertThat(client().resources(Lease.class)
                            .inNamespace(ns)
                            .withName("leader")
                            .get()
                            .getSpec()
                            .getHolderIdentity())
                    .isEqualTo("replica-b");
        } finally {
            a.cancel(true);
            if (b != null) {
                b.cancel(true);
            }
        }
    }

    private CompletableFuture<?> elect(String identity, CountDownLatch leading) {
        var config = new LeaderElectionConfigBuilder()
                .withName("leader")
                .withLock(new LeaseLock(ns, "leader", identity))
                .withLeaseDuration(Duration.ofSeconds(4))
                .withRenewDeadline(Duration.ofSeconds(3))
                .withRetryPeriod(Duration.ofMillis(100))
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(leading::countDown, () -> {}, leader -> {}))
                .build();
        return client().leaderElector().withConfig(config).build().start();
    }

    // ---------------------------------------------------------------- Events

    @Test
    void eventsAreListedByInvolvedObject() {
        Pod pod = createPod(pod("event-pod", Map.of(), Map.of()));
        Pod other = createPod(pod("event-other", Map.of(), Map.of()));
        createEvent(pod, "event-pod.1", "Warning", "BindingFailed", "no fit");
        createEvent(pod, "event-pod.2", "Normal", "FilteringSucceed", "fits");
        createEvent(other, "event-other.1", "Normal", "BindingSucceed", "bound");
        var events = client().v1().events().inNamespace(ns);

        List<Event> ofPod =
                events.withField("involvedObject.name", "event-pod").list().getItems();

        assertThat(names(ofPod)).containsExactlyInAnyOrder("event-pod.1", "event-pod.2");
        Event failed = ofPod.stream()
                .filter(e -> e.getReason().equals("BindingFailed"))
                .findFirst()
                .orElseThrow();
        assertThat(failed.getInvolvedObject().getUid())
                .isEqualTo(pod.getMetadata().getUid());
        assertThat(failed.getMessage()).isEqualTo("no fit");
        assertThat(failed.getCount()).isEqualTo(1);
        assertThat(names(events.withFields(Map.of("involvedObject.kind", "Pod", "type", "Warning"))
                        .list()
                        .getItems()))
                .containsExactly("event-pod.1");
        assertThat(names(events.withField(
                                "involvedObject.uid", other.getMetadata().getUid())
                        .list()
                        .getItems()))
                .containsExactly("event-other.1");
        assertThat(names(events.withField("reason", "BindingSucceed").list().getItems()))
                .containsExactly("event-other.1");
        assertThat(names(events.withField("source", "hami-scheduler").list().getItems()))
                .hasSize(3);
        assertThat(names(events.withField("reportingComponent", "hami-scheduler")
                        .list()
                        .getItems()))
                .hasSize(3);
    }

    private void createEvent(Pod pod, String name, String type, String reason, String message) {
        String now = ZonedDateTime.now(ZoneOffset.UTC)
                .truncatedTo(ChronoUnit.SECONDS)
                .toInstant()
                .toString();
        // As the scheduler's EventRecorder builds them.
        client().v1()
                .events()
                .inNamespace(ns)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(ns)
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withApiVersion("v1")
                        .withKind("Pod")
                        .withNamespace(ns)
                        .withName(pod.getMetadata().getName())
                        .withUid(pod.getMetadata().getUid())
                        .withResourceVersion(pod.getMetadata().getResourceVersion())
                        .endInvolvedObject()
                        .withType(type)
                        .withReason(reason)
                        .withMessage(message)
                        .withNewSource()
                        .withComponent("hami-scheduler")
                        .endSource()
                        .withReportingComponent("hami-scheduler")
                        .withFirstTimestamp(now)
                        .withLastTimestamp(now)
                        .withCount(1)
                        .build())
                .create();
    }

    // ---------------------------------------------------------------- helpers

    protected Pod pod(String name, Map<String, String> labels, Map<String, String> annotations) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withLabels(labels)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withTerminationGracePeriodSeconds(30L)
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build();
    }

    protected Pod boundPod(String name, String node) {
        Pod pod = pod(name, Map.of("case", "field"), Map.of());
        pod.getSpec().setNodeName(node);
        return pod;
    }

    protected String node(String base) {
        return base + "-" + run;
    }

    protected Pod createPod(Pod pod) {
        return client().pods().inNamespace(ns).resource(pod).create();
    }

    protected Pod getPod(String name) {
        return client().pods().inNamespace(ns).withName(name).get();
    }

    protected Pod mergePatchPod(String name, String patch) {
        return client().pods().inNamespace(ns).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    protected Pod jsonPatchPod(String name, String patch) {
        return client().pods().inNamespace(ns).withName(name).patch(PatchContext.of(PatchType.JSON), patch);
    }

    protected Pod setPhase(String name, String phase) {
        return client().pods()
                .inNamespace(ns)
                .withName(name)
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"phase\":\"" + phase + "\"}}");
    }

    protected Binding binding(String pod, String node, String uid, Map<String, String> annotations) {
        return new BindingBuilder()
                .withNewMetadata()
                .withName(pod)
                .withNamespace(ns)
                .withUid(uid)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .endTarget()
                .build();
    }

    protected String url(String path) {
        String base = client().getMasterUrl().toString();
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
    }

    protected List<String> select(String labelSelector) {
        return names(client().pods()
                .inNamespace(ns)
                .withLabelSelector(labelSelector)
                .list()
                .getItems());
    }

    protected static List<String> names(List<? extends HasMetadata> objects) {
        return objects.stream().map(o -> o.getMetadata().getName()).toList();
    }

    protected static long version(HasMetadata object) {
        return Long.parseLong(object.getMetadata().getResourceVersion());
    }

    protected static KubernetesClientException failure(ThrowingCallable call) {
        var thrown = new KubernetesClientException[1];
        assertThatThrownBy(call).isInstanceOfSatisfying(KubernetesClientException.class, e -> thrown[0] = e);
        return thrown[0];
    }

    /** One watch event as the watcher saw it. */
    protected record Seen<T extends HasMetadata>(String type, T object) {
        boolean is(String type, String name) {
            return this.type.equals(type) && object.getMetadata().getName().equals(name);
        }

        @Override
        public String toString() {
            return type + " " + object.getMetadata().getName();
        }
    }

    /** Records the events of one watch in order, bookmarks and errors aside. */
    protected static final class Recorder<T extends HasMetadata> implements Watcher<T> {
        private final BlockingQueue<Seen<T>> events = new LinkedBlockingQueue<>();
        private volatile WatcherException closedWith;

        @Override
        public void eventReceived(Action action, T resource) {
            if (action != Action.BOOKMARK && action != Action.ERROR) {
                events.add(new Seen<>(action.name(), resource));
            }
        }

        @Override
        public void onClose(WatcherException cause) {
            closedWith = cause;
        }

        /** The events up to and including the first that {@code last} accepts. */
        List<Seen<T>> until(Predicate<Seen<T>> last) {
            List<Seen<T>> seen = new ArrayList<>();
            long deadline = System.nanoTime() + EVENT_WAIT.toNanos();
            try {
                while (System.nanoTime() < deadline) {
                    Seen<T> next = events.poll(50, TimeUnit.MILLISECONDS);
                    if (next != null) {
                        seen.add(next);
                        if (last.test(next)) {
                            return seen;
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return fail("the awaited watch event did not come within " + EVENT_WAIT + "; saw " + seen
                    + (closedWith == null ? "" : "; watch closed: " + closedWith));
        }
    }
}
