package io.hami.backend.mthreads;

import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.spi.VendorKeys;
import java.util.Optional;

/** Every annotation key the Moore Threads backend owns (design D1 in docs/design.md#d1, docs/upstream.md#keys). */
public final class MthreadsKeys {
    /** The type keyword in pod device strings, also the type of every discovered device. */
    public static final String VENDOR = "Mthreads";

    public static final String TO_ALLOCATE = "hami.io/mthreads-vgpu-devices-to-allocate";
    public static final String ALLOCATED = "hami.io/mthreads-vgpu-devices-allocated";
    /** Upstream uses the {@code mthreads.ai} domain for these two, unlike the resource names. */
    public static final DeviceSelector UUID_SELECTOR =
            new DeviceSelector("mthreads.ai/use-gpuuuid", "mthreads.ai/nouse-gpuuuid");

    /** Devices come from node Capacity; there is no register annotation and no handshake. */
    static final VendorKeys VENDOR_KEYS =
            new VendorKeys(Optional.empty(), Optional.empty(), Optional.empty(), TO_ALLOCATE, ALLOCATED);

    private MthreadsKeys() {}
}
