package io.hami.scheduler.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.hami.scheduler.extender.ExtenderJson;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer that decodes each object itself. fabric8's typed informer stops for good after one object its model
 * cannot read (and a relist would fail on the same object again); here the informer carries raw objects, so the watch
 * and every relist go on, and an object that does not decode is handed to {@link Handler#undecodable} instead.
 * The informer's own store keeps only each object's name and resourceVersion: the decoded objects are kept here once,
 * cut by the caller to what it reads ({@link CachedFields}).
 */
final class TolerantInformer<T extends HasMetadata> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TolerantInformer.class);

    /** What becomes of each object; called on the informer's thread, one event at a time. */
    interface Handler<T> {
        /** {@code current} was added ({@code previous} null) or changed. */
        void decoded(T previous, T current);

        /** The object under {@code key} cannot be read; {@code previous} is its last readable version, or null. */
        void undecodable(String key, GenericKubernetesResource raw, T previous, String reason);

        /** The object under {@code key} is gone; {@code previous} is its last readable version, or null. */
        void deleted(String key, T previous);
    }

    /** Objects per page of the informer's list (kube-scheduler's informers list 500 at a time too). */
    static final long LIST_PAGE = 500;

    private final SharedIndexInformer<GenericKubernetesResource> informer;
    private final Map<String, T> decoded = new ConcurrentHashMap<>();
    private final String resource;
    private final WatchHorizon horizon = new WatchHorizon();

    /** {@code cut} keeps of each raw object what is read before it is decoded (null: the whole object). */
    TolerantInformer(
            KubernetesClient client,
            ResourceDefinitionContext context,
            Class<T> type,
            UnaryOperator<GenericKubernetesResource> cut,
            Handler<T> handler) {
        this(client, context, type, cut, Map.of(), handler);
    }

    /** As above, for the objects that carry every one of {@code labels} only (the API server filters; empty: all). */
    TolerantInformer(
            KubernetesClient client,
            ResourceDefinitionContext context,
            Class<T> type,
            UnaryOperator<GenericKubernetesResource> cut,
            Map<String, String> labels,
            Handler<T> handler) {
        this.resource = context.getPlural();
        KubernetesSerialization serialization = client.getKubernetesSerialization();
        var all = client.genericKubernetesResources(context);
        // Listed in pages: one answer with 40,000 whole pods would be hundreds of MiB on the heap at once.
        informer = context.isNamespaceScoped()
                ? all.inAnyNamespace().withLabels(labels).withLimit(LIST_PAGE).runnableInformer(0)
                : all.withLabels(labels).withLimit(LIST_PAGE).runnableInformer(0);
        informer.itemStore(new NamesOnly());
        // Once started, a failed list or watch is retried (with fabric8's backoff) for as long as we run; at start it
        // fails the start, so a scheduler that cannot read the cluster says so instead of waiting.
        informer.exceptionHandler((started, e) -> started);
        // fabric8 hands list boundaries and changes to the handler in one order, on one thread.
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onBeforeList(String resourceVersion) {
                horizon.listStarted();
            }

            @Override
            public void onList(String resourceVersion, boolean initial) {
                horizon.listed(resourceVersion);
            }

            @Override
            public void onAdd(GenericKubernetesResource raw) {
                accept(raw);
                horizon.handled(raw.getMetadata().getResourceVersion());
            }

            @Override
            public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource raw) {
                accept(raw);
                horizon.handled(raw.getMetadata().getResourceVersion());
            }

            @Override
            public void onDelete(GenericKubernetesResource raw, boolean unknownFinalState) {
                String key = Cache.metaNamespaceKeyFunc(raw);
                handler.deleted(key, decoded.remove(key));
                if (!unknownFinalState) {
                    horizon.handled(raw.getMetadata().getResourceVersion());
                }
            }

            private void accept(GenericKubernetesResource raw) {
                String key = Cache.metaNamespaceKeyFunc(raw);
                T value;
                try {
                    value = decode(serialization, raw, type, cut);
                } catch (RuntimeException e) {
                    String reason = ExtenderJson.describe(e);
                    LOG.warn(
                            "{} {} (resourceVersion {}) cannot be read, skipped until it changes: {}",
                            resource,
                            key,
                            raw.getMetadata().getResourceVersion(),
                            reason);
                    handler.undecodable(key, raw, decoded.remove(key), reason);
                    return;
                }
                handler.decoded(decoded.put(key, value), value);
            }
        });
        informer.run();
    }

    /**
     * {@code raw} as a {@code type}, cut first by {@code cut} (null: whole): what makes 40,000 cached pods fit the
     * Deployment's heap, and is cheaper to decode too.
     */
    static <T extends HasMetadata> T decode(
            KubernetesSerialization serialization,
            GenericKubernetesResource raw,
            Class<T> type,
            UnaryOperator<GenericKubernetesResource> cut) {
        if (cut == null) {
            return serialization.convertValue(raw, type);
        }
        T value = serialization.convertValue(cut.apply(raw), type);
        // The informer has decoded the metadata already: it is copied, not converted again.
        value.setMetadata(CachedFields.metadata(raw.getMetadata()));
        return value;
    }

    /** How far this informer has handed every change to its handler. */
    WatchHorizon horizon() {
        return horizon;
    }

    /** Listed once and watching now: what this informer tells is current. */
    boolean current() {
        return informer.hasSynced() && informer.isWatching();
    }

    boolean hasSynced() {
        return informer.hasSynced();
    }

    /** The readable object under {@code key} ({@code namespace/name}, or the name) as last seen, or null. */
    T get(String key) {
        return decoded.get(key);
    }

    /** The readable objects as last seen. */
    List<T> list() {
        return List.copyOf(decoded.values());
    }

    @Override
    public void close() {
        informer.close();
    }

    /**
     * The informer's store, which needs only keys and resourceVersions (to tell deletions on a relist and skip
     * unchanged objects); the whole raw object would be a second copy of every pod.
     */
    private static final class NamesOnly implements ItemStore<GenericKubernetesResource> {
        private final Map<String, GenericKubernetesResource> items = new ConcurrentHashMap<>();

        @Override
        public String getKey(GenericKubernetesResource obj) {
            return Cache.metaNamespaceKeyFunc(obj);
        }

        @Override
        public GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
            var meta = obj.getMetadata();
            var slim = new GenericKubernetesResource();
            slim.setApiVersion(obj.getApiVersion());
            slim.setKind(obj.getKind());
            slim.setMetadata(new ObjectMetaBuilder()
                    .withName(meta.getName())
                    .withNamespace(meta.getNamespace())
                    .withUid(meta.getUid())
                    .withResourceVersion(meta.getResourceVersion())
                    .build());
            return items.put(key, slim);
        }

        @Override
        public GenericKubernetesResource remove(String key) {
            return items.remove(key);
        }

        @Override
        public Stream<String> keySet() {
            return items.keySet().stream();
        }

        @Override
        public Stream<GenericKubernetesResource> values() {
            return items.values().stream();
        }

        @Override
        public int size() {
            return items.size();
        }

        @Override
        public GenericKubernetesResource get(String key) {
            return items.get(key);
        }

        /** Not the whole objects: the informer must hand each event its own object, never one read back from here. */
        @Override
        public boolean isFullState() {
            return false;
        }
    }
}
