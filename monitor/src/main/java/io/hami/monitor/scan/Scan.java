package io.hami.monitor.scan;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What one pass over the hook folder found.
 *
 * @param folders every container folder, readable region or not (the clean-up looks at all of them)
 * @param regions the regions that could be read, at most one per folder
 * @param skipped region files that are not usable regions, with the reader's reason
 */
public record Scan(List<ContainerFolder> folders, List<ContainerRegion> regions, Map<Path, String> skipped) {
    public static final Scan EMPTY = new Scan(List.of(), List.of(), Map.of());

    public Scan {
        folders = List.copyOf(folders);
        regions = List.copyOf(regions);
        skipped = Map.copyOf(skipped);
    }
}
