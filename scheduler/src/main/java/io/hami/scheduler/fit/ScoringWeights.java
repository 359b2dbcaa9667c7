package io.hami.scheduler.fit;

import io.hami.protocol.annotation.ProtocolKeys;
import java.util.HashMap;
import java.util.Map;

/**
 * Device scoring weights of the pod annotation {@code hami.io/device-scoring-weights}
 * ({@code slot=<int>,core=<int>,memory=<int>}; docs/upstream.md#small-formats).
 */
public record ScoringWeights(long slot, long core, long memory) {
    public static final String ANNOTATION = ProtocolKeys.DEVICE_SCORING_WEIGHTS;
    public static final ScoringWeights DEFAULT = new ScoringWeights(1, 1, 1);

    /** The weights of a pod: the default when the annotation is absent. */
    public static ScoringWeights of(Map<String, String> podAnnotations) throws InvalidWeightsException {
        String v = podAnnotations.get(ANNOTATION);
        return v == null ? DEFAULT : parse(v);
    }

    /** Upstream's rules and error texts: exactly three {@code key=value} parts, each key once. */
    public static ScoringWeights parse(String value) throws InvalidWeightsException {
        String[] parts = value.split(",", -1);
        if (parts.length != 3) {
            throw new InvalidWeightsException("expected slot, core, and memory weights, got \"" + value + "\"");
        }
        var seen = new HashMap<String, Long>();
        for (String part : parts) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new InvalidWeightsException("expected key=value entries, got \"" + part + "\"");
            }
            String key = part.substring(0, eq).trim();
            String text = part.substring(eq + 1).trim();
            if (!key.equals("slot") && !key.equals("core") && !key.equals("memory")) {
                throw new InvalidWeightsException("unknown weight \"" + key + "\"");
            }
            long weight;
            try {
                weight = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new InvalidWeightsException("\"" + key + "\" weight must be an integer, got \"" + text + "\"");
            }
            if (weight < 0) {
                throw new InvalidWeightsException("\"" + key + "\" weight must not be negative");
            }
            if (seen.put(key, weight) != null) {
                throw new InvalidWeightsException("duplicate \"" + key + "\" weight");
            }
        }
        var w = new ScoringWeights(seen.get("slot"), seen.get("core"), seen.get("memory"));
        if (w.slot == 0 && w.core == 0 && w.memory == 0) {
            throw new InvalidWeightsException("at least one weight must be positive");
        }
        return w;
    }

    /** A weights annotation that cannot be used; the pod is not schedulable until it is fixed. */
    public static final class InvalidWeightsException extends Exception {
        public InvalidWeightsException(String message) {
            super("invalid " + ANNOTATION + ": " + message);
        }
    }
}
