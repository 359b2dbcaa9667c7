package io.hami.lab.usage;

import java.time.Duration;
import java.util.List;

/**
 * One container's memory on one GPU over the run, as its node monitor reported it, against its limit.
 *
 * @param usage     the last figure (pod, container, device, UUID, memory, limit)
 * @param profile   the container's usage profile, as the scenario wrote it ({@code ramp, 60%, sm 40})
 * @param overLimit whether the profile lets it exceed its limit
 * @param points    memory in use at each sample
 */
public record UsageSeries(ContainerUsage usage, String profile, boolean overLimit, List<Point> points) {
    public UsageSeries {
        points = List.copyOf(points);
    }

    /** @param at time since the run started */
    public record Point(Duration at, long usedBytes) {}

    public long peakBytes() {
        return points.stream().mapToLong(Point::usedBytes).max().orElse(0);
    }
}
