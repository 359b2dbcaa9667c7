package io.hami.lab.check;

import java.util.List;

/**
 * One invariant of a run and what broke it.
 *
 * @param name        short name
 * @param statement   what must hold
 * @param checked     how many things were looked at (devices, containers, nodes, pods)
 * @param violations  one line per violation; empty when it holds
 */
public record Invariant(String name, String statement, int checked, List<String> violations) {
    public Invariant {
        violations = List.copyOf(violations);
    }

    public boolean holds() {
        return violations.isEmpty();
    }
}
