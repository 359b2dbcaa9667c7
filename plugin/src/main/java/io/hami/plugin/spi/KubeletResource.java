package io.hami.plugin.spi;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;

/**
 * One extended resource the plugin serves to the kubelet, on its own socket.
 *
 * @param name            the resource name, e.g. {@code nvidia.com/gpu}
 * @param consumesEntries whether Allocate of this resource serves the scheduler's decision (the vendor's count
 *                        resource). The other resources exist only so that the node's capacity advertises
 *                        cores and memory (Cambricon, Moore Threads); their Allocate grants nothing.
 * @param replicas        the kubelet device IDs of one card
 * @param numaTopology    whether device IDs carry the card's NUMA node
 */
public record KubeletResource(
        String name, boolean consumesEntries, Function<PhysicalDevice, List<String>> replicas, boolean numaTopology) {
    public KubeletResource {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(replicas, "replicas");
        if (name.indexOf('/') <= 0) {
            throw new IllegalArgumentException("an extended resource name needs a domain: " + name);
        }
    }

    /**
     * The socket file name in the device-plugin directory: first label of the domain, a dash, the name after
     * the slash, as upstream names {@code nvidia.com/gpu} {@code nvidia-gpu.sock}.
     */
    public String socketName() {
        int slash = name.indexOf('/');
        String domain = name.substring(0, slash);
        int dot = domain.indexOf('.');
        return (dot < 0 ? domain : domain.substring(0, dot)) + "-" + name.substring(slash + 1) + ".sock";
    }

    /** {@code <uuid>-<n>} for {@code n} in 0..count-1: NVIDIA's and HCU's replicas of one card. */
    public static Function<PhysicalDevice, List<String>> numbered(int count) {
        return d -> IntStream.range(0, count).mapToObj(n -> d.uuid() + "-" + n).toList();
    }

    /** {@code <uuid>-<infix>-<n>} for {@code n} in first..first+count-1, count taken from the card. */
    public static Function<PhysicalDevice, List<String>> named(
            String infix, int first, ToIntFunction<PhysicalDevice> count) {
        return d -> IntStream.range(first, first + count.applyAsInt(d))
                .mapToObj(n -> d.uuid() + "-" + infix + "-" + n)
                .toList();
    }
}
