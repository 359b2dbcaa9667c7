package io.hami.plugin.vendor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PodInstancesTest {
    @TempDir
    Path dir;

    @Test
    void whatOnePluginRecordsTheNextOneReads() {
        Path file = dir.resolve("state/cambricon-smlu-instances");
        PodInstances first = PodInstances.open(file);
        first.add("uid-a", 257);
        first.add("uid-b", 3);
        first.add("uid-a", 258);

        PodInstances next = PodInstances.open(file);

        assertThat(next.pods()).containsExactlyInAnyOrder("uid-a", "uid-b");
        assertThat(next.take("uid-a")).containsExactly(257, 258);
        assertThat(next.take("uid-a")).isEmpty();
        assertThat(PodInstances.open(file).pods()).containsExactly("uid-b");
    }

    @Test
    void aMissingFileIsAnEmptyList() {
        assertThat(PodInstances.open(dir.resolve("none")).pods()).isEmpty();
    }

    @Test
    void unreadableLinesAreSkippedAndTheRestKept() throws IOException {
        Path file = dir.resolve("instances");
        Files.writeString(file, """
                # comment
                uid-a 7
                uid-b
                uid c 9
                uid-d -1
                uid-e 99999999999
                uid-f 8 extra

                uid-g 12
                """);

        PodInstances read = PodInstances.open(file);

        assertThat(read.pods()).containsExactlyInAnyOrder("uid-a", "uid-g");
        assertThat(read.take("uid-g")).containsExactly(12);
    }

    @Test
    void aPodUidThatCannotBeWrittenIsRefused() {
        PodInstances instances = PodInstances.open(dir.resolve("instances"));
        assertThatThrownBy(() -> instances.add("a b", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a b'");
        assertThat(instances.pods()).isEmpty();
    }

    @Test
    void aFileThatCannotBeWrittenKeepsTheListInMemory() throws IOException {
        Path notADir = Files.writeString(dir.resolve("file"), "x");
        PodInstances instances = PodInstances.open(notADir.resolve("instances"));
        instances.add("uid-a", 1);
        assertThat(instances.take("uid-a")).containsExactly(1);
    }

    @FuzzTest
    void anyBytesOpenWithoutThrowing(FuzzedDataProvider data) throws IOException {
        byte[] bytes = data.consumeRemainingAsBytes();
        Path file = Files.createTempFile("instances", "");
        try {
            Files.write(file, bytes);
            assertThat(PodInstances.open(file).pods()).doesNotContainNull();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @FuzzTest
    void wellFormedLinesAreKeptAmongNoise(FuzzedDataProvider data) throws IOException {
        List<Map.Entry<String, Integer>> entries = entries(data);
        List<String> noise = noise(data);
        var text = new StringBuilder();
        Map<String, List<Integer>> expected = new TreeMap<>();
        for (int i = 0; i < Math.max(entries.size(), noise.size()); i++) {
            if (i < noise.size()) {
                text.append(noise.get(i)).append('\n');
            }
            if (i < entries.size()) {
                var e = entries.get(i);
                text.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
                expected.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
            }
        }
        Path file = Files.createTempFile("instances", "");
        try {
            Files.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
            PodInstances read = PodInstances.open(file);
            assertThat(read.pods()).containsExactlyInAnyOrderElementsOf(expected.keySet());
            expected.forEach((uid, ids) -> assertThat(read.take(uid)).containsExactlyElementsOf(ids));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static final char[] UID_CHARS = "abcdef0123456789-".toCharArray();

    private static List<Map.Entry<String, Integer>> entries(FuzzedDataProvider data) {
        int size = data.consumeInt(0, 20);
        List<Map.Entry<String, Integer>> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int length = data.consumeInt(1, 36);
            var uid = new StringBuilder(length);
            for (int k = 0; k < length; k++) {
                uid.append(data.pickValue(UID_CHARS));
            }
            out.add(Map.entry(uid.toString(), data.consumeInt(0, 999_999_999)));
        }
        return out;
    }

    /** Lines that can never be an entry: each holds a character no UID or id may hold. */
    private static List<String> noise(FuzzedDataProvider data) {
        int size = data.consumeInt(0, 20);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            // no line breaks inside a line
            String s = data.consumeString(60).replace("\n", "").replace("\r", "");
            out.add(s + "!");
        }
        return out;
    }
}
