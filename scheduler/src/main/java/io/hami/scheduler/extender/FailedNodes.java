package io.hami.scheduler.extender;

import io.hami.scheduler.fit.Denial;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Filter's {@code FailedNodes}: upstream's text of each node's denial, read through from the denials while the reply is
 * written. A filter call so keeps one map of its failed nodes (thousands on a large cluster), not a second one of texts.
 */
final class FailedNodes extends AbstractMap<String, String> {
    private final Map<String, Denial> denials;

    /** {@code denials} must not change afterwards. */
    FailedNodes(Map<String, Denial> denials) {
        this.denials = denials;
    }

    @Override
    public int size() {
        return denials.size();
    }

    @Override
    public boolean containsKey(Object node) {
        return denials.containsKey(node);
    }

    @Override
    public String get(Object node) {
        Denial d = denials.get(node);
        return d == null ? null : d.text();
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return denials.size();
            }

            @Override
            public Iterator<Entry<String, String>> iterator() {
                var each = denials.entrySet().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return each.hasNext();
                    }

                    @Override
                    public Entry<String, String> next() {
                        var e = each.next();
                        return new SimpleImmutableEntry<>(
                                e.getKey(), e.getValue().text());
                    }
                };
            }
        };
    }
}
