package io.hami.protocol.codec;

import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * The node lock value {@code <RFC3339 time>,<namespace>,<pod name>} (design D5, docs/design.md#d5). A legacy lock carries
 * only the time; its namespace and name are empty.
 */
public record NodeLock(OffsetDateTime time, String namespace, String name) {
    public NodeLock {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        time = time.withNano(0);
    }

    public boolean isLegacy() {
        return namespace.isEmpty() && name.isEmpty();
    }

    public boolean isHeldBy(String podNamespace, String podName) {
        return !isLegacy() && namespace.equals(podNamespace) && name.equals(podName);
    }
}
