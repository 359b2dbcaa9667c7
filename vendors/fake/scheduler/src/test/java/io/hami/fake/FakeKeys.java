package io.hami.fake;

import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.spi.VendorKeys;
import java.util.Optional;

/** Every key and resource name of the fake XPU vendor; devices come from node capacity, as for Cambricon. */
final class FakeKeys {
    /** The type keyword in pod device strings and the {@code --backend} name's vendor. */
    static final String VENDOR = "FAKE";

    static final String BACKEND_NAME = "fake";

    static final String COUNT = "fake.example.com/xpu";
    static final String MEMORY = "fake.example.com/xpu-memory";
    static final String CORES = "fake.example.com/xpu-cores";
    /** MiB per unit of {@link #MEMORY}. */
    static final int MEMORY_UNIT_MIB = 1024;

    static final int CORES_PER_XPU = 100;
    /** Kubelet IDs of the count resource per card: how many containers may share one. */
    static final int TASKS_PER_XPU = 10;
    /** Device {@code i} of node {@code n} is {@code n-fake-xpu-i} for the scheduler. */
    static final String ID_INFIX = "fake-xpu";

    static final String TO_ALLOCATE = "hami.io/fake-xpu-devices-to-allocate";
    static final String ALLOCATED = "hami.io/fake-xpu-devices-allocated";
    static final DeviceSelector UUID_SELECTOR =
            new DeviceSelector("fake.example.com/use-xpuuuid", "fake.example.com/nouse-xpuuuid");
    static final VendorKeys VENDOR_KEYS =
            new VendorKeys(Optional.empty(), Optional.empty(), Optional.empty(), TO_ALLOCATE, ALLOCATED);

    private FakeKeys() {}
}
