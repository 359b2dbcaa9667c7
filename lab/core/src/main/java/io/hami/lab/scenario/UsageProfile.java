package io.hami.lab.scenario;

import java.util.Locale;

/**
 * What a container does on its GPUs while it runs: the lab starts HAMi-core's stand-in ({@code hami-workload}) for
 * it, writing the container's shared region as HAMi-core would, so the node monitor has real usage to read.
 *
 * @param memory    memory in use per device: {@code 60%} of the container's granted memory, or MiB ({@code 3000})
 * @param sm        SM utilisation in percent, 0..100
 * @param profile   how memory and utilisation move over the container's life
 * @param overLimit the container deliberately uses more than its memory limit (HAMi-core allows it with
 *                  oversubscription); without it, using more is a scenario error and a monitor figure above the limit
 *                  an invariant violation
 */
public record UsageProfile(String memory, Integer sm, Shape profile, Boolean overLimit) {
    public UsageProfile {
        sm = sm == null ? 0 : sm;
        profile = profile == null ? Shape.STEADY : profile;
        overLimit = overLimit != null && overLimit;
    }

    /** How usage moves over time, as {@code hami-workload --profile} moves it. */
    public enum Shape {
        /** The full figures from the start. */
        STEADY,
        /** From zero to the full figures over the container's lifetime. */
        RAMP,
        /** Full figures and a quarter of the memory with no kernels, by turns. */
        BURST;

        public String yamlName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The memory in MiB this profile uses on a device whose limit is {@code limitMib}. */
    public long memoryMib(long limitMib) {
        return MemoryUse.parse(memory).mib(limitMib);
    }

    /** A memory figure: a share of the limit or an amount. */
    public sealed interface MemoryUse {
        long mib(long limitMib);

        /** {@code 60%}: of the container's memory limit on the device. */
        record Percent(double percent) implements MemoryUse {
            @Override
            public long mib(long limitMib) {
                return Math.round(limitMib * percent / 100);
            }
        }

        /** {@code 3000}: MiB, whatever the limit. */
        record Mib(long amount) implements MemoryUse {
            @Override
            public long mib(long limitMib) {
                return amount;
            }
        }

        /** Reads {@code 60%} or {@code 3000}; the message of the exception says what is wrong. */
        static MemoryUse parse(String text) {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException(
                        "is missing (a share of the limit such as 60%, or MiB such as 3000)");
            }
            String t = text.strip();
            try {
                if (t.endsWith("%")) {
                    double p = Double.parseDouble(t.substring(0, t.length() - 1).strip());
                    if (!(p >= 0) || Double.isInfinite(p)) {
                        throw new NumberFormatException();
                    }
                    return new Percent(p);
                }
                long mib = Long.parseLong(t);
                if (mib < 0) {
                    throw new NumberFormatException();
                }
                return new Mib(mib);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "\"" + text + "\" is neither a share of the limit such as 60% nor MiB such as 3000", e);
            }
        }
    }
}
