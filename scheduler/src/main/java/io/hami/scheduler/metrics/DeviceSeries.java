package io.hami.scheduler.metrics;

import io.hami.protocol.fit.DeviceUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.hami.scheduler.usage.UsageIndex.NodeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.zip.Deflater;

/**
 * The per-device gauges of {@link DeviceUsageCollector} as the {@code /metrics} server writes them: each node's
 * sample lines are rendered once per family when that node's usage or inventory changes, and a scrape only
 * concatenates them, family by family under one {@code # HELP}/{@code # TYPE}. At 5,000 nodes × 8 GPUs that is
 * 280,000 lines a scrape no longer formats; a node whose usage changed keeps the label text of its lines. For gzip
 * the lines of up to {@link #BLOCK} consecutive nodes are also kept compressed per family, as raw deflate segments
 * ending on a byte boundary, which {@link GzipBody} joins into one gzip member; a block is compressed again when
 * one of its nodes changed or was removed (a segment per node and family, as before, cost a deflate block with its
 * Huffman trees each: 0.9 s after every node changed at 5,000 nodes).
 *
 * <p>A node's lines are current when the index hands out the same snapshot object as when they were rendered
 * (the index replaces it on every change of the node) or one with equal devices and usage (a pod update that
 * changed nothing there).
 */
final class DeviceSeries {
    private static final double MIB = 1024 * 1024;

    /** One family: its name, help, which label set its samples carry, and its value per device. */
    private record Family(String name, String help, int labels, Value value) {}

    private interface Value {
        /** The sample's value, or NaN for no sample (the memory ratio of a device without memory). */
        double of(DeviceUsage usage);
    }

    private static final int BASE = 0;
    private static final int WITH_CORES = 1;
    private static final int OVERVIEW = 2;

    /** Upstream's per-device families (docs/upstream.md#metrics), help texts as {@link DeviceUsageCollector} has them. */
    private static final Family[] FAMILIES = {
        new Family(
                DeviceUsageCollector.MEMORY_LIMIT,
                "Device memory limit for a certain GPU",
                BASE,
                u -> u.device().devmem() * MIB),
        new Family(
                DeviceUsageCollector.CORE_LIMIT,
                "Device core limit for a certain GPU",
                BASE,
                u -> u.device().devcore()),
        new Family(
                DeviceUsageCollector.MEMORY_ALLOCATED,
                "Device memory allocated for a certain GPU",
                WITH_CORES,
                u -> u.usedmem() * MIB),
        new Family(DeviceUsageCollector.SHARED_COUNT, "Number of containers sharing this GPU", BASE, DeviceUsage::used),
        new Family(
                DeviceUsageCollector.CORE_ALLOCATED,
                "Device core allocated for a certain GPU",
                BASE,
                DeviceUsage::usedcores),
        new Family(DeviceUsageCollector.OVERVIEW, "GPU overview on a certain node", OVERVIEW, u -> u.usedmem() * MIB),
        new Family(
                DeviceUsageCollector.MEMORY_RATIO,
                "GPU Memory Allocated Percentage on a certain GPU",
                BASE,
                u -> u.device().devmem() > 0 ? (double) u.usedmem() / u.device().devmem() : Double.NaN),
    };

    /** The family names this class writes; the registry's scrape leaves them out when this class serves them. */
    static final List<String> NAMES;

    static {
        var names = new ArrayList<String>();
        for (Family f : FAMILIES) {
            names.add(f.name());
        }
        NAMES = List.copyOf(names);
    }

    /** Each family's metadata lines in the text format 0.0.4 and in OpenMetrics (TYPE before HELP there). */
    private static final byte[][] TEXT_HEADERS = new byte[FAMILIES.length][];

    private static final byte[][] OPEN_METRICS_HEADERS = new byte[FAMILIES.length][];

