package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusException;
import io.hami.kube.client.ApiErrors;
import io.hami.kube.events.PodEvents;
import io.hami.kube.lock.NodeLockClient;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.kubeletapi.PreferredAllocationRequest;
import io.hami.plugin.kubeletapi.PreferredAllocationResponse;
import io.hami.plugin.server.AllocationHandler;
import io.hami.plugin.spi.AllocationException;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.spi.VendorPlugin;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Allocate of a vendor's count resource (design D4, docs/design.md#d4): find the pod ({@link PodLocator}), take this vendor's next entry
 * for each container request, write the to-allocate value with those entries emptied in one patch guarded by the
 * pod's resourceVersion (so two Allocates can never consume the same entry), let the vendor set the devices up,
 * then finish the pod when no vendor's entries are left. An Allocate that matches no pod fails and writes
 * nothing on any pod (one that cannot be told from a pod without a decision also leaves a Warning event on the
 * pods involved); one that fails after its pod was found marks the pod failed and releases the node lock.
 */
public final class EntryAllocation implements AllocationHandler {
    /** The reason of an Allocate refused because the lock holder cannot be told from a pod without a decision. */
    public static final String ALLOCATION_AMBIGUOUS = "AllocationAmbiguous";

    private static final Logger LOG = LoggerFactory.getLogger(EntryAllocation.class);
    /** Consumption attempts when the pod changes between reading and writing it. */
    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;
    private final PodLocator locator;
    private final PodOutcome outcome;
    private final VendorPlugin vendor;
    private final String toAllocateKey;
    private final Map<String, PhysicalDevice> cardsBySchedulerId;
    private final Preferences preferences;
    /** The kubelet may call concurrently; one Allocate at a time keeps the per-node story simple to reason about. */
    private final ReentrantLock serial = new ReentrantLock();
    /** Frees what ended pods still hold before new instances are made, so a busy card is not full of leftovers. */
    private final Runnable freeEnded;

    private final PodEvents events;

    /**
     * @param resource the kubelet resource this handler serves (the vendor's count resource)
     * @param events   where refusals a user must see are reported
     */
    public EntryAllocation(
            KubernetesClient client,
            NodeLockClient locks,
            String node,
            VendorPlugin vendor,
            String resource,
            Map<String, PhysicalDevice> replicaCards,
            List<String> everyToAllocateKey,
            Duration ambiguityWait,
            Runnable freeEnded,
            PodEvents events) {
        this.client = client;
        this.freeEnded = freeEnded;
        this.events = events;
        this.vendor = vendor;
        this.toAllocateKey = vendor.backend().keys().toAllocateKey();
        this.locator =
                new PodLocator(client, locks, node, vendor.backend().vendor(), resource, toAllocateKey, ambiguityWait);
        this.outcome = new PodOutcome(client, locks, node, everyToAllocateKey);
        this.cardsBySchedulerId = vendor.devices().stream()
                .collect(Collectors.toUnmodifiableMap(PhysicalDevice::schedulerId, Function.identity()));
        this.preferences = new Preferences(locator, toAllocateKey, cardsBySchedulerId, replicaCards);
    }

    @Override
    public boolean offersPreferences() {
        return true;
    }

    @Override
    public PreferredAllocationResponse prefer(PreferredAllocationRequest request) {
        return preferences.prefer(request);
    }

    @Override
    public AllocateResponse allocate(AllocateRequest request) throws StatusException {
        String vendorName = vendor.backend().vendor();
        if (request.getContainerRequestsCount() == 0) {
            throw status(Status.INVALID_ARGUMENT, "Allocate without container requests");
        }
        for (ContainerAllocateRequest c : request.getContainerRequestsList()) {
            if (c.getDevicesIdsCount() == 0) {
                throw status(
                        Status.INVALID_ARGUMENT,
                        "Allocate of " + vendorName + " with a container request of no device");
            }
        }
        serial.lock();
        try {
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                Pod pod = locate();
                EntryPlan plan;
                try {
                    plan = EntryPlan.of(
                            pod, vendorName, toAllocateKey, request.getContainerRequestsList(), cardsBySchedulerId);
                } catch (EntryPlan.Unservable e) {
                    outcome.fail(pod, e.getMessage());
                    throw status(Status.FAILED_PRECONDITION, e.getMessage());
                }
                if (Context.current().isCancelled()) {
                    // The kubelet gave up (its deadline, its restart): whoever calls next must find the entry unspent.
                    throw status(
                            Status.CANCELLED,
                            "the kubelet cancelled this Allocate before " + vendorName + " devices of pod "
                                    + WaitingPods.name(pod) + " were consumed; nothing was served");
                }
                Pod patched;
                try {
                    patched = consume(pod, plan.newValue());
                } catch (KubernetesClientException e) {
                    if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                        LOG.info("pod {} changed while allocating, reading it again", WaitingPods.name(pod));
                        continue;
                    }
                    String why = "cannot write " + toAllocateKey + " of pod " + WaitingPods.name(pod) + ": "
                            + ApiErrors.describe(e);
                    outcome.fail(pod, why);
                    throw status(Status.UNAVAILABLE, why);
                }
                AllocateResponse response = grant(patched, plan.targets());
                outcome.completeIfDone(patched);
                return response;
            }
            throw status(
                    Status.ABORTED,
                    "the pod being allocated changed " + ATTEMPTS + " times while " + vendorName
                            + " devices were consumed; the kubelet retries the pod");
        } finally {
            serial.unlock();
        }
    }

    private Pod locate() throws StatusException {
        Match match;
        try {
            match = locator.locate(true);
        } catch (KubernetesClientException e) {
            throw status(
                    Status.UNAVAILABLE, "cannot read the node lock or the pods of this node: " + ApiErrors.describe(e));
        }
        return switch (match) {
            case Match.Serve serve -> serve.pod();
            case Match.Ambiguous a -> throw status(Status.FAILED_PRECONDITION, a.reason());
            case Match.Indistinguishable i -> {
                LOG.warn("{}", i.reason());
                Stream.concat(Stream.of(i.holder()), i.undecided().stream())
                        .forEach(p -> events.emit(p, "Warning", ALLOCATION_AMBIGUOUS, i.reason()));
                throw status(Status.FAILED_PRECONDITION, i.reason());
            }
            case Match.Unmatched u -> throw status(Status.FAILED_PRECONDITION, u.reason());
        };
    }

    private Pod consume(Pod pod, String newValue) {
        return client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        AnnotationPatch.mergePatch(
                                Map.of(toAllocateKey, newValue),
                                Map.of(),
                                pod.getMetadata().getResourceVersion()));
    }

    private AllocateResponse grant(Pod patched, List<AllocationTarget> targets) throws StatusException {
        AllocateResponse.Builder response = AllocateResponse.newBuilder();
        for (AllocationTarget target : targets) {
            try {
                freeEnded.run();
                response.addContainerResponses(GrantResponses.of(vendor.allocate(target)));
            } catch (AllocationException | RuntimeException e) {
                String why = vendor.backend().vendor() + " devices of container " + target.containerName() + " of pod "
                        + WaitingPods.name(patched) + " could not be set up: " + e.getMessage();
                outcome.fail(patched, why);
                throw status(Status.INTERNAL, why);
            }
            LOG.info(
                    "pod {} container {}: allocated {}",
                    WaitingPods.name(patched),
                    target.containerName(),
                    target.granted());
        }
        return response.build();
    }

    private static StatusException status(Status status, String message) {
        return status.withDescription(message).asException();
    }
}
