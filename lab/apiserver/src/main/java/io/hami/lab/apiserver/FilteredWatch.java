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
 */
final class FilteredWatch extends WebSocketListener {

    private final AttributeSet scope;
    private final Selection selection;
    private final Consumer<FilteredWatch> onClose;
    // The socket's send blocks until written: one sender thread per watch keeps order and never blocks the store.
    private final ExecutorService sender =
            Executors.newSingleThreadExecutor(Thread.ofVirtual().factory());
    private final List<String> beforeOpen = new ArrayList<>();
    private WebSocket socket;

    FilteredWatch(AttributeSet scope, Selection selection, Consumer<FilteredWatch> onClose) {
        this.scope = scope;
        this.selection = selection;
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
        if (socket == null) {
            beforeOpen.add(event);
        } else {
            WebSocket target = socket;
            sender.execute(() -> target.send(event));
        }
    }

    @Override
    public synchronized void onOpen(WebSocket webSocket, Response response) {
        socket = webSocket;
        beforeOpen.forEach(event -> sender.execute(() -> webSocket.send(event)));
        beforeOpen.clear();
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

    private void close() {
        sender.shutdownNow();
        onClose.accept(this);
    }

    /** An object deleted or gone out of the selection: its last content at the resource version of the change. */
    private static String lastStateAt(JsonNode before, String version) {
        ObjectNode copy = (ObjectNode) before.deepCopy();
        ((ObjectNode) copy.get("metadata")).put("resourceVersion", version);
        return Json.write(copy);
    }
}
