package io.hami.lab.apiserver;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store's keys by resource, namespace and name, and the highest resourceVersion stored. The mock finds an object
 * by scanning every stored key, so with thousands of objects each GET and each write cost a scan of the whole store;
 * this index finds the key at once. It is kept up to date from every store write ({@link LabDispatcher#processEvent}).
 */
final class StoreIndex {

    /** An object's identity: resource plural, namespace ({@code ""} for cluster-scoped objects) and name. */
    record Ref(String plural, String namespace, String name) {}

    /** Attributes a collection path can carry; a key is in a collection's scope when it agrees on each of them. */
    private static final List<String> SCOPE = List.of(
            KubernetesAttributesExtractor.PLURAL,
            KubernetesAttributesExtractor.NAMESPACE,
            KubernetesAttributesExtractor.API,
            KubernetesAttributesExtractor.VERSION,
            KubernetesAttributesExtractor.KIND);

    private final Map<Ref, AttributeSet> keys = new ConcurrentHashMap<>();
    /** Keys by resource plural, in the store's order; changed and read only between writes (see {@link WatchHub}). */
    private final Map<String, Set<AttributeSet>> byResource = new HashMap<>();
    /** Pod keys by {@code spec.nodeName} ({@code ""}: not bound), as the API server's watch cache indexes them. */
    private final Map<String, Set<AttributeSet>> podsByNode = new HashMap<>();
    /** Pod keys by label ({@code key=value}). */
    private final Map<String, Set<AttributeSet>> podsByLabel = new HashMap<>();
    /** What each stored pod key is indexed under, so a write can take it out without its old state. */
    private final Map<AttributeSet, Terms> podTerms = new HashMap<>();

    private final AtomicLong highestVersion = new AtomicLong();

    /** A pod's node and labels, as indexed. */
    record Terms(String node, Map<String, String> labels) {}

    /** The identity named by {@code attributes} (a stored key or a request's path), or null when it names none. */
    static Ref refOf(AttributeSet attributes) {
        String plural = value(attributes, KubernetesAttributesExtractor.PLURAL);
        String name = value(attributes, KubernetesAttributesExtractor.NAME);
        if (plural == null || name == null) {
            return null;
        }
        String namespace = value(attributes, KubernetesAttributesExtractor.NAMESPACE);
        return new Ref(plural, namespace == null ? "" : namespace, name);
    }

    /**
     * A write replaced {@code oldKey} (null for a create) by {@code newKey} (null for a delete); {@code version} is the
     * resourceVersion of the object written.
     */
    void moved(AttributeSet oldKey, AttributeSet newKey, String version) {
        moved(oldKey, newKey, version, null);
    }

    /** As {@link #moved(AttributeSet, AttributeSet, String)}; {@code newTerms} are the new pod's node and labels. */
    void moved(AttributeSet oldKey, AttributeSet newKey, String version, Terms newTerms) {
        if (version != null && version.matches("\\d{1,18}")) {
            highestVersion.accumulateAndGet(Long.parseLong(version), Math::max);
        }
        Ref oldRef = oldKey == null ? null : refOf(oldKey);
        if (oldRef != null) {
            keys.remove(oldRef, oldKey);
        }
        if (oldKey != null && value(oldKey, KubernetesAttributesExtractor.PLURAL) != null) {
            byResource
                    .getOrDefault(value(oldKey, KubernetesAttributesExtractor.PLURAL), Set.of())
                    .remove(oldKey);
        }
        Ref newRef = newKey == null ? null : refOf(newKey);
        if (newRef != null) {
            keys.put(newRef, newKey);
        }
        if (newKey != null && value(newKey, KubernetesAttributesExtractor.PLURAL) != null) {
            byResource
                    .computeIfAbsent(value(newKey, KubernetesAttributesExtractor.PLURAL), r -> new LinkedHashSet<>())
                    .add(newKey);
        }
        if (oldKey != null) {
            unindexPod(oldKey);
        }
        if (newKey != null && newTerms != null && "pods".equals(value(newKey, KubernetesAttributesExtractor.PLURAL))) {
            podTerms.put(newKey, newTerms);
            podsByNode
                    .computeIfAbsent(newTerms.node(), n -> new LinkedHashSet<>())
                    .add(newKey);
            for (var label : newTerms.labels().entrySet()) {
                podsByLabel
                        .computeIfAbsent(label.getKey() + "=" + label.getValue(), l -> new LinkedHashSet<>())
                        .add(newKey);
            }
        }
    }

    private void unindexPod(AttributeSet key) {
        Terms terms = podTerms.remove(key);
        if (terms == null) {
            return;
        }
        removeFrom(podsByNode, terms.node(), key);
        for (var label : terms.labels().entrySet()) {
            removeFrom(podsByLabel, label.getKey() + "=" + label.getValue(), key);
        }
    }

    private static void removeFrom(Map<String, Set<AttributeSet>> index, String term, AttributeSet key) {
        Set<AttributeSet> keys = index.get(term);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            index.remove(term); // node and label values come and go: keep no empty sets behind
        }
    }

    /** The stored pod keys bound to {@code node} ({@code ""}: not bound), in store order; read between writes only. */
    List<AttributeSet> podsOnNode(String node) {
        return List.copyOf(podsByNode.getOrDefault(node, Set.of()));
    }

    /** The stored pod keys labelled {@code key=value}; read between writes only. */
    List<AttributeSet> podsLabelled(String key, String value) {
        return List.copyOf(podsByLabel.getOrDefault(key + "=" + value, Set.of()));
    }

    /** The stored keys of {@code plural}, in store order; read between writes only. */
    List<AttributeSet> keysOf(String plural) {
        return List.copyOf(byResource.getOrDefault(plural, Set.of()));
    }

    /**
     * Whether a stored key lies in a collection's scope: what {@link AttributeSet#matches} answers for a collection
     * path, by keyed lookups instead of its scan of every attribute value.
     */
    static boolean inScope(AttributeSet key, AttributeSet scope) {
        for (String name : SCOPE) {
            Attribute wanted = scope.getAttribute(name);
            if (wanted != null && !wanted.equals(key.getAttribute(name))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The highest resourceVersion of any object stored so far: a LIST taken while no write runs holds every object
     * up to it, so a WATCH from it misses nothing.
     */
    long highestVersion() {
        return highestVersion.get();
    }

    /** The stored key of the object {@code ref} names, or null. */
    AttributeSet find(Ref ref) {
        return keys.get(ref);
    }

    private static String value(AttributeSet attributes, String key) {
        Attribute a = attributes.getAttribute(key);
        return a == null || a.getValues().isEmpty()
                ? null
                : a.getValues().getFirst().toString();
    }
}
