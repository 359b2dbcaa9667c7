package io.hami.nativebind.hydmi;

/** One virtual DCU to create: compute units and memory in MiB (hydmi's unit for creation). */
public record VirtualDeviceSpec(int computeUnits, int memoryMiB) {

    public VirtualDeviceSpec {
        if (computeUnits <= 0 || memoryMiB <= 0) {
            throw new IllegalArgumentException(
                    "compute units and memory must be positive: " + computeUnits + ", " + memoryMiB);
        }
    }
}
