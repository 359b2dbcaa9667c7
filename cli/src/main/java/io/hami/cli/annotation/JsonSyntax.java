package io.hami.cli.annotation;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * JSON that does not parse, said in plain words with its line and column. Jackson's messages name its own tokens and
 * classes ("Unexpected character ('x' (code 120)): expected a valid value (JSON String, Number, Array, Object or
 * token 'null', 'true' or 'false')"); an operator wants to know what is wrong where.
 */
final class JsonSyntax {
    private static final Pattern UNEXPECTED = Pattern.compile("Unexpected character \\('(.+?)' \\(code \\d+\\)\\)");
    private static final Pattern UNRECOGNIZED = Pattern.compile("Unrecognized token '(.*?)'");

    private JsonSyntax() {}

    static String describe(JacksonException e) {
        TokenStreamLocation at = e.getLocation();
        String where =
                at == null || at.getLineNr() < 1 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return "not valid JSON" + where + ": " + what(e.getOriginalMessage());
    }

    /** What is wrong, from Jackson's message. */
    static String what(String message) {
        String m = message == null ? "" : message;
        Matcher unexpected = UNEXPECTED.matcher(m);
        Matcher unrecognized = UNRECOGNIZED.matcher(m);
        if (m.contains("end-of-input") || m.contains("No content to map")) {
            return "the text ends before the JSON value does";
        }
        if (m.startsWith("Trailing token")) {
            return "more text after the JSON value";
        }
        if (m.startsWith("Unexpected close marker")) {
            return "a closing bracket that does not match the opening one";
        }
        if (m.contains("Illegal unquoted character")) {
            return "a control character (a raw newline or tab) inside a string; write it as \\n or \\t";
        }
        if (unrecognized.find()) {
            return "unknown word \"" + unrecognized.group(1) + "\" (strings need double quotes; the only bare words "
                    + "are true, false and null)";
        }
        if (unexpected.find()) {
            String c = unexpected.group(1);
            if (c.equals("'")) {
                return "a single quote; JSON strings need double quotes";
            }
            if (m.contains("double-quote to start field name")) {
                return "'" + c + "' where a field name in double quotes belongs";
            }
            if (m.contains("was expecting comma") || m.contains("expecting a colon")) {
                return "'" + c + "' where a comma, a colon or a closing bracket belongs";
            }
            return "unexpected '" + c + "'";
        }
        // Anything else: Jackson's first clause, without its token names and source excerpt.
        int cut = m.indexOf(':');
        return (cut > 0 ? m.substring(0, cut) : m).strip();
    }
}
