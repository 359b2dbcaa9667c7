package io.hami.lab.report;

import java.util.Locale;

/** A small SVG writer: the report draws its charts itself, so it needs nothing from the network. */
final class Svg {
    private final StringBuilder b = new StringBuilder();

    Svg(int width, int height, String label) {
        b.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\""
                        + " role=\"img\" aria-label=\"%s\" font-family=\"system-ui, sans-serif\" style=\"max-width:100%%;height:auto\">",
                width,
                height,
                width,
                height,
                escape(label)));
    }

    Svg line(double x1, double y1, double x2, double y2, String stroke, double width, boolean dashed) {
        b.append(String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>",
                x1,
                y1,
                x2,
                y2,
                stroke,
                width,
                dashed ? " stroke-dasharray=\"4 3\"" : ""));
        return this;
    }

    /** A filled polygon through {@code xs}/{@code ys}. */
    Svg polygon(double[] xs, double[] ys, String fill, String title) {
        b.append("<polygon points=\"");
        for (int i = 0; i < xs.length; i++) {
            b.append(String.format(Locale.ROOT, "%.1f,%.1f ", xs[i], ys[i]));
        }
        b.append("\" fill=\"").append(fill).append("\">");
        if (title != null) {
            b.append("<title>").append(escape(title)).append("</title>");
        }
        b.append("</polygon>");
        return this;
    }

    /** {@code anchor}: start, middle or end. */
    Svg text(double x, double y, String text, String anchor, int size, String fill) {
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\">%s</text>",
                x,
                y,
                anchor,
                size,
                fill,
                escape(text)));
        return this;
    }

    String end() {
        return b.append("</svg>").toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
