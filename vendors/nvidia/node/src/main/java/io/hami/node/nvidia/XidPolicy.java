package io.hami.node.nvidia;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which XIDs make a GPU unhealthy (docs/upstream.md#plugin-health), from the plugin's environment as upstream
 * reads it: {@code DP_DISABLE_HEALTHCHECKS} is {@code all} or {@code xids} (no XID is critical) or a comma list
 * of XIDs to ignore; {@code DP_ENABLE_HEALTHCHECKS} is a comma list of XIDs that are critical whatever else says
 * so ({@code all}: every XID, the application ones included). Application XIDs 13, 31, 43, 45, 68 and 109 are
 * always ignored unless enabled. Values that are no XID are ignored, as upstream does, and listed in
 * {@link #malformed()} so that the plugin can log them.
 *
 * @param disableAll XID health checks are off
 * @param ignored    XIDs that do not make a GPU unhealthy (the application XIDs and the disabled ones)
 * @param enableAll  every XID is critical
 * @param forced     XIDs that are critical even when disabled
 * @param malformed  the list entries that are no XID
 */
record XidPolicy(boolean disableAll, Set<Long> ignored, boolean enableAll, Set<Long> forced, List<String> malformed) {
    static final String DISABLE_ENV = "DP_DISABLE_HEALTHCHECKS";
    static final String ENABLE_ENV = "DP_ENABLE_HEALTHCHECKS";
    static final Set<Long> APPLICATION_XIDS = Set.of(13L, 31L, 43L, 45L, 68L, 109L);

    /** Upstream's default: every XID but the application ones. */
    static final XidPolicy DEFAULT = of(null, null);

    XidPolicy {
        ignored = Set.copyOf(ignored);
        forced = Set.copyOf(forced);
        malformed = List.copyOf(malformed);
    }

    static XidPolicy fromEnv(Map<String, String> env) {
        return of(env.get(DISABLE_ENV), env.get(ENABLE_ENV));
    }

    /** The policy of the two variables' values; null or blank: unset. */
    static XidPolicy of(String disable, String enable) {
        List<String> malformed = new ArrayList<>();
        Set<Long> ignored = new HashSet<>(APPLICATION_XIDS);
        boolean disableAll = parse(disable, ignored, malformed, DISABLE_ENV);
        Set<Long> forced = new HashSet<>();
        boolean enableAll = parse(enable, forced, malformed, ENABLE_ENV);
        return new XidPolicy(disableAll, ignored, enableAll, forced, malformed);
    }

    /** Adds the XIDs of {@code value} to {@code into}; true when it says {@code all} (or {@code xids}). */
    private static boolean parse(String value, Set<Long> into, List<String> malformed, String variable) {
        boolean all = false;
        if (value == null) {
            return false;
        }
        for (String part : value.toLowerCase(Locale.ROOT).split(",", -1)) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            if (p.equals("all") || p.equals("xids")) {
                all = true;
                continue;
            }
            try {
                long xid = Long.parseLong(p);
                if (xid < 0) {
                    throw new NumberFormatException();
                }
                into.add(xid);
            } catch (NumberFormatException e) {
                malformed.add(variable + "=" + part.strip());
            }
        }
        return all;
    }

    /** Whether XID {@code xid} makes its GPU unhealthy. */
    boolean isCritical(long xid) {
        if (enableAll || forced.contains(xid)) {
            return true;
        }
        return !disableAll && !ignored.contains(xid);
    }

    /** Whether no XID can be critical, so that there is no point in watching events. */
    boolean watchesNothing() {
        return disableAll && !enableAll && forced.isEmpty();
    }
}