    static {
        for (int f = 0; f < FAMILIES.length; f++) {
            String help = "# HELP " + FAMILIES[f].name() + " " + FAMILIES[f].help() + "\n";
            String type = "# TYPE " + FAMILIES[f].name() + " gauge\n";
            TEXT_HEADERS[f] = (help + type).getBytes(StandardCharsets.UTF_8);
            OPEN_METRICS_HEADERS[f] = (type + help).getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * One node's lines per family: {@code text[f]} holds one line per row with a value, and {@code ends[f]} where
     * each ends, so a change of usage copies the unchanged lines and the label text of the changed ones.
     */
    static final class NodeLines {
        final String node;
        /** The snapshot the lines were rendered from, or a later one with the same devices and usage. */
        NodeSnapshot source;
        /** The node's devices in output order (vendors by name, a UUID listed again left out). */
        final DeviceUsage[] rows;

        final byte[][] text;
        final int[][] ends;
        /** Whether a gzip scrape has compressed these lines in a block; guarded by the series. */
        boolean compressed;

        NodeLines(String node, NodeSnapshot source, DeviceUsage[] rows, byte[][] text, int[][] ends) {
            this.node = node;
            this.source = source;
            this.rows = rows;
            this.text = text;
            this.ends = ends;
        }
    }

    /**
     * Consecutive nodes whose lines of each family are compressed together as one raw deflate segment, reused
     * while the nodes have the very same {@link NodeLines}.
     */
    record Block(NodeLines[] members, byte[][] deflated) {
        boolean holds(List<NodeLines> nodes, int from, int to) {
            if (members.length != to - from || to > nodes.size()) {
                return false;
            }
            for (int i = 0; i < members.length; i++) {
                if (members[i] != nodes.get(from + i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** One scrape's nodes in name order and, for gzip, the same as blocks (null for a plain scrape). */
    record Lines(List<NodeLines> nodes, List<Block> blocks) {}

    /** Most nodes a block: 16 nodes × 8 GPUs are about 24 KB of text per family, past the cost of a deflate block. */
    static final int BLOCK = 16;

    private final UsageIndex index;
    /** Node to its lines as of the last scrape; replaced by each scrape, so removed nodes drop out. Guarded by this. */
    private Map<String, NodeLines> nodes = new HashMap<>();
    /** First node of a block to the block, as of the last gzip scrape. Guarded by this. */
    private Map<String, Block> blocks = new HashMap<>();
    /** Reused while rendering and compressing; guarded by this. */
    private final Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);

    private final Bytes buffer = new Bytes(64 * 1024);

    DeviceSeries(UsageIndex index) {
        this.index = index;
    }

    /**
     * Every node's lines, in node name order, rendered again only where the node changed since the last scrape;
     * with {@code deflated} also as compressed blocks, compressed again only where a member changed. Serialised
     * so that concurrent scrapes share the work; the returned lines are not changed afterwards.
     */
    synchronized Lines current(boolean deflated) {
        List<String> names = index.nodeNames();
        var out = new ArrayList<NodeLines>(names.size());
        var next = new HashMap<String, NodeLines>(names.size() * 2);
        for (String node : names) {
            NodeSnapshot snapshot = index.current(node);
            if (snapshot == null) {
                continue; // removed between nodeNames() and current()
            }
            NodeLines lines = nodes.get(node);
            if (lines == null || !same(lines.source, snapshot)) {
                lines = render(node, snapshot, lines, buffer);
            } else {
                lines.source = snapshot;
            }
            next.put(node, lines);
            out.add(lines);
        }
        nodes = next;
        return new Lines(out, deflated ? blocks(out) : null);
    }

    /**
     * {@code nodes} as blocks: each block of the last gzip scrape whose nodes are all unchanged is reused; the
     * nodes between them (changed, added, or left from a block that lost a node) are compressed again, those kept
     * since the last scrape apart from the changed ones, so that scattered changes leave their neighbours in
     * blocks of their own rather than compressing them again every time. A block compressed again over the same
     * nodes as before keeps the segments of the families whose lines none of its nodes changed (a change of usage
     * leaves the limits as they were, and often the shares or cores too).
     */
    private List<Block> blocks(List<NodeLines> nodes) {
        var out = new ArrayList<Block>(nodes.size() / BLOCK * 2 + 1);
        var changed = new ArrayList<NodeLines[]>();
        var changedAt = new ArrayList<Integer>();
        int run = -1; // first node of the run not in a reused block
        int i = 0;
        while (i <= nodes.size()) {
            Block block = i < nodes.size() ? blocks.get(nodes.get(i).node) : null;
            if (i < nodes.size() && (block == null || !block.holds(nodes, i, i + block.members().length))) {
                run = run < 0 ? i : run;
                i++;
                continue;
            }
            if (run >= 0) {
                for (NodeLines[] piece : pieces(nodes, run, i, blocks::containsKey)) {
                    changed.add(piece);
                    changedAt.add(out.size());
                    out.add(null);
                }
                run = -1;
            }
            if (block == null) {
                break; // the end
            }
            out.add(block);
            i += block.members().length;
        }
        byte[][][] deflated = deflate(changed, earlier(changed));
        for (int k = 0; k < changed.size(); k++) {
            out.set(changedAt.get(k), new Block(changed.get(k), deflated[k]));
        }
        var next = HashMap.<String, Block>newHashMap(out.size());
        for (Block block : out) {
            next.put(block.members()[0].node, block);
            for (NodeLines n : block.members()) {
                n.compressed = true;
            }
        }
        blocks = next;
        return out;
    }

    /**
     * Nodes {@code from} to {@code to} cut into blocks of at most {@link #BLOCK}, where nodes compressed before
     * meet nodes never compressed (changed or added), so that a node changed again does not take its neighbours,
     * and where a block of the last scrape began ({@code blockStart}), so that a block whose nodes all changed is
     * cut as before and keeps its unchanged families' segments.
     */
    static List<NodeLines[]> pieces(List<NodeLines> nodes, int from, int to, Predicate<String> blockStart) {
        var out = new ArrayList<NodeLines[]>();
        int start = from;
        for (int i = from + 1; i <= to; i++) {
            int length = i - start;
            if (i == to
                    || length == BLOCK
                    || nodes.get(i).compressed != nodes.get(i - 1).compressed
                    || blockStart.test(nodes.get(i).node)) {
                out.add(nodes.subList(start, i).toArray(NodeLines[]::new));
                start = i;
            }
        }
        return out;
    }

    /** Fewest blocks to compress that are worth a second thread. */
    private static final int PARALLEL = 16;

    /** For each of {@code work}'s blocks, the last scrape's block over the same nodes, or null. */
    private Block[] earlier(List<NodeLines[]> work) {
        var out = new Block[work.size()];
        for (int k = 0; k < out.length; k++) {
            NodeLines[] members = work.get(k);
            Block before = blocks.get(members[0].node);
            if (before != null && sameNodes(before.members(), members)) {
                out[k] = before;
            }
        }
        return out;
    }

    private static boolean sameNodes(NodeLines[] a, NodeLines[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!a[i].node.equals(b[i].node)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Each of {@code work}'s blocks compressed, keeping the segments of {@code earlier}'s blocks where their lines
     * are unchanged. With many, a task of the common pool takes blocks from the same counter as this thread; if the
     * pool is busy, this thread compresses them all.
     */
    private byte[][][] deflate(List<NodeLines[]> work, Block[] earlier) {
        var out = new byte[work.size()][][];
        if (work.size() < PARALLEL || Runtime.getRuntime().availableProcessors() < 2) {
            for (int k = 0; k < out.length; k++) {
                out[k] = deflate(work.get(k), earlier[k], deflater, buffer);
            }
            return out;
        }
        var next = new AtomicInteger();
        var left = new CountDownLatch(out.length);
        var failure = new AtomicReference<Throwable>();
        ForkJoinPool.commonPool().execute(() -> {
            Deflater own = null;
            try {
                var scratch = new Bytes(64 * 1024);
                for (int k; (k = next.getAndIncrement()) < out.length; left.countDown()) {
                    try {
                        own = own == null ? new Deflater(Deflater.BEST_SPEED, true) : own;
                        out[k] = deflate(work.get(k), earlier[k], own, scratch);
                    } catch (RuntimeException | Error e) {
                        failure.compareAndSet(
                                null, e); // counted down all the same, so this thread does not wait forever
                    }
                }
            } finally {
                if (own != null) {
                    own.end();
                }
            }
        });
        for (int k; (k = next.getAndIncrement()) < out.length; left.countDown()) {
            out[k] = deflate(work.get(k), earlier[k], deflater, buffer);
        }
        boolean interrupted = false;
        while (true) {
            try {
                left.await(); // the other thread's last block; the latch also publishes its results
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        switch (failure.get()) {
            case null -> {}
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            case Throwable e -> throw new IllegalStateException(e);
        }
        return out;
    }

    /** Whether {@code now} has the devices and usage {@code before} was rendered from. */
    @SuppressWarnings("ReferenceEquality") // the same snapshot object: nothing to compare
    static boolean same(NodeSnapshot before, NodeSnapshot now) {
        return before == now || before.view().devices().equals(now.view().devices());
    }

    /** Writes the families, each under its metadata, in the text format 0.0.4 or in OpenMetrics. */
    static void write(OutputStream out, List<NodeLines> nodes, boolean openMetrics) throws IOException {
        byte[][] headers = openMetrics ? OPEN_METRICS_HEADERS : TEXT_HEADERS;
        for (int f = 0; f < FAMILIES.length; f++) {
            if (empty(nodes, f)) {
                continue;
            }
            out.write(headers[f]);
            for (NodeLines n : nodes) {
                out.write(n.text[f]);
            }
        }
    }

    /** As {@link #write}, compressed: the lines from the blocks' deflated segments, the headers compressed here. */
    static void write(GzipBody out, Lines lines, boolean openMetrics) {
        byte[][] headers = openMetrics ? OPEN_METRICS_HEADERS : TEXT_HEADERS;
        for (int f = 0; f < FAMILIES.length; f++) {
            if (empty(lines.nodes(), f)) {
                continue;
            }
            out.write(headers[f]);
            for (Block block : lines.blocks()) {
                out.writeDeflated(block.deflated()[f]);
                for (NodeLines n : block.members()) {
                    out.count(n.text[f]);
                }
            }
        }
    }

    /** Whether no node has a sample of family {@code f}: the client's writers leave such a family out entirely. */
    private static boolean empty(List<NodeLines> nodes, int f) {
        for (NodeLines n : nodes) {
            if (n.text[f].length > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The rows of {@code snapshot}: devices as {@link DeviceUsageCollector} walks them, vendors in name order, a UUID
     * listed again skipped (a duplicate series would make the whole scrape invalid).
     */
    static DeviceUsage[] rows(NodeSnapshot snapshot) {
        Map<String, List<DeviceUsage>> view = snapshot.view().devices();
        String[] vendors = view.keySet().toArray(String[]::new);
        Arrays.sort(vendors);
        int size = 0;
        for (String vendor : vendors) {
            size += view.get(vendor).size();
        }
        var rows = new DeviceUsage[size];
        int n = 0;
        for (String vendor : vendors) {
            for (DeviceUsage u : view.get(vendor)) {
                if (!listed(rows, n, u.device().id())) {
                    rows[n++] = u;
                }
            }
        }
        return n == size ? rows : Arrays.copyOf(rows, n);
    }

    private static boolean listed(DeviceUsage[] rows, int n, String id) {
        for (int i = 0; i < n; i++) {
            if (rows[i].device().id().equals(id)) {
                return true;
            }
        }
        return false;
    }

    /**
     * One node's lines per family. When {@code old} has the same devices in the same order (a change of usage, the
     * usual change), lines whose value is unchanged are copied and the others keep their label text; otherwise
     * every line is formatted.
     */
    static NodeLines render(String node, NodeSnapshot snapshot, NodeLines old, Bytes buffer) {
        DeviceUsage[] rows = rows(snapshot);
        if (old == null || !sameDevices(old.rows, rows)) {
            return renderAll(node, snapshot, rows);
        }
        var text = new byte[FAMILIES.length][];
        var ends = new int[FAMILIES.length][];
        for (int f = 0; f < FAMILIES.length; f++) {
            Value value = FAMILIES[f].value();
            if (sameValues(value, old.rows, rows)) {
                // the very same arrays, so a gzip block whose nodes all kept this family's lines keeps its segment
                text[f] = old.text[f];
                ends[f] = old.ends[f];
                continue;
            }
            byte[] was = old.text[f];
            int[] wasEnds = old.ends[f];
            var lineEnds = new int[wasEnds.length];
            buffer.reset();
            int line = 0;
            int start = 0;
            for (int i = 0; i < rows.length; i++) {
                double v = value.of(rows[i]);
                if (Double.isNaN(v)) {
                    continue; // the same devices have a value in the same families
                }
                int end = wasEnds[line];
                if (Double.compare(v, value.of(old.rows[i])) == 0) {
                    buffer.write(was, start, end - start);
                } else {
                    int space = end - 2;
                    while (was[space] != ' ') {
                        space--; // the value follows the last space: escaped label values may hold spaces, values do
                        // not
                    }
                    buffer.write(was, start, space + 1 - start);
                    buffer.value(v);
                    buffer.write('\n');
                }
                lineEnds[line++] = buffer.size();
                start = end;
            }
            text[f] = buffer.toByteArray();
            ends[f] = lineEnds;
        }
        return new NodeLines(node, snapshot, rows, text, ends);
    }

    /** Whether every row of {@code now} has the value its row in {@code before} had (the same devices). */
    private static boolean sameValues(Value value, DeviceUsage[] before, DeviceUsage[] now) {
        for (int i = 0; i < now.length; i++) {
            if (Double.compare(value.of(now[i]), value.of(before[i])) != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameDevices(DeviceUsage[] a, DeviceUsage[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!a[i].device().equals(b[i].device())) {
                return false;
            }
        }
        return true;
    }

    /** Every line of the node formatted, with the label sets of {@link DeviceUsageCollector}. */
    private static NodeLines renderAll(String node, NodeSnapshot snapshot, DeviceUsage[] rows) {
        var labels = new Labels[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            labels[i] = DeviceUsageCollector.labels(node, rows[i].device());
        }
        var text = new byte[FAMILIES.length][];
        var ends = new int[FAMILIES.length][];
        var line = new StringBuilder(256);
        for (int f = 0; f < FAMILIES.length; f++) {
            Family family = FAMILIES[f];
            line.setLength(0);
            int lines = 0;
            for (int i = 0; i < rows.length; i++) {
                double value = family.value().of(rows[i]);
                if (Double.isNaN(value)) {
                    continue;
                }
                sample(line, family.name(), labels[i][family.labels()], value);
                lines++;
            }
            text[f] = line.toString().getBytes(StandardCharsets.UTF_8);
            ends[f] = new int[lines];
            int n = 0;
            for (int b = 0; b < text[f].length; b++) {
                if (text[f][b] == '\n') {
                    ends[f][n++] = b + 1; // label values have their newlines escaped: one per line
                }
            }
        }
        return new NodeLines(node, snapshot, rows, text, ends);
    }

    /** One sample line as the client library's text writers format it. */
    static void sample(StringBuilder out, String name, Labels labels, double value) {
        out.append(name).append('{');
        for (int i = 0; i < labels.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(labels.getName(i)).append("=\"");
            escape(out, labels.getValue(i));
            out.append('"');
        }
        out.append("} ");
        if (value == Double.POSITIVE_INFINITY) {
            out.append("+Inf");
        } else if (value == Double.NEGATIVE_INFINITY) {
            out.append("-Inf");
        } else {
            out.append(value);
        }
        out.append('\n');
    }

    /** A label value escaped as both text formats want it: backslash, double quote and newline. */
    private static void escape(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }

    /**
     * Each family's lines of {@code members} as one raw deflate segment: {@code earlier}'s segment (a block over the
     * same nodes, or null) where every member has the very lines it had, else compressed here.
     */
    private static byte[][] deflate(NodeLines[] members, Block earlier, Deflater deflater, Bytes buffer) {
        var out = new byte[FAMILIES.length][];
        for (int f = 0; f < FAMILIES.length; f++) {
            if (earlier != null && sameLines(earlier.members(), members, f)) {
                out[f] = earlier.deflated()[f];
                continue;
            }
            buffer.reset();
            for (NodeLines n : members) {
                buffer.write(n.text[f], 0, n.text[f].length);
            }
            out[f] = GzipBody.deflate(deflater, buffer.array(), buffer.size());
        }
        return out;
    }

    @SuppressWarnings("ReferenceEquality") // the very lines: a segment made of them holds them
    private static boolean sameLines(NodeLines[] before, NodeLines[] now, int f) {
        for (int i = 0; i < now.length; i++) {
            if (before[i].text[f] != now[i].text[f]) {
                return false;
            }
        }
        return true;
    }

    /** A growable byte buffer whose array can be read without a copy. */
    static final class Bytes {
        private byte[] bytes;
        private int size;

        Bytes(int capacity) {
            bytes = new byte[capacity];
        }

        void reset() {
            size = 0;
        }

        int size() {
            return size;
        }

        byte[] array() {
            return bytes;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, size);
        }

        void write(int b) {
            ensure(1);
            bytes[size++] = (byte) b;
        }

        void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, size, len);
            size += len;
        }

        /** A sample value as {@link #sample} writes it (ASCII). */
        void value(double v) {
            String s = v == Double.POSITIVE_INFINITY
                    ? "+Inf"
                    : v == Double.NEGATIVE_INFINITY ? "-Inf" : Double.toString(v);
            ensure(s.length());
            for (int i = 0; i < s.length(); i++) {
                bytes[size++] = (byte) s.charAt(i);
            }
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }
}
