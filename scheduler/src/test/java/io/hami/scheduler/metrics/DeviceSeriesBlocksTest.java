package io.hami.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.DeviceInfo;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Device lines compressed in blocks of nodes: a block is compressed again only when one of its nodes changed or left. */
class DeviceSeriesBlocksTest {
    final UsageIndex index = new UsageIndex();
    final DeviceSeries series = new DeviceSeries(index);

    static String node(int n) {
        return "node-%05d".formatted(n);
    }

    /** {@code nodes} nodes of 4 GPUs and, on every third, an MLU without memory whose type holds spaces and quotes. */
    void cluster(int nodes) {
        for (int n = 0; n < nodes; n++) {
            var gpus = new ArrayList<DeviceInfo>();
            for (int g = 0; g < 4; g++) {
                gpus.add(ExpositionTest.gpu(node(n) + "-G" + g, g, "NVIDIA-A100", 40_000));
            }
            index.putNode(
                    node(n),
                    Map.of(),
                    n % 3 == 0
                            ? Map.of(
                                    "NVIDIA",
                                    gpus,
                                    "MLU",
                                    List.of(ExpositionTest.gpu(node(n) + "-mlu", 0, "MLU \"370\" \\ x y", 0)))
                            : Map.of("NVIDIA", gpus),
                    Map.of());
            use(n, "p", 1 + n % 7);
        }
    }

    void use(int node, String pod, int mem) {
        Map<String, Grant> grants = node % 3 == 0
                ? Map.of(
                        node(node) + "-G" + (mem % 4),
                        new Grant(1, mem, mem % 50),
                        node(node) + "-mlu",
                        new Grant(1, 0, mem % 30))
                : Map.of(node(node) + "-G" + (mem % 4), new Grant(1, mem, mem % 50));
        index.putPod("ns/" + node(node) + "-" + pod, new PodUsage.Counted(node(node), grants, Map.of()));
    }

    static String plain(DeviceSeries series) throws IOException {
        var out = new ByteArrayOutputStream();
        DeviceSeries.write(out, series.current(false).nodes(), false);
        return out.toString(StandardCharsets.UTF_8);
    }

    static String gzip(DeviceSeries.Lines lines) throws IOException {
        var body = new GzipBody(1024);
        DeviceSeries.write(body, lines, false);
        return ExpositionTest.gunzip(body.finish());
    }

    /** The lines a fresh series renders from scratch: what the kept and updated ones must equal byte for byte. */
    String fresh() throws IOException {
        return plain(new DeviceSeries(index));
    }

    /** The block holding {@code node}. */
    static DeviceSeries.Block blockOf(DeviceSeries.Lines lines, String node) {
        for (DeviceSeries.Block b : lines.blocks()) {
            for (DeviceSeries.NodeLines n : b.members()) {
                if (n.node.equals(node)) {
                    return b;
                }
            }
        }
        throw new AssertionError(node + " in no block");
    }

    @Test
    void blocksCoverEveryNodeInOrder() throws IOException {
        cluster(1000);

        DeviceSeries.Lines lines = series.current(true);

        var covered = new ArrayList<DeviceSeries.NodeLines>();
        for (DeviceSeries.Block b : lines.blocks()) {
            covered.addAll(List.of(b.members()));
        }
        assertThat(covered).containsExactlyElementsOf(lines.nodes());
        assertThat(lines.blocks())
                .hasSize((1000 + DeviceSeries.BLOCK - 1) / DeviceSeries.BLOCK)
                .allMatch(b -> b.members().length <= DeviceSeries.BLOCK);
        assertThat(gzip(lines)).isEqualTo(plain(series)).isEqualTo(fresh());
    }

    @Test
    void oneChangedNodeRecompressesItsBlockOnly() throws IOException {
        cluster(300);
        DeviceSeries.Lines before = series.current(true);
        String changed = node(150);
        DeviceSeries.Block hit = blockOf(before, changed);

        use(150, "new", 4321);
        DeviceSeries.Lines after = series.current(true);

        var redone = new ArrayList<String>();
        for (DeviceSeries.Block b : after.blocks()) {
            if (!before.blocks().contains(b)) {
                Arrays.stream(b.members()).forEach(n -> redone.add(n.node));
            }
        }
        assertThat(redone)
                .containsExactlyElementsOf(
                        Arrays.stream(hit.members()).map(n -> n.node).toList());
        assertThat(after.blocks().stream().filter(before.blocks()::contains))
                .hasSize(before.blocks().size() - 1);
        String text = gzip(after);
        assertThat(text).isEqualTo(plain(series)).isEqualTo(fresh());
        assertThat(text)
                .contains(
                        "hami_gpu_memory_allocated_bytes{device_cores=\"100\",device_index=\"1\",device_type=\"NVIDIA-A100\","
                                + "device_uuid=\"node-00150-G1\",node=\"node-00150\",zone=\"vGPU\"} "
                                + 4321 * 1024.0 * 1024 + "\n");
    }

