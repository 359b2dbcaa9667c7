package io.hami.scheduler.extender;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads {@code ExtenderArgs.NodeNames}. kube-scheduler sends the same candidate list pod after pod, and to filter and
 * prioritize of one pod: the list read last is kept with its JSON text, and a body holding the very same bytes there
 * gets that list again, its names neither decoded nor allocated again (and their hash codes, cached by each String,
 * not computed again for the index's lookups). Bytes are compared whole, never a hash alone.
 *
 * <p>Each name is kept once, in first-seen order. kube-scheduler sends each candidate once (its names come from a node
 * list) and reads our answer by name: a name answered twice would be a node listed twice after filter and scored twice
 * by prioritize (it sums scores per host). Repeats come only from a broken or hostile client, whose body (at most
 * {@link ExtenderJson#MAX_BODY} bytes) would otherwise be fitted and answered once per repeat.
 */
final class NodeNamesReader extends ValueDeserializer<List<String>> {
    /** The attribute under which {@link ExtenderJson#read} passes the whole body being parsed. */
    static final Object BODY = NodeNamesReader.class;

    /** A list as read, and the JSON text it was read from ({@code [} to {@code ]}). */
    record Known(byte[] json, List<String> names) {}

    /** The list read last; shared by concurrent requests, so the lists are never changed. */
    private static final AtomicReference<Known> LAST = new AtomicReference<>();

    @Override
    public List<String> deserialize(JsonParser p, DeserializationContext ctxt) {
        JavaType type = ctxt.getTypeFactory().constructCollectionType(List.class, String.class);
        long start = p.currentTokenLocation().getByteOffset();
        if (!(ctxt.getAttribute(BODY) instanceof byte[] body) || !p.hasToken(JsonToken.START_ARRAY) || start < 0) {
            return distinct(ctxt.readValue(p, type));
        }
        Known last = LAST.get();
        if (last != null && sameText(body, (int) start, last.json())) {
            // The same bytes from the same opening bracket are the same array: skip it without decoding its names.
            p.skipChildren();
            if (p.currentTokenLocation().getByteOffset() != start + last.json().length - 1) {
                throw new IllegalStateException("NodeNames ended where its earlier copy did not");
            }
            return last.names();
        }
        List<String> names = distinct(ctxt.readValue(p, type));
        long end = p.currentTokenLocation().getByteOffset(); // at the closing bracket
        if (end >= start && end < body.length) {
            LAST.set(new Known(Arrays.copyOfRange(body, (int) start, (int) end + 1), names));
        }
        return names;
    }

    /** Whether {@code body} holds {@code json} from {@code at}. */
    static boolean sameText(byte[] body, int at, byte[] json) {
        return at + json.length <= body.length && Arrays.equals(body, at, at + json.length, json, 0, json.length);
    }

    /** {@code names} each once in first-seen order, unmodifiable; null stays null, a null name stays one. */
    static List<String> distinct(List<String> names) {
        if (names == null) {
            return null;
        }
        if (names.size() > 1) {
            var seen = HashSet.<String>newHashSet(names.size());
            for (String name : names) {
                if (!seen.add(name)) {
                    // ArrayList, not List.copyOf: a null name stays what filter made of it before
                    return Collections.unmodifiableList(new ArrayList<>(new LinkedHashSet<>(names)));
                }
            }
        }
        return Collections.unmodifiableList(names);
    }
}
