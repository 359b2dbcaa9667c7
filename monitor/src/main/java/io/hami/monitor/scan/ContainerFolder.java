package io.hami.monitor.scan;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * One folder {@code <hook>/containers/<podUID>_<container>} the NVIDIA plugin made for a container.
 *
 * @param modified the folder's last modification, its age for the clean-up rule
 */
public record ContainerFolder(Path dir, String podUid, String container, Instant modified) {

    /** The folder for {@code dir}, empty when its name is not {@code <podUID>_<container>}. */
    public static Optional<ContainerFolder> of(Path dir, Instant modified) {
        String name = dir.getFileName().toString();
        // A pod UID has no underscore and a container name (a DNS label) none either: the first one splits.
        int split = name.indexOf('_');
        if (split <= 0 || split == name.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(new ContainerFolder(dir, name.substring(0, split), name.substring(split + 1), modified));
    }
}
