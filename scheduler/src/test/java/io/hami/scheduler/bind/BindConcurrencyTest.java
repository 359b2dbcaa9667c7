package io.hami.scheduler.bind;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.lock.HolderPod;
import io.hami.kube.lock.HolderState;
import io.hami.kube.lock.LockRules;
import io.hami.kube.lock.LockTimeouts;
import io.hami.kube.lock.NodeLockClient;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.HostPriority;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 4's concurrency acceptance: two scheduler instances, 8 binding threads, 500 pods, 10 nodes, 10 % of
 * API writes failing with 409/500, and one instance killed midway. Checks afterwards, from the API server's
 * state: no device overcommitted, no pod whose annotations disagree with its node, every lock released or
 * recoverable.
 */
class BindConcurrencyTest {
    static final int NODES = 10;
    static final int GPUS = 4;
    static final int GPU_MEM = 8000;
    static final int SPLIT = 10;
    static final int PODS = 500;
    static final Duration LOCK_TIMEOUT = Duration.ofSeconds(3);

    @Test
    @PatientTimeout(value = 6, unit = TimeUnit.MINUTES)
    void twoInstancesUnderApiFaultsAndACrashNeverOvercommit() throws Exception {
        try (var server = EmbeddedApiServer.start();
                KubernetesClient admin = server.newClient()) {
            var inventory = new HashMap<String, List<String>>();
            for (int n = 0; n < NODES; n++) {
                var devices = new ArrayList<DeviceInfo>();
                for (int g = 0; g < GPUS; g++) {
                    devices.add(gpu("GPU-" + n + "-" + g, g, GPU_MEM));
                }
                inventory.put("node-" + n, devices.stream().map(DeviceInfo::id).toList());
                admin.nodes()
                        .resource(new NodeBuilder()
                                .withNewMetadata()
                                .withName("node-" + n)
                                .addToAnnotations("hami.io/node-nvidia-register", JsonRegisterCodec.encode(devices))
                                .endMetadata()
                                .withNewStatus()
                                .addToAllocatable("nvidia.com/gpu", new Quantity("40"))
                                .endStatus()
                                .build())
                        .create();
            }
            var random = new Random(42);
            int[] sizes = {1000, 2000, 3000};
            for (int i = 0; i < PODS; i++) {
                admin.pods()
                        .inNamespace("default")
                        .resource(new PodBuilder()
                                .withNewMetadata()
                                .withName("pod-" + i)
                                .endMetadata()
                                .withNewSpec()
                                .withContainers(container(
                                        "c",
                                        "nvidia.com/gpu",
                                        "1",
                                        "nvidia.com/gpumem",
                                        Integer.toString(sizes[random.nextInt(sizes.length)]),
                                        "nvidia.com/gpucores",
                                        Integer.toString(random.nextInt(40))))
                                .endSpec()
                                .build())
                        .create();
            }

            var clientA = server.newClient();
            var clientB = server.newClient();
            var settings = SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, LOCK_TIMEOUT);
            SchedulerApp a = SchedulerApp.start(clientA, settings, new PrometheusRegistry(), Clock.systemUTC());
            SchedulerApp b = SchedulerApp.start(clientB, settings, new PrometheusRegistry(), Clock.systemUTC());
            awaitIndexed(a);
            awaitIndexed(b);
            server.faults().failWrites(0.10, 7, 409, 500);

            var aliveA = new AtomicBoolean(true);
            var stop = new AtomicBoolean(false);
            ExecutorService allocator = Executors.newSingleThreadExecutor();
            var allocations = new AtomicInteger();
            Future<?> allocating = allocator.submit(() -> allocateLoop(server, stop, allocations));

            var queue = new ConcurrentLinkedQueue<String>();
            for (int i = 0; i < PODS; i++) {
                queue.add("pod-" + i);
            }
            var done = new AtomicInteger();
            var bound = new AtomicInteger();
            var unschedulable = new AtomicInteger();
            ExecutorService workers = Executors.newFixedThreadPool(8);
            var working = new ArrayList<Future<?>>();
            for (int w = 0; w < 8; w++) {
                int seed = w;
                working.add(workers.submit(() -> {
                    var rnd = new Random(seed);
                    String name;
                    while ((name = queue.poll()) != null) {
                        boolean ok = schedule(admin, name, rnd, aliveA, a, b);
                        (ok ? bound : unschedulable).incrementAndGet();
                        if (done.incrementAndGet() == PODS / 2) {
                            aliveA.set(false);
                            a.close(); // the crash: in-flight binds of A are cut off
                        }
                    }
                    return null;
                }));
            }
            workers.shutdown();
            assertThat(workers.awaitTermination(Patience.seconds(300).toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            server.faults().clear();
            // Let the simulated plugins finish every bound pod, then check the cluster.
            await("every bound pod allocated")
                    .atMost(Patience.seconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> allocatingBound(admin).isEmpty());
            stop.set(true);
            allocator.shutdown();
            assertThat(allocator.awaitTermination(Patience.seconds(10).toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            b.close();
            clientA.close();
            clientB.close();
            // a worker or the allocator that threw fails the test here
            for (Future<?> worker : working) {
                worker.get();
            }
            allocating.get();

            System.out.printf(
                    "concurrency: %d bound, %d unschedulable, %d allocations, %d injected API faults%n",
                    bound.get(),
                    unschedulable.get(),
                    allocations.get(),
                    server.faults().injectedCount());
            assertThat(bound.get()).as("some pods must have been placed").isGreaterThan(50);
            assertThat(server.faults().injectedCount()).isGreaterThan(20);
            assertInvariants(admin, inventory);
        }
    }

    /** One pod through filter, prioritize and bind, retried like kube-scheduler does; true once bound. */
    private static boolean schedule(
            KubernetesClient admin, String name, Random rnd, AtomicBoolean aliveA, SchedulerApp a, SchedulerApp b) {
        for (int attempt = 0; attempt < 40; attempt++) {
            SchedulerApp s = aliveA.get() && rnd.nextBoolean() ? a : b;
            try {
                Pod pod = admin.pods().inNamespace("default").withName(name).get();
                if (pod.getSpec().getNodeName() != null) {
                    return true;
                }
                var names = new ArrayList<String>();
                for (int n = 0; n < NODES; n++) {
                    names.add("node-" + n);
                }
                var filtered = s.extender().filter(new ExtenderArgs(pod, null, names));
                if (filtered.nodeNames() == null || filtered.nodeNames().isEmpty()) {
                    if (attempt >= 3) {
                        return false;
                    }
                } else {
                    var ranked = s.extender().prioritize(new ExtenderArgs(pod, null, filtered.nodeNames()));
                    String best = ranked.stream()
                            .max(Comparator.comparingLong(HostPriority::score))
                            .orElseThrow()
                            .host();
                    var result = s.binder()
                            .bind(new BindingArgs(
                                    name, "default", pod.getMetadata().getUid(), best));
                    if (result.ok()) {
                        return true;
                    }
                }
            } catch (RuntimeException e) {
                // a killed instance or an injected fault: kube-scheduler retries later
            }
            sleep(20 + rnd.nextInt(80)); // kube-scheduler's backoff, shortened: part of the load simulated
        }
        return false;
    }

    /** What the device plugins do for bound pods: consume the entries, mark success, release the lock. */
    private static void allocateLoop(EmbeddedApiServer server, AtomicBoolean stop, AtomicInteger allocations) {
        try (KubernetesClient client = server.newClient()) {
            var locks = new NodeLockClient(client, LOCK_TIMEOUT, Clock.systemUTC());
            while (!stop.get()) {
                for (Pod pod : allocatingBound(client)) {
                    var m = pod.getMetadata();
                    try {
                        var set = new HashMap<String, String>();
                        set.put("hami.io/vgpu-devices-to-allocate", ";");
                        set.put(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_SUCCESS);
                        client.pods()
                                .inNamespace(m.getNamespace())
                                .withName(m.getName())
                                .patch(
                                        PatchContext.of(PatchType.JSON_MERGE),
                                        AnnotationPatch.mergePatch(set, Map.of(), m.getResourceVersion()));
                        locks.release(pod.getSpec().getNodeName(), m.getNamespace(), m.getName());
                        allocations.incrementAndGet();
                    } catch (KubernetesClientException e) {
                        // injected fault or a concurrent change: try again next round
                    }
                }
                sleep(50); // the plugins' pace: a poll, not a wait for one event
            }
        }
    }

    private static List<Pod> allocatingBound(KubernetesClient client) {
        return client.pods().inNamespace("default").list().getItems().stream()
                .filter(p -> p.getSpec().getNodeName() != null)
                .filter(p -> p.getMetadata().getAnnotations() != null
                        && ProtocolKeys.PHASE_ALLOCATING.equals(
                                p.getMetadata().getAnnotations().get(ProtocolKeys.BIND_PHASE)))
                .toList();
    }

    private static void assertInvariants(KubernetesClient admin, Map<String, List<String>> inventory) throws Exception {
        var mem = new HashMap<String, Integer>();
        var cores = new HashMap<String, Integer>();
        var slots = new HashMap<String, Integer>();
        for (Pod pod : admin.pods().inNamespace("default").list().getItems()) {
            var a = pod.getMetadata().getAnnotations();
            String allocated = a == null ? null : a.get("hami.io/vgpu-devices-allocated");
            String node = pod.getSpec().getNodeName();
            String phase = a == null ? null : a.get(ProtocolKeys.BIND_PHASE);
            if (node != null) {
                assertThat(allocated)
                        .as(
                                "bound pod %s carries its decision",
                                pod.getMetadata().getName())
                        .isNotNull();
                assertThat(a.get(ProtocolKeys.VGPU_NODE))
                        .as("pod %s decision names its node", pod.getMetadata().getName())
                        .isEqualTo(node);
                assertThat(phase)
                        .as("pod %s allocated", pod.getMetadata().getName())
                        .isEqualTo(ProtocolKeys.PHASE_SUCCESS);
            }
            // Bound pods are what runs on the devices. (An unbound decision left behind by an aborted bind is a
            // reservation the scheduler keeps counting; it never reaches a device.)
            if (allocated == null || node == null) {
                continue;
            }
            String where = node;
            for (List<ContainerDevice> container :
                    PodDevicesCodec.decode(allocated).containers()) {
                for (ContainerDevice d : container) {
                    assertThat(inventory.get(where))
                            .as("pod %s device %s is on %s", pod.getMetadata().getName(), d.uuid(), where)
                            .contains(d.uuid());
                    mem.merge(d.uuid(), d.usedmem(), Integer::sum);
                    cores.merge(d.uuid(), d.usedcores(), Integer::sum);
                    slots.merge(d.uuid(), 1, Integer::sum);
                }
            }
        }
        mem.forEach((uuid, m) -> assertThat(m).as("memory on %s", uuid).isLessThanOrEqualTo(GPU_MEM));
        cores.forEach((uuid, c) -> assertThat(c).as("cores on %s", uuid).isLessThanOrEqualTo(100));
        slots.forEach((uuid, s) -> assertThat(s).as("tasks on %s", uuid).isLessThanOrEqualTo(SPLIT));
        Instant later = Instant.now().plus(LOCK_TIMEOUT).plusSeconds(1);
        for (var node : admin.nodes().list().getItems()) {
            var a = node.getMetadata().getAnnotations();
            String value = a == null ? null : a.get(ProtocolKeys.NODE_LOCK);
            if (value == null) {
                continue;
            }
            var lock = NodeLockCodec.decode(value);
            Pod holder = admin.pods()
                    .inNamespace(lock.namespace())
                    .withName(lock.name())
                    .get();
            HolderState state = LockRules.holderState(node.getMetadata().getName(), lock, HolderPod.of(holder));
            var decision =
                    LockRules.decide(lock, "default", "someone-else", state, later, LockTimeouts.of(LOCK_TIMEOUT));
            assertThat(decision)
                    .as(
                            "lock %s on %s is recoverable",
                            value, node.getMetadata().getName())
                    .isNotInstanceOf(LockRules.Decision.Wait.class);
        }
    }

    private static void awaitIndexed(SchedulerApp app) {
        await("every node indexed")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> app.index().nodeNames().size() >= NODES);
        assertThat(app.index().nodeNames()).hasSize(NODES);
    }

    /** The simulated load's pace (kube-scheduler's backoff, the plugins' poll), not a wait for an event. */
    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
