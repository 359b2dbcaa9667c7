package io.hami.monitor.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.monitor.scan.ContainerFolder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FolderCleanupTest {
    static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
    static final Duration GRACE = Duration.ofMinutes(5);

    static ContainerFolder folder(String pod, Duration age) {
        return ContainerFolder.of(Path.of("/hook/containers/" + pod + "_main"), NOW.minus(age))
                .orElseThrow();
    }

    @Test
    void removesOnlyFoldersOfUnknownPodsOlderThanTheGracePeriod() {
        var live = folder("uid-live", Duration.ofHours(1));
        var goneOld = folder("uid-gone", Duration.ofMinutes(6));
        var goneNew = folder("uid-new", Duration.ofMinutes(4)); // the informer may not show it yet

        assertThat(FolderCleanup.toRemove(List.of(live, goneOld, goneNew), Set.of("uid-live"), NOW, GRACE))
                .containsExactly(goneOld);
    }

    @Test
    void folderNamesSplitAtTheFirstUnderscore() {
        var f = ContainerFolder.of(Path.of("/h/containers/0a1b-2c_train-er"), NOW)
                .orElseThrow();

        assertThat(f.podUid()).isEqualTo("0a1b-2c");
        assertThat(f.container()).isEqualTo("train-er");
        assertThat(ContainerFolder.of(Path.of("/h/containers/nounderscore"), NOW))
                .isEmpty();
        assertThat(ContainerFolder.of(Path.of("/h/containers/_x"), NOW)).isEmpty();
        assertThat(ContainerFolder.of(Path.of("/h/containers/x_"), NOW)).isEmpty();
    }
}
