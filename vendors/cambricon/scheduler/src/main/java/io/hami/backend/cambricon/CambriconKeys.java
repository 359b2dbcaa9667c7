package io.hami.backend.cambricon;

import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.spi.VendorKeys;
import java.util.Optional;

/** Every annotation key the Cambricon MLU backend owns (design D1 in docs/design.md#d1, docs/upstream.md#keys). */
public final class CambriconKeys {
    /** The type keyword in pod device strings, also the type of every discovered device. */
    public static final String VENDOR = "MLU";

    public static final String TO_ALLOCATE = "hami.io/cambricon-mlu-devices-to-allocate";
    public static final String ALLOCATED = "hami.io/cambricon-mlu-devices-allocated";
    public static final DeviceSelector UUID_SELECTOR =
            new DeviceSelector("cambricon.com/use-gpuuuid", "cambricon.com/nouse-gpuuuid");

    /** Devices come from node Capacity; there is no register annotation and no handshake. */
    static final VendorKeys VENDOR_KEYS =
            new VendorKeys(Optional.empty(), Optional.empty(), Optional.empty(), TO_ALLOCATE, ALLOCATED);

    private CambriconKeys() {}
}
