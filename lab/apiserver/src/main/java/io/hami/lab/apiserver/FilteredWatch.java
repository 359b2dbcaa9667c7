package io.hami.lab.apiserver;

import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One WATCH connection: the objects in its scope (resource, namespace) that its selection matches. An object that
 * starts matching arrives as ADDED and one that stops matching as DELETED, as from the real API server's watch cache.
 * The events go to a WebSocket (this is its listener: fabric8's transport) or, for a plain HTTP watch, to a chunked
 * response ({@link #open(Consumer)}); one JSON event per message or line either way.
 */
final class FilteredWatch extends WebSocketListener {

    /** The {@code apiVersion} and {@code kind} of the watched resource, which a bookmark's object carries. */
    record Kind(String apiVersion, String kind) {}

    /** kube-apiserver's annotation on the bookmark that ends the initial events of {@code sendInitialEvents=true}. */
    static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    private final AttributeSet scope;
    private final Selection selection;
    private final Kind kind;
    private final Consumer<FilteredWatch> onClose;
    // The socket's send blocks until written: one sender thread per watch keeps order and never blocks the store.
    private final ExecutorService sender =
            Executors.newSingleThreadExecutor(Thread.ofVirtual().factory());
    private final List<String> beforeOpen = new ArrayList<>();
    private Consumer<String> target;

    FilteredWatch(AttributeSet scope, Selection selection, Kind kind, Consumer<FilteredWatch> onClose) {
        this.scope = scope;
        this.selection = selection;
        this.kind = kind;
        this.onClose = onClose;
    }

    boolean selects(AttributeSet key, JsonNode object) {
        return key != null && object != null && key.matches(scope) && selection.matches(object);
    }

    void onChange(WatchHub.Change change, JsonNode before, JsonNode after) {
        boolean wasSelected = selects(change.oldKey(), before);
        boolean isSelected = selects(change.newKey(), after);
        if (wasSelected && isSelected) {
            send("MODIFIED", change.newState());
        } else if (wasSelected) {
            String version = after == null
                    ? change.deletedVersion()
                    : after.path("metadata").path("resourceVersion").asString();
            send("DELETED", version == null ? change.oldState() : lastStateAt(before, version));
        } else if (isSelected) {
            send("ADDED", change.newState());
        }
    }

    synchronized void send(String type, String object) {
        String event = "{\"type\":\"" + type + "\",\"object\":" + object + "}";
        if (target == null) {
            beforeOpen.add(event);
        } else {
            Consumer<String> to = target;
            submit(() -> to.accept(event));
        }
    }

    /**
     * A BOOKMARK at {@code version}: an object of the watched kind with only its resourceVersion (and, ending the
     * initial events, kube-apiserver's annotation), as kube-apiserver sends it.
     */
    void bookmark(long version, boolean initialEventsEnd) {
        ObjectNode object = Json.object();
        object.put("kind", kind.kind());
        object.put("apiVersion", kind.apiVersion());
        ObjectNode metadata = object.putObject("metadata");
        metadata.put("resourceVersion", Long.toString(version));
        if (initialEventsEnd) {
            metadata.putObject("annotations").put(INITIAL_EVENTS_END, "true");
        }
        send("BOOKMARK", Json.write(object));
    }

    /** Starts delivering: the events sent so far, then each as it comes. */
    synchronized void open(Consumer<String> events) {
        target = events;
        beforeOpen.forEach(event -> submit(() -> events.accept(event)));
        beforeOpen.clear();
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        open(webSocket::send);
    }

    /**
     * Ends the watch the way a timeout does: no further change is taken, the events already sent are delivered, then
     * {@code then} runs.
     */
    void finish(Runnable then) {
        onClose.accept(this);
        submit(then);
        sender.shutdown();
    }

    /** Ends the watch at once (the client went away): what was not delivered is dropped. */
    void close() {
        sender.shutdownNow();
        onClose.accept(this);
    }

    private void submit(Runnable task) {
        try {
            sender.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Closed: the client is gone or the watch has ended; nobody reads this event.
        }
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
        close();
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
        close();
    }

    /** An object deleted or gone out of the selection: its last content at the resource version of the change. */
    private static String lastStateAt(JsonNode before, String version) {
        ObjectNode copy = (ObjectNode) before.deepCopy();
        ((ObjectNode) copy.get("metadata")).put("resourceVersion", version);
        return Json.write(copy);
    }
}
