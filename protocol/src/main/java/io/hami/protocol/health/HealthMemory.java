package io.hami.protocol.health;

/**
 * What a health rule remembers about one node between rounds (NVIDIA compares the Allocatable count and
 * the register value with the previous round).
 *
 * @param reportedCount    the vendor's Allocatable count seen last round
 * @param reportedRegister the register annotation seen last round, or empty
 */
public record HealthMemory(long reportedCount, String reportedRegister) {
    public static final HealthMemory NONE = new HealthMemory(0, "");
}
