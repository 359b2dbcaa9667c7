package io.hami.lab.apiserver;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.CompatibilityFlags;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fabric8 CRUD dispatcher with its gaps fixed: the one place where this server differs from the mock. Each fix
 * restores what the real API server does:
 * <ul>
 *   <li>JSON merge patch follows RFC 7386 ({@code null} deletes); a write that changes nothing is no write;</li>
 *   <li>{@code pods/{name}/binding} and {@code bindings} bind the pod ({@link PodBinder});</li>
 *   <li>LIST, WATCH and DELETE-collection evaluate every label and field selector ({@link Selection}); watches are
 *   served by {@link WatchHub}; a deletion takes a new resourceVersion;</li>
 *   <li>errors carry a {@code Status} with the right reason; a JSON Patch that does not apply (failing {@code test},
 *   missing parent or key) answers 422 and changes nothing;</li>
 *   <li>discovery answers for kubectl ({@link Discovery}); a strategic merge patch is applied as a merge patch;</li>
 *   <li>{@link Faults} answers before anything is stored.</li>
 * </ul>
 */
final class LabDispatcher extends KubernetesCrudDispatcher {

    private static final Set<String> SELECTORS_AND_WATCH = Set.of("labelSelector", "fieldSelector", "watch");
    private static final List<String> SERVER_OWNED_METADATA =
            List.of("namespace", "uid", "creationTimestamp", "resourceVersion", "generation");
    private static final String MERGE_PATCH = "application/merge-patch+json";

