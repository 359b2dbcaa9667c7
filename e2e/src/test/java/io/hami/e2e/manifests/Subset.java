package io.hami.e2e.manifests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Whether an object read back from the API server holds what was written: every field of the written document
 * must be there with the same value; fields the server adds (defaults, metadata, status) are ignored. Lists must
 * have the same length and hold what was written at each index (the server keeps order).
 */
final class Subset {
    private Subset() {}

    /** One line per written field the stored object lacks or holds otherwise; empty when it holds them all. */
    static List<String> differences(String where, JsonNode written, JsonNode stored) {
        var out = new ArrayList<String>();
        compare(where + " ", written, stored, out);
        return out;
    }

    private static void compare(String path, JsonNode written, JsonNode stored, List<String> out) {
        if (stored == null || stored.isMissingNode()) {
            out.add(path + ": missing (written " + written + ")");
        } else if (written.isObject()) {
            if (!stored.isObject()) {
                out.add(path + ": written " + written + ", stored " + stored);
                return;
            }
            for (Map.Entry<String, JsonNode> field : written.properties()) {
                compare(path + "." + field.getKey(), field.getValue(), stored.get(field.getKey()), out);
            }
        } else if (written.isArray()) {
            if (!stored.isArray() || stored.size() != written.size()) {
                out.add(path + ": written " + written + ", stored " + stored);
                return;
            }
            for (int i = 0; i < written.size(); i++) {
                compare(path + "[" + i + "]", written.get(i), stored.get(i), out);
            }
        } else if (written.isNumber() && stored.isNumber()) {
            if (written.decimalValue().compareTo(stored.decimalValue()) != 0) {
                out.add(path + ": written " + written + ", stored " + stored);
            }
        } else if (!written.equals(stored)) {
            out.add(path + ": written " + written + ", stored " + stored);
        }
    }
}
