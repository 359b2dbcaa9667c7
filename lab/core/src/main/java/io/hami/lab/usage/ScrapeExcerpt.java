package io.hami.lab.usage;

import java.util.ArrayList;
import java.util.List;

/** A few lines of a monitor's exposition: every {@code hami_} series of one container, for the report. */
final class ScrapeExcerpt {
    private ScrapeExcerpt() {}

    /** The sample lines that name the pod and container of the first container series in {@code exposition}. */
    static List<String> firstContainer(String exposition, int maxLines) {
        String container = null;
        var out = new ArrayList<String>();
        for (String line : exposition.split("\n")) {
            if (!line.startsWith("hami_") || !line.contains("container=\"")) {
                continue;
            }
            if (container == null) {
                container = podAndContainer(line);
            }
            if (container.equals(podAndContainer(line)) && out.size() < maxLines) {
                out.add(line);
            }
        }
        return out;
    }

    private static String podAndContainer(String line) {
        return label(line, "pod") + "/" + label(line, "container");
    }

    private static String label(String line, String name) {
        int at = line.indexOf("," + name + "=\"");
        if (at < 0) {
            at = line.indexOf("{" + name + "=\"");
        }
        if (at < 0) {
            return "";
        }
        int start = at + name.length() + 3;
        return line.substring(start, line.indexOf('"', start));
    }
}
