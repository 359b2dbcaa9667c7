package io.hami.backend.mthreads;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitRules;

/** Moore Threads' checks in the fit walk: type, UUID selector, and one device per pod. */
final class MthreadsFitRules implements FitRules {
    static final MthreadsFitRules INSTANCE = new MthreadsFitRules();

    private MthreadsFitRules() {}

    /** The device type contains the request type (case-sensitive), and the request is Moore Threads'. */
    @Override
    public boolean typeMatches(DeviceInfo device, ContainerRequest request, FitContext context) {
        return device.type().contains(request.type()) && MthreadsKeys.VENDOR.equals(request.type());
    }

    @Override
    public DeviceSelector uuidSelector() {
        return MthreadsKeys.UUID_SELECTOR;
    }

    /** Every device granted to earlier containers of the pod is this device: a pod's sGPUs share one GPU. */
    @Override
    public boolean customRule(DeviceUsage device, FitContext context) {
        return context.podGrantsSoFar().stream()
                .allMatch(grant -> grant.uuid().equals(device.device().id()));
    }
}
