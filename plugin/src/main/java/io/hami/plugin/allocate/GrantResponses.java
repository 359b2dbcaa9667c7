package io.hami.plugin.allocate;

import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.kubeletapi.DeviceSpec;
import io.hami.plugin.kubeletapi.Mount;
import io.hami.plugin.spi.ContainerGrant;

/** A vendor's {@link ContainerGrant} in the kubelet's words. */
final class GrantResponses {
    private GrantResponses() {}

    static ContainerAllocateResponse of(ContainerGrant grant) {
        ContainerAllocateResponse.Builder r =
                ContainerAllocateResponse.newBuilder().putAllEnvs(grant.env()).putAllAnnotations(grant.annotations());
        for (ContainerGrant.Mount m : grant.mounts()) {
            r.addMounts(Mount.newBuilder()
                    .setContainerPath(m.containerPath())
                    .setHostPath(m.hostPath())
                    .setReadOnly(m.readOnly()));
        }
        for (ContainerGrant.DeviceNode d : grant.devices()) {
            r.addDevices(DeviceSpec.newBuilder()
                    .setContainerPath(d.containerPath())
                    .setHostPath(d.hostPath())
                    .setPermissions(d.permissions()));
        }
        return r.build();
    }
}
