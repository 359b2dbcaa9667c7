package io.hami.monitor.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SkippedFilesTest {
    static final Path A = Path.of("/h/containers/u_a/a.cache");
    static final Path B = Path.of("/h/containers/u_b/b.cache");

    @Test
    void eachUnusableFileIsReportedOnceUntilItsReasonChangesOrItRecovers() {
        var files = new SkippedFiles();

        assertThat(files.update(Map.of(A, "truncated: 10 of 4096 bytes")))
                .containsExactly(new SkippedFiles.NewSkip(A, "truncated: 10 of 4096 bytes", "truncated"));
        assertThat(files.update(Map.of(A, "truncated: 10 of 4096 bytes", B, "foreign magic: 0x1")))
                .extracting(SkippedFiles.NewSkip::file)
                .containsExactly(B);
        assertThat(files.update(Map.of(A, "unknown version: 7", B, "foreign magic: 0x1")))
                .extracting(SkippedFiles.NewSkip::kind)
                .containsExactly("unknown_version");
        assertThat(files.update(Map.of())).isEmpty();
        assertThat(files.update(Map.of(B, "foreign magic: 0x1")))
                .extracting(SkippedFiles.NewSkip::file)
                .containsExactly(B);
    }

    @Test
    void reasonKindsAreShortLabelValuesWithoutTheFileOrNumbers() {
        assertThat(SkippedFiles.kind(A, A + ": truncated: 12 bytes, smaller than the region header"))
                .isEqualTo("truncated");
        assertThat(SkippedFiles.kind(A, A + ": changed while read (0 bytes now)"))
                .isEqualTo("changed_while_read");
        assertThat(SkippedFiles.kind(A, A + ": device_num 99 outside 0..16")).isEqualTo("device_num_outside");
        assertThat(SkippedFiles.kind(A, ": nothing")).isEqualTo("unknown");
        assertThat(SkippedFiles.kind(A, "x".repeat(100))).hasSize(40);
    }
}
