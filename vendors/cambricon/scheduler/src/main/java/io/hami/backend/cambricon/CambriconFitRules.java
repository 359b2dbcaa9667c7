package io.hami.backend.cambricon;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitRules;

/**
 * Cambricon's checks in the fit walk: only the request type and the UUID selector. Upstream declares type
 * selector annotations for MLU but never reads them, so they are not part of the rule.
 */
final class CambriconFitRules implements FitRules {
    static final CambriconFitRules INSTANCE = new CambriconFitRules();

    private CambriconFitRules() {}

    @Override
    public boolean typeMatches(DeviceInfo device, ContainerRequest request, FitContext context) {
        return CambriconKeys.VENDOR.equals(request.type());
    }

    @Override
    public DeviceSelector uuidSelector() {
        return CambriconKeys.UUID_SELECTOR;
    }
}
