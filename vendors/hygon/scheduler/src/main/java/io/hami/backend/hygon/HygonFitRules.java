package io.hami.backend.hygon;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitRules;

/** Hygon's checks in the fit walk: type selector and UUID selector. */
final class HygonFitRules implements FitRules {
    static final HygonFitRules INSTANCE = new HygonFitRules();

    private HygonFitRules() {}

    /** The request is Hygon's and the device type passes {@code hygon.com/use-hcutype}/{@code nouse-hcutype}. */
    @Override
    public boolean typeMatches(DeviceInfo device, ContainerRequest request, FitContext context) {
        return HygonKeys.VENDOR.equals(request.type())
                && HygonKeys.TYPE_SELECTOR.byType(context.podAnnotations()).test(device.type());
    }

    @Override
    public DeviceSelector uuidSelector() {
        return HygonKeys.UUID_SELECTOR;
    }
}
