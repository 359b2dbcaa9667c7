package io.hami.node.hygon;

import io.hami.nativebind.hydmi.Hydmi;
import io.hami.nativebind.hydmi.VirtualDevice;
import io.hami.nativebind.hydmi.VirtualDeviceSpec;
import io.hami.nativebind.rocm.RocmDevice;
import io.hami.plugin.spi.AllocationException;
import io.hami.protocol.device.ContainerDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A virtual HCU for a share of a card: created through hydmi with the granted compute units (the card's units
 * times the granted percent, rounded up) and memory, and described in {@code vdev<id>.conf}, which the
 * container reads at {@code /etc/vdev/docker/}.
 */
final class VirtualHcu {
    private final Hydmi hydmi;
    private final Path confDir;

    VirtualHcu(Hydmi hydmi, Path confDir) {
        this.hydmi = hydmi;
        this.confDir = confDir;
    }

    /** A virtual HCU and its configuration file. */
    record Created(int id, Path conf) {}

    /** Creates the virtual device and its configuration file. */
    Created create(RocmDevice card, ContainerDevice share) throws AllocationException {
        VirtualDevice vdev;
        int units;
        try {
            int cardUnits = hydmi.device(card.index()).computeUnits();
            units = Math.max(1, (int) Math.ceil(cardUnits * share.usedcores() / 100.0));
            List<VirtualDevice> created =
                    hydmi.createVirtualDevices(card.index(), List.of(new VirtualDeviceSpec(units, share.usedmem())));
            if (created.size() != 1) {
                throw new AllocationException(
                        "hydmi created " + created.size() + " virtual devices on HCU " + card.index() + ", expected 1");
            }
            vdev = created.getFirst();
        } catch (RuntimeException e) {
            throw new AllocationException(
                    "virtual HCU of " + share.usedcores() + "% and " + share.usedmem() + " MiB on HCU " + card.index()
                            + " (" + card.identity().serial() + "): " + e.getMessage(),
                    e);
        }
        Path conf = confOf(vdev.id());
        String text = "PciBusId: " + card.location().busId() + "\n"
                + "cu_count: " + units + "\n"
                + "mem: " + share.usedmem() + " MiB\n"
                + "device_id: " + card.index() + "\n"
                + "vdev_id: " + vdev.id() + "\n"
                + "enable: 1\n";
        try {
            Files.createDirectories(confDir);
            Files.writeString(conf, text);
        } catch (IOException e) {
            hydmi.destroyVirtualDevice(vdev.id());
            throw new AllocationException("cannot write " + conf + ": " + e.getMessage(), e);
        }
        return new Created(vdev.id(), conf);
    }

    /** Destroys virtual HCU {@code id} and removes its configuration file. */
    void destroy(int id) throws IOException {
        hydmi.destroyVirtualDevice(id);
        Files.deleteIfExists(confOf(id));
    }

    private Path confOf(int id) {
        return confDir.resolve("vdev" + id + ".conf");
    }
}
