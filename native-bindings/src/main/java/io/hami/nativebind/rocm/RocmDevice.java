package io.hami.nativebind.rocm;

/**
 * What the Hygon plugin needs of one DCU. The serial number serves as the device UUID; {@code deviceId}
 * (PCI device id) maps to the model; {@code renderMinor} is N of {@code /dev/dri/renderD<N>};
 * {@code numaNode} is -1 where the library cannot tell.
 */
public record RocmDevice(
        int index,
        String serial,
        String name,
        int deviceId,
        long uniqueId,
        String busId,
        long memoryTotalBytes,
        long memoryUsedBytes,
        int numaNode,
        int renderMinor) {

    /** {@code dddd:bb:dd.f} from ROCm SMI's BDF id encoding. */
    static String busId(long bdfId) {
        return String.format("%04X:%02X:%02X.%X", bdfId >>> 32, (bdfId >> 8) & 0xff, (bdfId >> 3) & 0x1f, bdfId & 0x7);
    }
}
