package io.hami.scheduler.fit;

import io.hami.protocol.fit.Reasons;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Why a pod does not go on a node, as a value: its kind, the devices per reason (upstream's names in {@link Reasons})
 * and a free-text detail. Metrics and events read these fields; upstream's text ({@link #text}) is built from them only
 * where text is needed: filter's {@code FailedNodes}, bind errors and event messages.
 *
 * <p>A class rather than a record so that its text is built once and then shared: filter answers many nodes with the
 * same few denials ({@link ReasonTexts}).
 */
public final class Denial {
    /** The kinds of denial. {@link #DEVICES} is upstream's fit walk; the others end the placement before it. */
    public enum Kind {
        /** The scheduler has no inventory for the node. */
        UNREGISTERED("node unregistered"),
        /** The node's inventory or an allocation on it does not decode; it is not offered until it does. */
        FAILS_CLOSED("fails closed"),
        /** The pod asks for an amount no vendor can represent; no node can take it. */
        UNREPRESENTABLE("unrepresentable request"),
        /** A container asks for a vendor that no backend handles (upstream's text). */
        NO_BACKEND("Device type not found"),
        /** The node has fewer devices of a vendor than one container asks for (upstream: no count). */
        TOO_FEW_DEVICES(Reasons.NODE_INSUFFICIENT_DEVICE),
        /** Devices were looked at and too few fit; the counts say why. */
        DEVICES("other");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** The kind's name in metrics and events; for {@link #DEVICES}, used only when it has no counts. */
        public String label() {
            return label;
        }
    }

    public static final Denial UNREGISTERED = new Denial(Kind.UNREGISTERED, Map.of(), 0, "");
    public static final Denial NO_BACKEND = new Denial(Kind.NO_BACKEND, Map.of(), 0, "");
    public static final Denial TOO_FEW_DEVICES = new Denial(Kind.TOO_FEW_DEVICES, Map.of(), 0, "");

    private final Kind kind;
    private final Map<String, Integer> counts;
    private final int total;
    private final String detail;
    /** Built on first use; a race only builds the same text twice. */
    private String text;

    private Denial(Kind kind, Map<String, Integer> counts, int total, String detail) {
        this.kind = kind;
        this.counts = Map.copyOf(counts);
        this.total = total;
        this.detail = detail;
    }

    /** The fit walk's result: {@code counts} devices per reason of {@code total} looked at. */
    public static Denial devices(Map<String, Integer> counts, int total) {
        return new Denial(Kind.DEVICES, counts, total, "");
    }

    /** The node's reasons for failing closed, each a sentence of its own. */
    public static Denial failsClosed(List<String> problems) {
        return new Denial(Kind.FAILS_CLOSED, Map.of(), 0, String.join("; ", problems));
    }

    /**
     * An unregistered node that the scheduler does not watch: it does not match {@code --node-label-selector}
     * {@code selector} (or is not a node at all). Upstream's label, with the reason after it.
     */
    public static Denial unselected(String selector) {
        return new Denial(
                Kind.UNREGISTERED,
                Map.of(),
                0,
                "this scheduler considers only nodes with the labels " + selector + " (--node-label-selector)");
    }

    /** {@code detail} names the container, the resource and the range the vendor takes. */
    public static Denial unrepresentable(String detail) {
        return new Denial(Kind.UNREPRESENTABLE, Map.of(), 0, detail);
    }

    public Kind kind() {
        return kind;
    }

    /** Devices per upstream reason; empty unless the kind is {@link Kind#DEVICES}. */
    public Map<String, Integer> counts() {
        return counts;
    }

    /** Devices looked at; 0 unless the kind is {@link Kind#DEVICES}. */
    public int total() {
        return total;
    }

    /** Free text for {@link Kind#FAILS_CLOSED} and {@link Kind#UNREPRESENTABLE} (and {@link #unselected}), else empty. */
    public String detail() {
        return detail;
    }

    /**
     * The reason kinds for metrics labels and event groups, sorted: the counted reasons of a fit walk, else the kind's
     * label. A small fixed set, whatever the details say.
     */
    public Set<String> labels() {
        if (kind != Kind.DEVICES || counts.isEmpty()) {
            return Set.of(kind.label);
        }
        return Collections.unmodifiableSet(new TreeSet<>(counts.keySet()));
    }

    /** Upstream's text for filter's {@code FailedNodes}, byte for byte (docs/upstream.md#fit). */
    public String text() {
        String t = text;
        if (t == null) {
            t = switch (kind) {
                case DEVICES -> Reasons.genReason(counts, total);
                case FAILS_CLOSED -> "node fails closed: " + detail;
                case UNREPRESENTABLE -> kind.label + ": " + detail;
                case UNREGISTERED -> detail.isEmpty() ? kind.label : kind.label + ": " + detail;
                case NO_BACKEND, TOO_FEW_DEVICES -> kind.label;
            };
            text = t;
        }
        return t;
    }

    /** Bind's error when the pod cannot be placed on {@code node} again. */
    public String bindError(String node) {
        return switch (kind) {
            case UNREGISTERED -> "node " + node + " is unregistered";
            case FAILS_CLOSED -> "node " + node + " fails closed: " + detail;
            default -> "pod no longer fits on node " + node + ": " + text();
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Denial d
                && kind == d.kind
                && total == d.total
                && counts.equals(d.counts)
                && detail.equals(d.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, counts, total, detail);
    }

    @Override
    public String toString() {
        return text();
    }
}
