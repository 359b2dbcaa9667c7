package io.hami.plugin.server;

import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.kubeletapi.ContainerPreferredAllocationResponse;
import io.hami.plugin.kubeletapi.PreferredAllocationRequest;
import io.hami.plugin.kubeletapi.PreferredAllocationResponse;

/**
 * Allocate of a resource that only advertises capacity (Cambricon's and Moore Threads' cores and memory): the
 * container's devices come with the vendor's count resource, so these grant nothing and touch no pod.
 */
public final class CapacityAllocation implements AllocationHandler {

    @Override
    public boolean offersPreferences() {
        return false;
    }

    @Override
    public AllocateResponse allocate(AllocateRequest request) {
        AllocateResponse.Builder response = AllocateResponse.newBuilder();
        request.getContainerRequestsList()
                .forEach(c -> response.addContainerResponses(ContainerAllocateResponse.getDefaultInstance()));
        return response.build();
    }

    @Override
    public PreferredAllocationResponse prefer(PreferredAllocationRequest request) {
        PreferredAllocationResponse.Builder response = PreferredAllocationResponse.newBuilder();
        request.getContainerRequestsList()
                .forEach(
                        c -> response.addContainerResponses(ContainerPreferredAllocationResponse.getDefaultInstance()));
        return response.build();
    }
}
