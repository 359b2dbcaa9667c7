package io.hami.monitor.cleanup;

import io.hami.monitor.scan.ContainerFolder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Which container folders to remove: those of pods the node no longer has, once older than the grace period
 * (upstream: the resync interval, 5 min), so a folder the plugin made for a pod the informer has not shown yet
 * stays. The caller asks only when its pod view is complete (the informer has synced).
 */
public final class FolderCleanup {
    private FolderCleanup() {}

    public static List<ContainerFolder> toRemove(
            List<ContainerFolder> folders, Set<String> livePodUids, Instant now, Duration grace) {
        Instant cutoff = now.minus(grace);
        return folders.stream()
                .filter(f -> !livePodUids.contains(f.podUid()))
                .filter(f -> f.modified().isBefore(cutoff))
                .toList();
    }
}
