package io.hami.lab.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.hami.lab.metrics.Latencies;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.kubeletapi.ContainerPreferredAllocationRequest;
import io.hami.plugin.kubeletapi.PreferredAllocationRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Pod admission on one node, as the kubelet's device manager does it: for each container in order (init containers
 * first), for each resource a plugin serves, choose device IDs (the pod's init containers' IDs may be reused, the
 * plugin's GetPreferredAllocation is asked when there is a choice) and call Allocate with them. Resources no plugin
 * ever served are scheduler-only ({@code nvidia.com/gpumem}, ...) and skipped. A plugin that is away (restarting, or
 * not yet registered again after a kubelet restart) is waited for up to a grace period.
 */
final class PodAdmitter {
    /** The message kubelets write when Allocate fails. */
    static final String ADMISSION_ERROR = "UnexpectedAdmissionError";

    private final String node;
    private final DeviceManager devices;
    private final AllocationLog log;
    private final Latencies latencies;
    private final Duration grace;

    PodAdmitter(String node, DeviceManager devices, AllocationLog log, Latencies latencies, Duration grace) {
        this.node = node;
        this.devices = devices;
        this.log = log;
        this.latencies = latencies;
        this.grace = grace;
    }

    /** Why a pod was refused. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * Allocates every container's devices, recording the IDs in the device manager as they are taken; containers
     * that already have theirs (admission interrupted by a kubelet restart) are not allocated again.
     */
    void admit(Pod pod) throws Refused, InterruptedException {
        String uid = pod.getMetadata().getUid();
        List<Container> containers = new ArrayList<>(pod.getSpec().getInitContainers());
        int initCount = containers.size();
        containers.addAll(pod.getSpec().getContainers());
        Map<String, Set<String>> reusable = new HashMap<>();
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            Map<String, Quantity> limits =
                    c.getResources() == null || c.getResources().getLimits() == null
                            ? Map.of()
                            : new TreeMap<>(c.getResources().getLimits());
            for (var limit : limits.entrySet()) {
                String resource = limit.getKey();
                if (!devices.handles(resource)) {
                    continue;
                }
                int needed = limit.getValue().getNumericalAmount().intValueExact();
                if (needed <= 0) {
                    continue;
                }
                Set<String> reuse = reusable.computeIfAbsent(resource, r -> new LinkedHashSet<>());
                List<String> ids = devices.allocated(uid, i, resource);
                if (ids == null) {
                    ids = allocate(pod, i, c, resource, needed, reuse);
                    devices.assign(uid, i, resource, ids);
                }
                ids.forEach(reuse::remove);
                if (i < initCount) {
                    // An init container has exited before the next container starts: its devices may be reused.
                    reuse.addAll(ids);
                }
            }
        }
    }

    private List<String> allocate(Pod pod, int index, Container c, String resource, int needed, Set<String> reusable)
            throws Refused, InterruptedException {
        long deadline = System.nanoTime() + grace.toNanos();
        while (true) {
            PluginEndpoint endpoint = devices.await(resource, deadline);
            if (endpoint == null) {
                throw new Refused("Allocate failed due to no devices of " + resource
                        + ": its device plugin did not come back within " + grace.toSeconds()
                        + "s, which is unexpected");
            }
            List<String> ids;
            try {
                ids = choose(endpoint, resource, needed, reusable);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.UNAVAILABLE
                        && !devices.current(endpoint)
                        && System.nanoTime() < deadline) {
                    continue; // the plugin went away before Allocate: wait for it to register again
                }
                throw refused(e);
            }
            long start = System.nanoTime();
            AllocateResponse response;
            try {
                // A kubelet restart lets the call in flight finish (see SimulatedKubelet#stop): an interrupt would
                // cancel
                // it after the plugin may have served it, and the resumed admission would call again.
                response = uninterruptibly(endpoint.futureStub()
                        .allocate(AllocateRequest.newBuilder()
                                .addContainerRequests(
                                        ContainerAllocateRequest.newBuilder().addAllDevicesIds(ids))
                                .build()));
            } catch (StatusRuntimeException e) {
                // As the kubelet's device manager: a failed Allocate fails the admission, never a second call. The
                // plugin may have served the call before it went away, and a repeated call could be taken for the
                // next pod's.
                throw refused(e);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            record(pod, index, c, resource, ids, response, took);
            return ids;
        }
    }

    private static <T> T uninterruptibly(Future<T> call) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return call.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof StatusRuntimeException s
                            ? s
                            : Status.fromThrowable(e.getCause()).asRuntimeException();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Refused refused(StatusRuntimeException e) {
        return new Refused("Allocate failed due to rpc error: code = "
                + e.getStatus().getCode() + " desc = " + e.getStatus().getDescription() + ", which is unexpected");
    }

    /** Reused IDs first, then free ones; the plugin's preference when it offers one and there is a choice. */
    private List<String> choose(PluginEndpoint endpoint, String resource, int needed, Set<String> reusable)
            throws Refused {
        List<String> healthy = endpoint.healthy();
        List<String> taken = new ArrayList<>(
                reusable.stream().filter(healthy::contains).limit(needed).toList());
        if (taken.size() == needed) {
            return taken;
        }
        var pool = new ArrayList<>(devices.free(endpoint));
        pool.removeAll(taken);
        int missing = needed - taken.size();
        if (pool.size() < missing) {
            throw new Refused(
                    "Allocate failed due to requested number of devices unavailable for " + resource + ". Requested: "
                            + needed + ", Available: " + (pool.size() + taken.size()) + ", which is unexpected");
        }
        if (endpoint.options().getGetPreferredAllocationAvailable() && pool.size() > missing) {
            var available = new ArrayList<>(taken);
            available.addAll(pool);
            List<String> preferred = endpoint
                    .stub()
                    .getPreferredAllocation(PreferredAllocationRequest.newBuilder()
                            .addContainerRequests(ContainerPreferredAllocationRequest.newBuilder()
                                    .addAllAvailableDeviceIDs(available)
                                    .addAllMustIncludeDeviceIDs(taken)
                                    .setAllocationSize(needed))
                            .build())
                    .getContainerResponsesList()
                    .stream()
                    .findFirst()
                    .<List<String>>map(r -> List.copyOf(r.getDeviceIDsList()))
                    .orElse(List.of());
            if (preferred.size() == needed
                    && new HashSet<>(available).containsAll(preferred)
                    && preferred.containsAll(taken)) {
                return List.copyOf(preferred);
            }
        }
        taken.addAll(pool.subList(0, missing));
        return taken;
    }

    private void record(
            Pod pod,
            int index,
            Container c,
            String resource,
            List<String> ids,
            AllocateResponse response,
            Duration took) {
        Map<String, String> env = new TreeMap<>();
        List<ContainerAllocation.Mount> mounts = new ArrayList<>();
        List<ContainerAllocation.DeviceNode> devs = new ArrayList<>();
        for (ContainerAllocateResponse r : response.getContainerResponsesList()) {
            env.putAll(r.getEnvsMap());
            r.getMountsList()
                    .forEach(m -> mounts.add(
                            new ContainerAllocation.Mount(m.getContainerPath(), m.getHostPath(), m.getReadOnly())));
            r.getDevicesList()
                    .forEach(d -> devs.add(new ContainerAllocation.DeviceNode(
                            d.getContainerPath(), d.getHostPath(), d.getPermissions())));
        }
        if (!env.isEmpty() || !mounts.isEmpty() || !devs.isEmpty()) {
            latencies.record(Latencies.ALLOCATE, took);
        }
        log.add(new ContainerAllocation(
                new ContainerAllocation.ContainerRef(
                        pod.getMetadata().getUid(),
                        pod.getMetadata().getNamespace() + "/"
                                + pod.getMetadata().getName(),
                        node,
                        index,
                        c.getName()),
                resource,
                ids,
                new ContainerAllocation.Answer(env, mounts, devs),
                took));
    }
}
