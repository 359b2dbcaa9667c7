package io.hami.plugin.testing;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.lock.LockOutcome;
import io.hami.kube.lock.NodeLockClient;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.spi.VendorKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedded API server with what the scheduler would have done: nodes, pods, and the design D4 (docs/design.md#d4) decision of a bind
 * (node lock, one pod patch, binding), written the way {@code scheduler}'s Binder writes it.
 */
public final class TestCluster implements AutoCloseable {
    public static final String NS = "default";

    private final EmbeddedApiServer server = EmbeddedApiServer.start();
    /** Without fabric8's own retries of 5xx answers, so that injected failures reach the code under test. */
    private final KubernetesClient client = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
            .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder(server.clientConfig())
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();

    private final MutableClock clock = new MutableClock(Instant.parse("2026-08-21T10:00:00Z"));
    private final NodeLockClient locks;

    public TestCluster(Duration lockTimeout) {
        this.locks = new NodeLockClient(client, lockTimeout, clock);
    }

    public TestCluster() {
        this(Duration.ofMinutes(5));
    }

    public EmbeddedApiServer server() {
        return server;
    }

    public KubernetesClient client() {
        return client;
    }

    public MutableClock clock() {
        return clock;
    }

    public NodeLockClient locks() {
        return locks;
    }

    public Node node(String name) {
        return client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
    }

    public Node getNode(String name) {
        return client.nodes().withName(name).get();
    }

    public Pod get(String pod) {
        return client.pods().inNamespace(NS).withName(pod).get();
    }

    public String annotation(String pod, String key) {
        Map<String, String> a = get(pod).getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    public String nodeAnnotation(String node, String key) {
        Map<String, String> a = getNode(node).getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    /** A pod with these init and app containers. */
    public Pod pod(String name, List<Container> init, List<Container> app) {
        return client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NS)
                        .endMetadata()
                        .withNewSpec()
                        .withInitContainers(init)
                        .withContainers(app)
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Pending")
                        .endStatus()
                        .build())
                .create();
    }

    public static Container container(String name) {
        return new ContainerBuilder().withName(name).withImage("busybox").build();
    }

    public static Container container(String name, Map<String, String> env) {
        ContainerBuilder b = new ContainerBuilder().withName(name).withImage("busybox");
        env.forEach((k, v) -> b.addNewEnv().withName(k).withValue(v).endEnv());
        return b.build();
    }

    /**
     * Bind as the scheduler does (design D4): lock the node for the pod, one patch with the decision (each vendor's
     * to-allocate and allocated values), then the binding.
     */
    public void bind(String pod, String node, Map<VendorKeys, String> decision) {
        LockOutcome lock = locks.acquire(node, NS, pod);
        if (!(lock instanceof LockOutcome.Acquired)) {
            throw new AssertionError("node lock not acquired for " + pod + ": " + lock);
        }
        String now = Long.toString(clock.instant().getEpochSecond());
        Map<String, String> set = new HashMap<>();
        set.put(ProtocolKeys.VGPU_NODE, node);
        set.put(ProtocolKeys.VGPU_TIME, now);
        set.put(ProtocolKeys.BIND_TIME, now);
        set.put(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING);
        decision.forEach((keys, value) -> {
            set.put(keys.toAllocateKey(), value);
            set.put(keys.allocatedKey(), value);
        });
        client.pods()
                .inNamespace(NS)
                .withName(pod)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        AnnotationPatch.mergePatch(set, Map.of(ProtocolKeys.VGPU_NODE, node), null));
        Pod p = get(pod);
        Binding binding = new BindingBuilder()
                .withNewMetadata()
                .withName(pod)
                .withNamespace(NS)
                .withUid(p.getMetadata().getUid())
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .endTarget()
                .build();
        client.bindings().inNamespace(NS).resource(binding).create();
    }

    /** What the kubelet does to a pod it rejects at admission: phase Failed. */
    public void reject(String pod) {
        Pod p = get(pod);
        p.getStatus().setPhase("Failed");
        p.getStatus().setReason("UnexpectedAdmissionError");
        client.pods().inNamespace(NS).resource(p).updateStatus();
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }

    /** A clock tests move by hand. */
    public static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant start) {
            this.now = start;
        }

        public void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException("tests use UTC");
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
