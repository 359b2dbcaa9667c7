package io.hami.plugin.config;

import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Overrides of how cards are shared: upstream's {@code deviceSplitCount}, {@code deviceMemoryScaling} and
 * {@code deviceCoreScaling}. What is not overridden comes from the vendor's defaults (NVIDIA: the device
 * config's {@code nvidia} section; HCU: split 4, upstream's HCU plugin default).
 */
public record Sharing(OptionalInt splitCount, OptionalDouble memoryScaling, OptionalDouble coreScaling) {

    public static final Sharing NONE = new Sharing(OptionalInt.empty(), OptionalDouble.empty(), OptionalDouble.empty());

    public Sharing {
        if (splitCount.isPresent() && splitCount.getAsInt() < 1) {
            throw new IllegalArgumentException("split count must be at least 1, got " + splitCount.getAsInt());
        }
        if (memoryScaling.isPresent() && !(memoryScaling.getAsDouble() > 0)) {
            throw new IllegalArgumentException("memory scaling must be positive, got " + memoryScaling.getAsDouble());
        }
        if (coreScaling.isPresent() && !(coreScaling.getAsDouble() > 0)) {
            throw new IllegalArgumentException("core scaling must be positive, got " + coreScaling.getAsDouble());
        }
    }

    /** These values, with {@code other}'s wherever it has one. */
    public Sharing overriddenBy(Sharing other) {
        return new Sharing(
                other.splitCount.isPresent() ? other.splitCount : splitCount,
                other.memoryScaling.isPresent() ? other.memoryScaling : memoryScaling,
                other.coreScaling.isPresent() ? other.coreScaling : coreScaling);
    }

    public int splitCount(int vendorDefault) {
        return splitCount.orElse(vendorDefault);
    }

    public double memoryScaling(double vendorDefault) {
        return memoryScaling.orElse(vendorDefault);
    }

    public double coreScaling(double vendorDefault) {
        return coreScaling.orElse(vendorDefault);
    }
}