    private final Faults faults;
    private final RequestCounts requests;
    private final ParsedStates parsed = new ParsedStates();
    private final StoreIndex index = new StoreIndex();
    private final WatchHub watches = new WatchHub(parsed, index::highestVersion);
    private final PodBinder binder = new PodBinder(this::handleGet, this::mergePatch);
    /** Listings being read page by page ({@code limit}, {@code continue}), the latest few. */
    private final Map<String, Listing> listings =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Listing> eldest) {
                    return size() > 32;
                }
            });

    private final java.util.concurrent.atomic.AtomicLong nextListing = new java.util.concurrent.atomic.AtomicLong();

    private record Listing(List<String> items, long version) {}

    LabDispatcher(Faults faults, RequestCounts requests) {
        this.faults = faults;
        this.requests = requests;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        MockResponse response;
        try {
            response = route(request);
        } catch (BadRequestException e) {
            response = Statuses.failure(400, e.getMessage());
        } catch (JsonPatchException e) {
            response = Statuses.failure(
                    422, "the server rejected our request due to an error in our request: " + e.getMessage());
        } catch (RuntimeException e) {
            // The mock lets some exceptions escape, and Vert.x then never answers: the client waits for its timeout.
            response = Statuses.failure(500, "the embedded API server failed: " + e);
        }
        return response.getWebSocketListener() != null || response instanceof ChunkedWatch
                ? response
                : withStatusBody(response, request);
    }

    private MockResponse route(RecordedRequest request) {
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        RequestUri uri = RequestUri.parse(request.getPath());
        String[] counted = RequestCounts.classify(method, uri.path(), uri.isWatch());
        requests.count(counted[0], counted[1]);
        if (uri.path().startsWith("/api")) {
            Optional<String> refused = MediaTypes.notAcceptable(request.getHeader("Accept"));
            if (refused.isPresent()) {
                return Statuses.failure(406, refused.get());
            }
        }
        if (request.getBody() != null && request.getBody().size() > 0) {
            Optional<String> refused = MediaTypes.unsupportedBody(method, request.getHeader("Content-Type"));
            if (refused.isPresent()) {
                return Statuses.failure(415, refused.get());
            }
        }
        OptionalInt fault = faults.failureFor(method, uri.path());
        if (fault.isPresent()) {
            return Statuses.failure(fault.getAsInt(), "injected fault: " + method + " " + uri.path());
        }
        if (hasJsonBody(request)) {
            requestJson(request); // the mock throws on bodies it cannot read; the API server answers 400
        }
        if (method.equals("GET") && Discovery.answers(uri.path())) {
            return Discovery.answer(uri.path());
        }
        if (PodBinder.isBinding(method, uri.path())) {
            return binder.bind(uri.path(), bodyOf(request));
        }
        if (method.equals("GET") && uri.isWatch()) {
            return watch(request, uri);
        }
        if (method.equals("GET")
                && (uri.hasSelectors()
                        || uri.param("limit").isPresent()
                        || uri.param("continue").isPresent())) {
            return list(uri);
        }
        if (method.equals("DELETE") && uri.hasSelectors()) {
            return deleteCollection(uri);
        }
        if (method.equals("PATCH") && isJsonPatch(request)) {
            checkJsonPatch(uri.path(), requestJson(request));
        }
        if (method.equals("PATCH") && isStrategicMergePatch(request)) {
            JsonNode patch = JsonMergePatch.withoutStrategicDirectives(requestJson(request));
            return mergePatch(request.getPath(), Json.write(patch));
        }
        return super.dispatch(request);
    }

    /** RFC 7386 in place of the mock's Jackson "update" merge, which stores {@code null} instead of deleting. */
    @Override
    public JsonNode merge(JsonNode current, String patch) throws KubernetesCrudDispatcherException {
        return JsonMergePatch.apply(current, asNode(patch));
    }

    /**
     * Keeps the server-owned metadata of the stored object, as the mock's does, but without adding
     * {@code "namespace": null} to cluster-scoped objects: that made every write to a node a change, so a patch that
     * changes nothing bumped the resourceVersion and sent MODIFIED.
     */
    @Override
    public void preserveMetadata(JsonNode current, JsonNode updated) {
        JsonNode from = current.path("metadata");
        ObjectNode to = updated.get("metadata") instanceof ObjectNode metadata
                ? metadata
                : ((ObjectNode) updated).putObject("metadata");
        for (String field : SERVER_OWNED_METADATA) {
            JsonNode value = from.get(field);
            if (value == null) {
                to.remove(field);
            } else {
                to.set(field, value.deepCopy());
            }
        }
    }

    /** Every store write passes here; {@link WatchHub} tells the watches about it. */
    @Override
    public void processEvent(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        watches.record(() -> {
            String oldState = oldAttributes == null ? null : map.get(oldAttributes);
            super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
            AttributeSet newKey = keyOf(newState, pathAttributes);
            // A deletion is a write too: its watch event carries a new resourceVersion, as the API server's does.
            String deletedAt = newState == null && oldState != null ? Long.toString(requestResourceVersion()) : null;
            index.moved(
                    oldAttributes,
                    newKey,
                    deletedAt != null
                            ? deletedAt
                            : resource == null ? null : resource.getMetadata().getResourceVersion(),
                    podTerms(newKey, newState));
            return new WatchHub.Change(oldAttributes, oldState, newKey, newState, deletedAt);
        });
    }

    /**
     * The object a write addresses, through the index instead of the mock's scan of the whole store. Writes run
     * under the mock's write lock, so the index agrees with the store here and a miss is final.
     */
    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        StoreIndex.Ref ref = StoreIndex.refOf(query);
        return ref == null ? super.findResource(query) : indexed(ref, query);
    }

    /**
     * A GET of one object through the index. Reads do not hold the mock's lock, so a write may be between removing
     * the old state and storing the new one: a miss falls back to the mock's locked scan, which waits for it.
     */
    @Override
    public MockResponse handleGet(String path) {
        StoreIndex.Ref ref = StoreIndex.refOf(attributeExtractor.fromPath(path));
        if (ref != null && !RequestUri.parse(path).isWatch()) {
            Map.Entry<AttributeSet, String> entry = indexed(ref, attributeExtractor.fromPath(path));
            if (entry != null) {
                return new MockResponse().setResponseCode(200).setBody(entry.getValue());
            }
        }
        return super.handleGet(path);
    }

    private Map.Entry<AttributeSet, String> indexed(StoreIndex.Ref ref, AttributeSet query) {
        AttributeSet key = index.find(ref);
        String value = key == null ? null : map.get(key);
        return value != null && key.matches(query) ? Map.entry(key, value) : null;
    }

    /** A pod state's node and labels for the selector indexes; null for other resources. */
    private StoreIndex.Terms podTerms(AttributeSet key, String state) {
        if (key == null || state == null || !"pods".equals(pluralOf(key))) {
            return null;
        }
        ParsedStates.Parsed pod = parsed.of(state);
        return new StoreIndex.Terms(pod.json().path("spec").path("nodeName").asString(""), Map.copyOf(pod.labels()));
    }

    private static String pluralOf(AttributeSet key) {
        var plural = key.getAttribute(KubernetesAttributesExtractor.PLURAL);
        return plural == null || plural.getValues().isEmpty()
                ? null
                : plural.getValues().getFirst().toString();
    }

    /**
     * The keys a selector LIST must look at. For pods, an equality on {@code spec.nodeName} or a label is answered from
     * an index (the real API server's watch cache indexes pods by node), the smaller set when both apply; any other
     * selector reads every object of the resource. The selection is still evaluated on each key.
     */
    private List<AttributeSet> candidates(String resource, Selection selection) {
        if (!resource.equals("pods")) {
            return index.keysOf(resource);
        }
        List<AttributeSet> best = null;
        for (FieldSelector.Requirement r : selection.fields().requirements()) {
            if (r.equal() && r.field().equals("spec.nodeName")) {
                best = smaller(best, index.podsOnNode(r.value()));
            }
        }
        for (LabelSelector.Requirement r : selection.labels().requirements()) {
            if (r.operator() == LabelSelector.Operator.IN) {
                List<AttributeSet> labelled = new ArrayList<>();
                for (String value : r.values()) {
                    labelled.addAll(index.podsLabelled(r.key(), value));
                }
                best = smaller(best, labelled);
            }
        }
        return best != null ? best : index.keysOf(resource);
    }

    private static List<AttributeSet> smaller(List<AttributeSet> a, List<AttributeSet> b) {
        return a == null || b.size() < a.size() ? b : a;
    }

    /** The store key the mock gives a new state (same rule as its {@code processEvent}). */
    private AttributeSet keyOf(String state, AttributeSet pathAttributes) {
        if (state == null) {
            return null;
        }
        AttributeSet key = attributeExtractor.fromResource(state);
        return key.containsKey(KubernetesAttributesExtractor.PLURAL) ? key : AttributeSet.merge(pathAttributes, key);
    }

    /**
     * A WATCH: over WebSocket when the client asks for the upgrade (fabric8's transport), else as kube-apiserver's
     * chunked HTTP stream (client-go, Python, curl), which also honours {@code timeoutSeconds} and sends bookmarks.
     */
    private MockResponse watch(RecordedRequest request, RequestUri uri) {
        List<String> invalid = WatchParameters.problems(uri);
        if (!invalid.isEmpty()) {
            return Statuses.failure(
                    422,
                    "ListOptions.meta.k8s.io \"\" is invalid: "
                            + (invalid.size() == 1 ? invalid.getFirst() : invalid.toString()));
        }
        AttributeSet scope = attributeExtractor.fromPath(uri.path());
        Selection selection = Selection.of(uri, resourceOf(uri));
        WatchHub.Start start = WatchParameters.start(uri);
        FilteredWatch.Kind kind = new FilteredWatch.Kind(
                groupVersionOf(uri.path()), Discovery.kindOf(groupVersionOf(uri.path()), resourceOf(uri)));
        FilteredWatch watch = watches.open(scope, selection, kind, start, () -> new ArrayList<>(map.entrySet()));
        String upgrade = request.getHeader("Upgrade");
        if (upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket")) {
            return new MockResponse().withWebSocketUpgrade(watch);
        }
        return new ChunkedWatch(watch, WatchParameters.timeout(uri), start.bookmarks(), () -> watches.bookmark(watch));
    }

    /** {@code /api/v1/...} → {@code v1}; {@code /apis/apps/v1/...} → {@code apps/v1}. */
    private static String groupVersionOf(String path) {
        String[] parts = path.split("/");
        if (path.startsWith("/api/") && parts.length > 2) {
            return parts[2];
        }
        return path.startsWith("/apis/") && parts.length > 3 ? parts[2] + "/" + parts[3] : "";
    }

    /**
     * A LIST with selectors, answered from the store directly (the mock would compose every object of the resource
     * into one text that would then be parsed again). The objects are read between two writes, and the list carries
     * the highest resourceVersion stored, so a WATCH from it misses nothing.
     */
    private MockResponse list(RequestUri uri) {
        AttributeSet scope = attributeExtractor.fromPath(uri.path());
        if (StoreIndex.refOf(scope) != null) {
            return handleGet(uri.without(SELECTORS_AND_WATCH)); // a GET by name: selectors do not apply
        }
        String token = uri.param("continue").orElse("");
        if (!token.isEmpty()) {
            return page(token, limit(uri));
        }
        Selection selection = Selection.of(uri, resourceOf(uri));
        List<String> items = new ArrayList<>();
        long version = watches.betweenWrites(() -> {
            for (AttributeSet key : candidates(resourceOf(uri), selection)) {
                String value = StoreIndex.inScope(key, scope) ? map.get(key) : null;
                if (value != null && selection.matches(parsed.of(value))) {
                    items.add(value);
                }
            }
            return index.highestVersion();
        });
        int limit = limit(uri);
        if (limit > 0 && items.size() > limit) {
            String id = Long.toString(nextListing.incrementAndGet());
            listings.put(id, new Listing(List.copyOf(items), version));
            return page(id + ":0", limit);
        }
        return listed(items, version, "");
    }

    private static MockResponse listed(List<String> items, long version, String next) {
        String more = next.isEmpty() ? "" : ",\"continue\":\"" + next + "\"";
        return new MockResponse()
                .setResponseCode(200)
                .setBody("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" + String.join(",", items)
                        + "],\"metadata\":{\"resourceVersion\":\"" + version + "\"" + more + "}}");
    }

    private static int limit(RequestUri uri) {
        String limit = uri.param("limit").orElse("");
        return limit.matches("\\d{1,9}") ? Integer.parseInt(limit) : 0;
    }

    /**
     * A page of a listing taken when its first page was asked for: every page is of that one moment and carries its
     * resourceVersion, as the API server pages from one snapshot. A token no longer kept is 410 Expired, after which a
     * client lists again.
     */
    private MockResponse page(String token, int limit) {
        int colon = token.indexOf(':');
        Listing listing = colon < 0 ? null : listings.get(token.substring(0, colon));
        String offset = colon < 0 ? "" : token.substring(colon + 1);
        if (listing == null || !offset.matches("\\d{1,9}")) {
            return Statuses.failure(
                    410, "the continue token is no longer valid (listings are kept for a while): list again");
        }
        int from = Math.min(Integer.parseInt(offset), listing.items().size());
        int to = limit > 0
                ? Math.min(from + limit, listing.items().size())
                : listing.items().size();
        String next = to < listing.items().size() ? token.substring(0, colon) + ":" + to : "";
        return listed(listing.items().subList(from, to), listing.version(), next);
    }

    /** Deletes the selected objects one by one; the mock alone would delete every object of the resource. */
    private MockResponse deleteCollection(RequestUri uri) {
        MockResponse listed = list(uri);
        JsonNode body = Json.parse(Statuses.body(listed));
        if (listed.code() != 200 || !body.path("items").isArray()) {
            return listed;
        }
        List<JsonNode> deleted = new ArrayList<>();
        for (JsonNode item : body.path("items").values()) {
            MockResponse response = handleDelete(objectPath(uri.path(), item.path("metadata")));
            if (response.code() == 200) {
                deleted.add(Json.parse(Statuses.body(response)));
            }
        }
        ((ObjectNode) body).set("items", Json.array().addAll(deleted));
        return Statuses.json(200, body);
    }

    /** {@code /api/v1/pods} + ns/name → {@code /api/v1/namespaces/ns/pods/name}. */
    private static String objectPath(String collectionPath, JsonNode metadata) {
        String namespace = metadata.path("namespace").asString("");
        String name = metadata.path("name").asString("");
        if (namespace.isEmpty() || collectionPath.contains("/namespaces/")) {
            return collectionPath + "/" + name;
        }
        int plural = collectionPath.lastIndexOf('/');
        return collectionPath.substring(0, plural) + "/namespaces/" + namespace + collectionPath.substring(plural) + "/"
                + name;
    }

    private String resourceOf(RequestUri uri) {
        var plural = attributeExtractor.fromPath(uri.path()).getAttribute(KubernetesAttributesExtractor.PLURAL);
        return plural == null ? "" : plural.getValues().getFirst().toString();
    }

    private MockResponse mergePatch(String path, String body) {
        Headers headers = Headers.builder().add("Content-Type", MERGE_PATCH).build();
        return handlePatch(new RecordedRequest(
                "HTTP/1.1", HttpMethod.PATCH, path, headers, new Buffer(body.getBytes(StandardCharsets.UTF_8))));
    }

    /** The request body as text, leaving it unread for the mock ({@code getUtf8Body()} empties it). */
    private static String bodyOf(RecordedRequest request) {
        return request.getBody() == null ? "" : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    }

    private static JsonNode requestJson(RecordedRequest request) {
        try {
            return Json.parse(bodyOf(request));
        } catch (JacksonException e) {
            throw new BadRequestException("the request body is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static boolean hasJsonBody(RecordedRequest request) {
        String contentType = request.getHeader("Content-Type");
        return contentType != null
                && contentType.contains("json")
                && request.getBody() != null
                && request.getBody().size() > 0;
    }

    /**
     * Applies a JSON Patch to a copy of the stored object as the API server does, so an invalid one fails with 422
     * before the mock sees it: the mock creates missing parents of every path and ignores the removal of a missing
     * key, where RFC 6902 (and the API server) fail.
     */
    private void checkJsonPatch(String path, JsonNode patch) {
        String objectPath = path.endsWith("/status") ? path.substring(0, path.length() - "/status".length()) : path;
        MockResponse current = handleGet(objectPath);
        if (current.code() == 200) {
            JsonPatch.apply(
                    patch,
                    Json.parse(Statuses.body(current)),
                    EnumSet.of(CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT));
        }
    }

    private static boolean isJsonPatch(RecordedRequest request) {
        String contentType = request.getHeader("Content-Type");
        return contentType != null && contentType.startsWith("application/json-patch+json");
    }

    private static boolean isStrategicMergePatch(RecordedRequest request) {
        String contentType = request.getHeader("Content-Type");
        return contentType != null && contentType.startsWith("application/strategic-merge-patch+json");
    }

    /** The mock answers some errors with no body or with reason "Invalid" whatever the code; clients read both. */
    private MockResponse withStatusBody(MockResponse response, RecordedRequest request) {
        if (response.code() < 400) {
            if (response.getHeaders().header("Content-Type") == null
                    && Statuses.body(response).startsWith("{")) {
                response.setHeader("Content-Type", "application/json");
            }
            return response;
        }
        String message = defaultMessage(response.code(), request);
        String body = Statuses.body(response);
        if (body.startsWith("{")) {
            JsonNode parsed = Json.parse(body);
            if (parsed.path("kind").asString("").equals("Status") && parsed.hasNonNull("message")) {
                message = parsed.path("message").asString();
            }
        }
        return Statuses.failure(response.code(), message);
    }

    private String defaultMessage(int code, RecordedRequest request) {
        AttributeSet target =
                attributeExtractor.fromPath(RequestUri.parse(request.getPath()).path());
        var name = target.getAttribute(KubernetesAttributesExtractor.NAME);
        var plural = target.getAttribute(KubernetesAttributesExtractor.PLURAL);
        if (code == 404 && name != null && plural != null) {
            return plural.getValues().getFirst() + " \"" + name.getValues().getFirst() + "\" not found";
        }
        return code == 404 ? "the server could not find the requested resource" : "request failed with " + code;
    }
}
