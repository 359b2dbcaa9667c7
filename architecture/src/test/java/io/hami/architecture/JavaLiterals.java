package io.hami.architecture;

import java.util.ArrayList;
import java.util.List;

/** The string literals of a Java source file, as written (escapes kept), skipping comments and char literals. */
final class JavaLiterals {
    private JavaLiterals() {}

    static List<String> strings(String source) {
        List<String> literals = new ArrayList<>();
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                i = end(source.indexOf('\n', i), n);
            } else if (source.startsWith("/*", i)) {
                i = end(source.indexOf("*/", i + 2), n) + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                int close = end(source.indexOf("\"\"\"", i + 3), n);
                literals.add(
                        source.substring(source.indexOf('\n', i) + 1, close).strip());
                i = close + 3;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                if (c == '"') {
                    literals.add(source.substring(i + 1, Math.min(j, n)));
                }
                i = j + 1;
            } else {
                i++;
            }
        }
        return literals;
    }

    private static int end(int index, int length) {
        return index < 0 ? length : index;
    }
}
