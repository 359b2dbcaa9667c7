package io.hami.lab.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.hami.lab.metrics.Latencies;
import io.hami.plugin.kubeletapi.Empty;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.kubeletapi.RegistrationGrpc;
import io.hami.plugin.server.UnixSockets;
import io.hami.protocol.annotation.ProtocolKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet of one node, as far as devices go. It registers its Node, serves {@code Registration} on
 * {@code kubelet.sock} in the node's device-plugin directory, connects back to each plugin that registers (options,
 * then ListAndWatch), keeps the node's capacity and allocatable up to date from the lists, and admits the pods bound
 * to the node one at a time ({@link PodAdmitter}), then starts them in the {@link ContainerRuntime} or fails them with
 * the reason. A restart stops all of that, cleans the plugin directory (the plugins must register again) and starts
 * it again; the device assignments survive, as the kubelet's checkpoint does.
 */
public final class SimulatedKubelet implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedKubelet.class);
    public static final String KUBELET_SOCKET = "kubelet.sock";

    private final KubernetesClient client;
    private final String node;
    private final Path pluginDir;
    private final UnixSockets sockets;
    private final ContainerRuntime runtime;
    private final DeviceManager devices = new DeviceManager();
    private final PodAdmitter admitter;
    /** Pods whose admission started; the rest are admitted when seen (again, after a restart). */
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();

    private final Set<String> queued = ConcurrentHashMap.newKeySet();
    /** A rejection asked for by a fault: the next pod with a scheduler decision for this node is refused. */
    private final AtomicReference<CompletableFuture<Pod>> rejectNext = new AtomicReference<>();

    private volatile boolean running;
    private Server registration;
    private NodeStatusUpdater status;
    private ExecutorService admissions;
    private SharedIndexInformer<Pod> pods;

    /**
     * @param grace how long an admission waits for a plugin that is away
     */
    public SimulatedKubelet(
            KubernetesClient client,
            String node,
            Path pluginDir,
            UnixSockets sockets,
            ContainerRuntime runtime,
            AllocationLog log,
            Latencies latencies,
            Duration grace) {
        this.client = client;
        this.node = node;
        this.pluginDir = pluginDir;
        this.sockets = sockets;
        this.runtime = runtime;
        this.admitter = new PodAdmitter(node, devices, log, latencies, grace);
    }

    public Path pluginDir() {
        return pluginDir;
    }

    public synchronized void start() throws IOException {
        Files.createDirectories(pluginDir);
        try (Stream<Path> files = Files.list(pluginDir)) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().endsWith(".sock")) {
                    Files.delete(f); // a starting kubelet cleans the plugin directory
                }
            }
        }
        status = new NodeStatusUpdater(client, node, devices::status);
        status.register();
        admissions = Executors.newSingleThreadExecutor(
                Thread.ofVirtual().name("lab-kubelet-" + node).factory());
        running = true;
        registration = sockets.server(pluginDir.resolve(KUBELET_SOCKET), new RegistrationService())
                .start();
        pods = client.pods().inAnyNamespace().withField("spec.nodeName", node).inform(new PodEvents());
    }

    /** Stops serving and watching; an admission in progress finishes first. */
    public synchronized void stop() throws InterruptedException {
        running = false;
        if (pods != null) {
            pods.close();
        }
        if (registration != null) {
            registration.shutdownNow();
            registration.awaitTermination(5, TimeUnit.SECONDS);
        }
        if (admissions != null) {
            admissions.shutdownNow();
            admissions.awaitTermination(30, TimeUnit.SECONDS);
        }
        queued.clear();
        devices.disconnectAll();
        if (status != null) {
            status.close();
        }
    }

    /** Stops, stays down for {@code down}, and starts again. */
    public void restart(Duration down) throws IOException, InterruptedException {
        stop();
        Thread.sleep(down);
        start();
    }

    /**
     * Refuses the next pod admitted that carries a scheduler decision for this node, before any Allocate, as a
     * kubelet does for a pod that does not fit its node (OutOfcpu and the like). Completes with that pod.
     */
    public CompletableFuture<Pod> rejectNextDecided() {
        var rejection = new CompletableFuture<Pod>();
        if (!rejectNext.compareAndSet(null, rejection)) {
            throw new IllegalStateException("node " + node + ": a rejection is already pending");
        }
        return rejection;
    }

    private void endpointChanged(PluginEndpoint endpoint) {
        devices.changed();
        if (running) {
            status.changed();
        }
    }

    private final class RegistrationService extends RegistrationGrpc.RegistrationImplBase {
        @Override
        public void register(RegisterRequest request, StreamObserver<Empty> response) {
            if (!"v1beta1".equals(request.getVersion())) {
                response.onError(Status.INVALID_ARGUMENT
                        .withDescription("unsupported device plugin API version " + request.getVersion()
                                + ", this kubelet supports v1beta1")
                        .asException());
                return;
            }
            try {
                var endpoint = new PluginEndpoint(
                        request.getResourceName(), sockets.channel(pluginDir.resolve(request.getEndpoint())));
                devices.register(endpoint);
                endpoint.watch(SimulatedKubelet.this::endpointChanged);
                LOG.debug(
                        "node {}: plugin registered {} on {}", node, request.getResourceName(), request.getEndpoint());
                response.onNext(Empty.getDefaultInstance());
                response.onCompleted();
            } catch (RuntimeException e) {
                response.onError(Status.UNAVAILABLE
                        .withDescription("cannot reach the plugin at " + request.getEndpoint() + ": " + e.getMessage())
                        .asException());
            }
        }
    }

    private void admit(Pod pod) {
        String uid = pod.getMetadata().getUid();
        queued.remove(uid);
        if (!running || !admitted.add(uid)) {
            return;
        }
        Map<String, String> a = pod.getMetadata().getAnnotations();
        if (a != null && node.equals(a.get(ProtocolKeys.VGPU_NODE)) && rejectNext.get() != null) {
            runtime.status()
                    .failed(
                            pod,
                            "OutOfcpu",
                            "Node didn't have enough resource: cpu (rejected by the lab's kubelet "
                                    + "fault before Allocate)");
            rejectNext.getAndSet(null).complete(pod);
            return;
        }
        try {
            admitter.admit(pod);
            runtime.start(pod);
        } catch (InterruptedException e) {
            admitted.remove(uid); // the kubelet stops: after its restart the pod's admission resumes
        } catch (PodAdmitter.Refused | RuntimeException e) {
            if (!running) {
                admitted.remove(uid); // an Allocate cut short by the stop, not refused by the plugin
                return;
            }
            if (e instanceof RuntimeException) {
                LOG.error("node {}: admitting pod {}", node, pod.getMetadata().getName(), e);
            }
            devices.release(uid);
            runtime.status().failed(pod, PodAdmitter.ADMISSION_ERROR, e.getMessage());
        }
    }

    private final class PodEvents implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            String uid = pod.getMetadata().getUid();
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                devices.release(uid);
                runtime.stopped(uid);
                PodDeletion.confirm(client, pod); // its containers are stopped: the kubelet ends the graceful deletion
            } else if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                devices.release(uid);
            } else if ((phase == null || "Pending".equals(phase)) && !admitted.contains(uid) && queued.add(uid)) {
                admissions.execute(() -> admit(pod));
            }
        }

        @Override
        public void onUpdate(Pod before, Pod after) {
            onAdd(after);
        }

        @Override
        public void onDelete(Pod pod, boolean unknown) {
            devices.release(pod.getMetadata().getUid());
            runtime.stopped(pod.getMetadata().getUid());
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
