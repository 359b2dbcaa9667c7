package io.hami.plugin.config;

import java.util.Objects;
import java.util.Set;

/**
 * Upstream's per-node {@code filterdevices} ({@code {"uuid": [...], "index": [...]}}): cards the plugin hides
 * completely, matched by the library's UUID (exactly) or its index. A hidden card is not advertised to the
 * kubelet, not published in the register annotation and not health-checked.
 */
public record DeviceFilter(Set<String> uuids, Set<Integer> indexes) {
    public static final DeviceFilter NONE = new DeviceFilter(Set.of(), Set.of());

    public DeviceFilter {
        uuids = Set.copyOf(Objects.requireNonNull(uuids, "uuids"));
        indexes = Set.copyOf(Objects.requireNonNull(indexes, "indexes"));
        for (String uuid : uuids) {
            if (uuid.isBlank()) {
                throw new IllegalArgumentException("filterdevices.uuid holds an empty UUID");
            }
        }
        for (int index : indexes) {
            if (index < 0) {
                throw new IllegalArgumentException("filterdevices.index must not be negative, got " + index);
            }
        }
    }

    /** Whether the card at library index {@code index} with UUID {@code uuid} is hidden. */
    public boolean hides(int index, String uuid) {
        return indexes.contains(index) || uuids.contains(uuid);
    }
}
