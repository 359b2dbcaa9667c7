package io.hami.deploy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Fields of a manifest that the Kubernetes API does not define. fabric8's model keeps any unknown field in the
 * {@code additionalProperties} of the object it appears in, so a misspelt field ({@code readOnlyRootFileSystem})
 * parses without error, is stored by a lenient server and ignored by a real one; this finds them.
 */
final class UnknownFields {
    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

    private UnknownFields() {}

    /** Paths such as {@code spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem}. */
    static List<String> in(Object model) {
        var out = new ArrayList<String>();
        walk(model, "", out);
        return out;
    }

    private static void walk(Object value, String path, List<String> out) {
        if (value == null) {
            return;
        }
        if (value instanceof Collection<?> list) {
            int i = 0;
            for (Object item : list) {
                walk(item, path + "[" + i++ + "]", out);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, path + "[" + k + "]", out));
            return;
        }
        if (!value.getClass().getName().startsWith(MODEL_PACKAGE)) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0
                    || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object child;
            try {
                child = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + path + "." + getter.getName(), e);
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                ((Map<?, ?>) child).keySet().forEach(k -> out.add((path.isEmpty() ? "" : path + ".") + k));
                continue;
            }
            String field = Character.toLowerCase(getter.getName().charAt(3))
                    + getter.getName().substring(4);
            walk(child, path.isEmpty() ? field : path + "." + field, out);
        }
    }
}
