package io.hami.plugin.server;

import io.grpc.StatusException;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.PreferredAllocationRequest;
import io.hami.plugin.kubeletapi.PreferredAllocationResponse;

/** What Allocate and GetPreferredAllocation of one resource do. */
public interface AllocationHandler {

    /** Whether the kubelet should call {@link #prefer}. */
    boolean offersPreferences();

    /** @throws StatusException with a message for the kubelet, which then rejects the pod */
    AllocateResponse allocate(AllocateRequest request) throws StatusException;

    /** Never fails: without a preference the kubelet chooses itself. One response per container request. */
    PreferredAllocationResponse prefer(PreferredAllocationRequest request);
}
