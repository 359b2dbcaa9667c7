package io.hami.plugin.config;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Overrides of how cards are shared: upstream's {@code deviceSplitCount}, {@code deviceMemoryScaling} and
 * {@code deviceCoreScaling}, and (per-node config file only) {@code preConfiguredDeviceMemory} and
 * {@code filterdevices}, the cards not shared at all. What is not overridden comes from the vendor's defaults
 * (NVIDIA: the device config's {@code nvidia} section; HCU: split 4, upstream's HCU plugin default).
 *
 * @param preConfiguredMemoryMiB NVIDIA: memory advertised for a GPU whose NVML cannot tell it (0: skip it)
 * @param hidden                 cards to hide; empty: no override (the vendor hides none)
 */
public record Sharing(
        OptionalInt splitCount,
        OptionalDouble memoryScaling,
        OptionalDouble coreScaling,
        OptionalLong preConfiguredMemoryMiB,
        Optional<DeviceFilter> hidden) {

    public static final Sharing NONE = new Sharing(OptionalInt.empty(), OptionalDouble.empty(), OptionalDouble.empty());

    /** Overrides of the split count and scalings only. */
    public Sharing(OptionalInt splitCount, OptionalDouble memoryScaling, OptionalDouble coreScaling) {
        this(splitCount, memoryScaling, coreScaling, OptionalLong.empty(), Optional.empty());
    }

    public Sharing {
        Objects.requireNonNull(preConfiguredMemoryMiB, "preConfiguredMemoryMiB");
        Objects.requireNonNull(hidden, "hidden");
        if (preConfiguredMemoryMiB.isPresent() && preConfiguredMemoryMiB.getAsLong() < 0) {
            throw new IllegalArgumentException(
                    "preconfigured device memory must not be negative, got " + preConfiguredMemoryMiB.getAsLong());
        }
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
                other.coreScaling.isPresent() ? other.coreScaling : coreScaling,
                other.preConfiguredMemoryMiB.isPresent() ? other.preConfiguredMemoryMiB : preConfiguredMemoryMiB,
                other.hidden.isPresent() ? other.hidden : hidden);
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

    public long preConfiguredMemoryMiB(long vendorDefault) {
        return preConfiguredMemoryMiB.orElse(vendorDefault);
    }

    /** The cards to hide: the override, else none. */
    public DeviceFilter hiddenCards() {
        return hidden.orElse(DeviceFilter.NONE);
    }
}
