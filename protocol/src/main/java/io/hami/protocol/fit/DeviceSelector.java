package io.hami.protocol.fit;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * A pair of pod annotations that restrict which devices a pod may use
 * (docs/upstream.md#small-formats): a "use" list the device must match and a "nouse" list it must not match. Values are comma lists;
 * a value that is empty or only whitespace is no constraint.
 *
 * @param useKey   for example {@code nvidia.com/use-gpuuuid}
 * @param nouseKey for example {@code nvidia.com/nouse-gpuuuid}
 */
public record DeviceSelector(String useKey, String nouseKey) {
    public DeviceSelector {
        Objects.requireNonNull(useKey, "useKey");
        Objects.requireNonNull(nouseKey, "nouseKey");
    }

    /** Matches device IDs: an item equals the ID exactly, after trimming. */
    public Predicate<String> byUuid(Map<String, String> podAnnotations) {
        return filter(podAnnotations, (item, uuid) -> item.equals(uuid));
    }

    /** Matches device types: an item is a case-insensitive substring of the type ({@code A10} matches {@code NVIDIA A100}). */
    public Predicate<String> byType(Map<String, String> podAnnotations) {
        return filter(
                podAnnotations, (item, type) -> type.toUpperCase(Locale.ROOT).contains(item.toUpperCase(Locale.ROOT)));
    }

    private Predicate<String> filter(Map<String, String> podAnnotations, BiPredicate<String, String> match) {
        Predicate<String> allowed = value -> true;
        String use = podAnnotations.get(useKey);
        if (use != null && !use.isBlank()) {
            List<String> items = items(use);
            allowed = allowed.and(value -> items.stream().anyMatch(item -> match.test(item, value)));
        }
        String nouse = podAnnotations.get(nouseKey);
        if (nouse != null && !nouse.isBlank()) {
            List<String> items = items(nouse);
            allowed = allowed.and(value -> items.stream().noneMatch(item -> match.test(item, value)));
        }
        return allowed;
    }

    private static List<String> items(String value) {
        return Arrays.stream(value.split(",", -1))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
