package io.hami.backend.hygon;

import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.spi.VendorKeys;
import java.util.Optional;

/**
 * Every annotation key the Hygon HCU backend owns (design D1 in docs/design.md#d1: the HCU names of the protocol docs, not
 * upstream's older DCU names).
 */
public final class HygonKeys {
    /** The type keyword in pod device strings. */
    public static final String VENDOR = "HCU";

    /** Node: the device inventory, legacy colon form. */
    public static final String REGISTER = "hami.io/node-hcu-register";

    public static final String HANDSHAKE = "hami.io/node-handshake-hcu";
    public static final String TO_ALLOCATE = "hami.io/hcu-devices-to-allocate";
    public static final String ALLOCATED = "hami.io/hcu-devices-allocated";
    public static final DeviceSelector TYPE_SELECTOR =
            new DeviceSelector("hygon.com/use-hcutype", "hygon.com/nouse-hcutype");
    public static final DeviceSelector UUID_SELECTOR =
            new DeviceSelector("hygon.com/use-gpuuuid", "hygon.com/nouse-gpuuuid");

    static final VendorKeys VENDOR_KEYS = new VendorKeys(
            Optional.of(REGISTER), Optional.of(RegisterCodec.COLON), Optional.of(HANDSHAKE), TO_ALLOCATE, ALLOCATED);

    private HygonKeys() {}
}
