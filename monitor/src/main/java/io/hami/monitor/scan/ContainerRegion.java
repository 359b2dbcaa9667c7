package io.hami.monitor.scan;

import io.hami.nativebind.hamicore.SharedRegion;
import java.nio.file.Path;

/**
 * One container's shared region as one scan read it.
 *
 * @param file the {@code *.cache} file, where control writes go
 * @param podUid the pod's UID, from the folder name {@code <podUID>_<container>}
 * @param container the container's name, from the folder name
 */
public record ContainerRegion(Path file, String podUid, String container, SharedRegion region) {}
