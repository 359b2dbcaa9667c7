package io.hami.plugin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's per-node config.json, applied over the CLI's sharing values. */
class NodeConfigFileTest {
    @TempDir
    Path dir;

    @Test
    void theEntriesOfThisNodeApplyLaterOnesWinning() throws IOException {
        Path f = Files.writeString(dir.resolve("config.json"), """
                {"nodeconfig":[
                  {"name":"n1","devicesplitcount":4,"devicememoryscaling":1.5},
                  {"name":"n2","devicesplitcount":7},
                  {"name":"n1","devicememoryscaling":2,"devicecorescaling":null}
                ]}""");
        assertThat(NodeConfigFile.read(f, "n1"))
                .isEqualTo(new Sharing(OptionalInt.of(4), OptionalDouble.of(2), OptionalDouble.empty()));
        assertThat(NodeConfigFile.read(f, "n3")).isEqualTo(Sharing.NONE);
        Sharing cli = new Sharing(OptionalInt.of(10), OptionalDouble.empty(), OptionalDouble.of(0.5));
        assertThat(cli.overriddenBy(NodeConfigFile.read(f, "n2")))
                .isEqualTo(new Sharing(OptionalInt.of(7), OptionalDouble.empty(), OptionalDouble.of(0.5)));
    }

    @Test
    void aBrokenFileIsAnErrorNotSilentlyIgnored() throws IOException {
        Path bad = Files.writeString(
                dir.resolve("bad.json"), "{\"nodeconfig\":[{\"name\":\"n1\",\"devicesplitcount\":\"4\"}]}");
        assertThatThrownBy(() -> NodeConfigFile.read(bad, "n1"))
                .isInstanceOf(IOException.class)
                .hasMessage("node config key devicesplitcount must be an integer, got \"4\"");
        Path zero = Files.writeString(
                dir.resolve("zero.json"), "{\"nodeconfig\":[{\"name\":\"n1\",\"devicesplitcount\":0}]}");
        assertThatThrownBy(() -> NodeConfigFile.read(zero, "n1"))
                .isInstanceOf(IOException.class)
                .hasMessage("node config " + zero + ", node n1: split count must be at least 1, got 0");
    }
}