    @Test
    void manyChangedNodesAreAllRenderedAgainFromTheirKeptLabels() throws IOException {
        cluster(300);
        series.current(true);

        for (int n = 0; n < 300; n++) {
            use(n, "p", 2 + n % 11); // another GPU, memory and cores than before, MLU cores too
        }
        DeviceSeries.Lines after = series.current(true);

        String text = gzip(after);
        assertThat(text).isEqualTo(plain(series)).isEqualTo(fresh());
        assertThat(text)
                .contains("hami_gpu_core_allocated_ratio{device_index=\"0\",device_type=\"MLU \\\"370\\\" \\\\ x y\","
                        + "device_uuid=\"node-00003-mlu\",node=\"node-00003\",zone=\"vGPU\"} " + (2 + 3 % 11) % 30 * 1.0
                        + "\n");

        // and back: lines whose value is unchanged are copied, the others keep their label text
        for (int n = 0; n < 300; n += 2) {
            use(n, "p", 1 + n % 7);
        }
        assertThat(gzip(series.current(true))).isEqualTo(plain(series)).isEqualTo(fresh());
    }

    @Test
    void aNodeRemovedOrAddedInsideABlockChangesThatBlockOnly() throws IOException {
        cluster(300);
        DeviceSeries.Lines before = series.current(true);
        DeviceSeries.Block long3 = before.blocks().stream()
                .filter(b -> b.members().length >= 3)
                .findFirst()
                .orElseThrow();
        String removed = long3.members()[1].node;

        index.removeNode(removed);
        DeviceSeries.Lines after = series.current(true);

        assertThat(after.blocks()).hasSameSizeAs(before.blocks());
        DeviceSeries.Block redone = blockOf(after, long3.members()[0].node);
        assertThat(redone.members()).hasSize(long3.members().length - 1).noneMatch(n -> n.node.equals(removed));
        assertThat(after.blocks().stream().filter(b -> !before.blocks().contains(b)))
                .containsExactly(redone);
        String text = gzip(after);
        assertThat(text).isEqualTo(plain(series)).isEqualTo(fresh()).doesNotContain("node=\"" + removed + "\"");

        // back, with a new inventory (another device, rendered in full): a block of its own between its neighbours
        index.putNode(
                removed,
                Map.of(),
                Map.of("NVIDIA", List.of(ExpositionTest.gpu(removed + "-NEW", 0, "NVIDIA-H100", 80_000))),
                Map.of());
        DeviceSeries.Lines back = series.current(true);
        assertThat(blockOf(back, removed).members()).hasSize(1);
        assertThat(back.blocks().stream()
                        .filter(b -> !after.blocks().contains(b))
                        .flatMap(b -> Arrays.stream(b.members()))
                        .map(n -> n.node))
                .containsExactlyElementsOf(
                        Arrays.stream(long3.members()).map(n -> n.node).toList());
        assertThat(gzip(back))
                .isEqualTo(plain(series))
                .isEqualTo(fresh())
                .contains("device_uuid=\"" + removed + "-NEW\"");
    }

    @Test
    void aChangeOfUsageRecompressesOnlyTheFamiliesItChanges() throws IOException {
        cluster(300);
        DeviceSeries.Lines before = series.current(true);

        for (int n = 0; n < 300; n++) {
            use(n, "p", 1 + n % 7 + 300); // the same GPU and cores, more memory: memory families only
        }
        DeviceSeries.Lines after = series.current(true);

        assertThat(after.blocks()).hasSameSizeAs(before.blocks());
        int limit = DeviceSeries.NAMES.indexOf(DeviceUsageCollector.MEMORY_LIMIT);
        int cores = DeviceSeries.NAMES.indexOf(DeviceUsageCollector.CORE_ALLOCATED);
        int memory = DeviceSeries.NAMES.indexOf(DeviceUsageCollector.MEMORY_ALLOCATED);
        for (int b = 0; b < after.blocks().size(); b++) {
            byte[][] was = before.blocks().get(b).deflated();
            byte[][] now = after.blocks().get(b).deflated();
            assertThat(after.blocks().get(b)).isNotEqualTo(before.blocks().get(b));
            assertThat(now[limit]).isSameAs(was[limit]);
            assertThat(now[cores]).isSameAs(was[cores]);
            assertThat(now[memory]).isNotSameAs(was[memory]);
        }
        assertThat(gzip(after)).isEqualTo(plain(series)).isEqualTo(fresh());
    }
}
