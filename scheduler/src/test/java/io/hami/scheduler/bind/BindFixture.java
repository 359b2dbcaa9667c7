package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.hami.kube.lock.LockTimeouts;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.FitInputs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.gang.GangWaits;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Binder} against the embedded API server without informers: the tests put nodes into the index themselves
 * and say what the pod watch has handed over ({@link #WATCH_CURRENT}, {@link #WATCH_BEHIND} or a stub of their own).
 */
public final class BindFixture implements AutoCloseable {
    public static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);
    /** The pod watch has handed over every change: true where the binder under test made every decision itself. */
    public static final PodChangesSeen WATCH_CURRENT = (resourceVersion, max) -> true;
    /** A pod watch that never gets there in time: each written decision is checked after a LIST of its node's pods. */
    public static final PodChangesSeen WATCH_BEHIND = (resourceVersion, max) -> false;

    public final EmbeddedApiServer server;
    public final KubernetesClient client;
    public final Clock clock;
    public final NodeLockClient locks;
    /** The index the binders use unless a test gives its own; holds every node made with {@link #node}. */
    public final UsageIndex index = new UsageIndex();

    private final Map<String, List<DeviceInfo>> nodes = new LinkedHashMap<>();

    /** The system clock and 5-minute locks. */
    public BindFixture() {
        this(Clock.systemUTC(), LockTimeouts.of(Duration.ofMinutes(5)), null);
    }

    /** @param recorder sees every request the client sends (null: none) */
    public BindFixture(Clock clock, LockTimeouts timeouts, Interceptor recorder) {
        this.server = EmbeddedApiServer.start();
        this.client = recorder == null
                ? server.newClient()
                : new KubernetesClientBuilder()
                        .withConfig(server.clientConfig())
                        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("recorder", recorder))
                        .build();
        this.clock = clock;
        this.locks = new NodeLockClient(client, timeouts, clock);
    }

    /** An NVIDIA GPU split 10 ways with 100 cores. */
    public static DeviceInfo gpu(String id, int index) {
        return new DeviceInfo(id, index, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true);
    }

    /** Creates node {@code name} and puts it with {@code gpus} into {@link #index}. */
    public void node(String name, DeviceInfo... gpus) {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
        nodes.put(name, List.of(gpus));
        index.putNode(name, Map.of(), Map.of("NVIDIA", List.of(gpus)), Map.of());
    }

    /** A new index with every node made so far and none of the decisions: an index that has missed them. */
    public UsageIndex indexWithoutDecisions() {
        var fresh = new UsageIndex();
        nodes.forEach((name, gpus) -> fresh.putNode(name, Map.of(), Map.of("NVIDIA", gpus), Map.of()));
        return fresh;
    }

    /** A pod in namespace {@code ns} asking for one GPU with {@code memMiB}, not yet created. */
    public static Pod gpuPod(String name, int memMiB) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("cuda")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity(Integer.toString(memMiB)))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    /** Creates {@link #gpuPod}. */
    public Pod pod(String name, int memMiB) {
        return client.pods().inNamespace("ns").resource(gpuPod(name, memMiB)).create();
    }

    /** What {@code ns/name} carries now (empty when none). */
    public Map<String, String> annotations(String name) {
        var a = client.pods()
                .inNamespace("ns")
                .withName(name)
                .get()
                .getMetadata()
                .getAnnotations();
        return a == null ? Map.of() : a;
    }

    /** The node pod {@code name} of namespace {@code ns} is bound to, or null. */
    public String nodeName(String name) {
        return client.pods().inNamespace("ns").withName(name).get().getSpec().getNodeName();
    }

    public Binder binder(BindObserver observer, PodChangesSeen seen) {
        return binder(index, SchedulingPolicy.UPSTREAM_DEFAULTS, observer, seen);
    }

    /** A binder whose gang members wait in {@code gangs}' lines. */
    public Binder binder(BindObserver observer, PodChangesSeen seen, GangWaits gangs) {
        return binder(index, SchedulingPolicy.UPSTREAM_DEFAULTS, observer, seen, gangs);
    }

    public Binder binder(UsageIndex index, SchedulingPolicy policy, BindObserver observer, PodChangesSeen seen) {
        return binder(index, policy, observer, seen, GangWaits.off());
    }

    /** A binder that takes pods (and nodes) from {@code cached}, as the scheduler's informers hand them over. */
    public Binder binder(BindObserver observer, PodChangesSeen seen, NodeLockClient.Cached cached) {
        return binder(
                index,
                SchedulingPolicy.UPSTREAM_DEFAULTS,
                observer,
                seen,
                GangWaits.off(),
                new NodeLockClient(client, locks.timeouts(), clock, cached));
    }

    private Binder binder(
            UsageIndex index, SchedulingPolicy policy, BindObserver observer, PodChangesSeen seen, GangWaits gangs) {
        return binder(index, policy, observer, seen, gangs, locks);
    }

    private Binder binder(
            UsageIndex index,
            SchedulingPolicy policy,
            BindObserver observer,
            PodChangesSeen seen,
            GangWaits gangs,
            NodeLockClient locks) {
        return new Binder(new Binder.Inputs(
                new FitInputs(index, new QuotaBook(BACKENDS, index), BACKENDS, policy),
                new Binder.Cluster(
                        client, locks, clock, seen, new AbandonedDecisions(client, (task, delay) -> {}, List.of())),
                () -> true,
                observer,
                gangs));
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }
}
