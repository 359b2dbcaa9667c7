package io.hami.scheduler.bind;

/**
 * Whether the usage index already holds every decision written for a node before a bind took its lock over the
 * unlocked node version {@code freeAt}; when it cannot say so, the bind lists the node's decided pods first.
 */
@FunctionalInterface
public interface EarlierDecisions {
    /** Never proven: every bind lists. */
    EarlierDecisions UNPROVEN = (node, freeAt) -> false;

    boolean seen(String node, String freeAt);
}
