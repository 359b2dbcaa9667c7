package io.hami.plugin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
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

    @Test
    void filterDevicesAndPreconfiguredMemoryAreReadForThisNode() throws IOException {
        Path f = Files.writeString(dir.resolve("config.json"), """
                {"nodeconfig":[
                  {"name":"n1","preconfigureddevicememory":24576,
                   "filterdevices":{"uuid":["GPU-a","GPU-b"],"index":[3]}},
                  {"name":"n2","filterdevices":{"index":[0]}},
                  {"name":"n2","devicesplitcount":2}
                ]}""");
        Sharing n1 = NodeConfigFile.read(f, "n1");
        assertThat(n1.preConfiguredMemoryMiB()).isEqualTo(OptionalLong.of(24576));
        assertThat(n1.hiddenCards()).isEqualTo(new DeviceFilter(Set.of("GPU-a", "GPU-b"), Set.of(3)));
        assertThat(n1.hiddenCards().hides(3, "GPU-z")).isTrue();
        assertThat(n1.hiddenCards().hides(0, "GPU-b")).isTrue();
        assertThat(n1.hiddenCards().hides(0, "GPU-z")).isFalse();
        // a later entry without filterdevices keeps the earlier one's
        Sharing n2 = NodeConfigFile.read(f, "n2");
        assertThat(n2.hidden()).contains(new DeviceFilter(Set.of(), Set.of(0)));
        assertThat(n2.splitCount()).isEqualTo(OptionalInt.of(2));
        assertThat(Sharing.NONE.hiddenCards()).isEqualTo(DeviceFilter.NONE);
        assertThat(Sharing.NONE.overriddenBy(n1).hidden()).isEqualTo(Optional.of(n1.hiddenCards()));
        assertThat(Sharing.NONE.preConfiguredMemoryMiB(0)).isZero();
    }

    @Test
    void badFilterDevicesAreErrorsThatShowTheShape() throws IOException {
        assertThat(error("{\"filterdevices\":[\"GPU-a\"]}"))
                .isEqualTo("node config key filterdevices must be an object {\"uuid\": [\"GPU-...\"], \"index\": [0]}"
                        + ", got [\"GPU-a\"]");
        assertThat(error("{\"filterdevices\":{\"uuids\":[\"GPU-a\"]}}")).endsWith("; unknown key uuids");
        assertThat(error("{\"filterdevices\":{\"uuid\":\"GPU-a\"}}"))
                .isEqualTo("node config key filterdevices.uuid must be a JSON array, got \"GPU-a\"");
        assertThat(error("{\"filterdevices\":{\"uuid\":[7]}}"))
                .isEqualTo("node config key filterdevices.uuid must list UUIDs (strings), got 7");
        assertThat(error("{\"filterdevices\":{\"index\":[\"1\"]}}"))
                .isEqualTo("node config key filterdevices.index must list device indexes (integers from 0), got \"1\"");
        assertThat(error("{\"filterdevices\":{\"index\":[-1]}}"))
                .isEqualTo("node config key filterdevices.index must list device indexes (integers from 0), got -1");
        assertThat(error("{\"preconfigureddevicememory\":1.5}"))
                .isEqualTo("node config key preconfigureddevicememory must be an integer, got 1.5");
        assertThat(error("{\"preconfigureddevicememory\":-1}"))
                .endsWith("node n1: preconfigured device memory must not be negative, got -1");
    }

    private String error(String entryKeys) throws IOException {
        Path f = Files.writeString(
                dir.resolve("e.json"), "{\"nodeconfig\":[{\"name\":\"n1\"," + entryKeys.substring(1) + "]}");
        try {
            NodeConfigFile.read(f, "n1");
        } catch (IOException e) {
            return e.getMessage();
        }
        throw new AssertionError("no error for " + entryKeys);
    }
}
