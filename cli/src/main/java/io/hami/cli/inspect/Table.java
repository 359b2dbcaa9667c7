package io.hami.cli.inspect;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table like kubectl's: upper-case headers, columns padded to their widest cell, three spaces apart. */
final class Table {
    private static final String GAP = "   ";

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... headers) {
        this.headers = List.of(headers);
    }

    void row(String... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException(
                    "row has " + cells.length + " cells, the table " + headers.size() + " columns");
        }
        rows.add(List.of(cells));
    }

    /** The table, one line per row, each line ended by a newline; trailing spaces are trimmed. */
    String render() {
        int[] widths = new int[headers.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = headers.get(c).length();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        var out = new StringBuilder();
        line(out, headers, widths);
        rows.forEach(row -> line(out, row, widths));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        var line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            line.append(cells.get(c));
            if (c < cells.size() - 1) {
                line.append(" ".repeat(widths[c] - cells.get(c).length())).append(GAP);
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
