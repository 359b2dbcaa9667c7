package io.hami.nativebind.rocm;

/**
 * What the Hygon plugin needs of one DCU, at position {@code index} of ROCm SMI's order.
 *
 * @param identity what the card is
 * @param memory   its VRAM
 * @param location where it sits on the host
 */
public record RocmDevice(int index, Identity identity, Memory memory, Location location) {

    /**
     * @param serial   the serial number, which serves as the device UUID
     * @param name     the model name
     * @param deviceId the PCI device id, which maps to the model
     * @param uniqueId ROCm SMI's unique id
     */
    public record Identity(String serial, String name, int deviceId, long uniqueId) {}

    /** VRAM in bytes. */
    public record Memory(long totalBytes, long usedBytes) {}

    /**
     * @param busId       {@code dddd:bb:dd.f}
     * @param numaNode    -1 where the library cannot tell
     * @param renderMinor N of {@code /dev/dri/renderD<N>}
     */
    public record Location(String busId, int numaNode, int renderMinor) {}

    /** {@code dddd:bb:dd.f} from ROCm SMI's BDF id encoding. */
    static String busId(long bdfId) {
        return String.format("%04X:%02X:%02X.%X", bdfId >>> 32, (bdfId >> 8) & 0xff, (bdfId >> 3) & 0x1f, bdfId & 0x7);
    }
}
