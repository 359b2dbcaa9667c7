package io.hami.plugin.vendor;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a vendor created for each pod (sMLU instance handles, virtual-HCU ids), so it can be destroyed when the
 * pod ends; without it the card runs out of instances. The list is also kept in a file on the host, rewritten
 * whole on every change, so that a restarted plugin (an upgrade, a crash) still frees what the one before it
 * created. A plugin that dies between creating an instance and writing the file leaks that one instance.
 */
public final class PodInstances {
    private static final Logger LOG = LoggerFactory.getLogger(PodInstances.class);
    private static final String HEADER =
            "# hami-java: instances created for pods (pod UID, instance id); freed when the pod ends";
    /** A pod UID and an instance id: no blanks, no line breaks. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private final Path file;
    private final Map<String, List<Integer>> byPod = new LinkedHashMap<>();

    private PodInstances(Path file) {
        this.file = file;
    }

    /**
     * Reads what the previous plugin left in {@code file} (none when it does not exist). Lines that cannot be
     * read are logged and skipped; the instance they named is then not freed by this plugin.
     */
    public static PodInstances open(Path file) {
        var instances = new PodInstances(file);
        if (!Files.exists(file)) {
            return instances;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            LOG.warn(
                    "cannot read {}: {}; instances created by an earlier plugin will not be freed",
                    file,
                    e.getMessage());
            return instances;
        }
        int skipped = 0;
        int firstSkipped = 0;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 2 || !TOKEN.matcher(parts[0]).matches() || !parts[1].matches("\\d{1,9}")) {
                firstSkipped = skipped++ == 0 ? n + 1 : firstSkipped;
                continue;
            }
            instances.byPod.computeIfAbsent(parts[0], uid -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
        }
        if (skipped > 0) {
            LOG.warn(
                    "{}: skipped {} line(s) that are not '<pod UID> <instance id>', the first at line {}; the instances"
                            + " they named are not freed",
                    file,
                    skipped,
                    firstSkipped);
        }
        if (!instances.byPod.isEmpty()) {
            LOG.info("{}: {} pod(s) hold instances created by an earlier plugin", file, instances.byPod.size());
        }
        return instances;
    }

    /** Records that {@code instance} was created for pod {@code podUid}. */
    public synchronized void add(String podUid, int instance) {
        if (!TOKEN.matcher(podUid).matches()) {
            throw new IllegalArgumentException("pod UID '" + podUid + "' cannot be recorded");
        }
        byPod.computeIfAbsent(podUid, uid -> new ArrayList<>()).add(instance);
        save();
    }

    public synchronized Set<String> pods() {
        return Set.copyOf(byPod.keySet());
    }

    /** Removes and returns what pod {@code podUid} holds. */
    public synchronized List<Integer> take(String podUid) {
        List<Integer> taken = byPod.remove(podUid);
        if (taken == null) {
            return List.of();
        }
        save();
        return List.copyOf(taken);
    }

    /** Written beside the file and moved over it, so a crash leaves the old list or the new one, never half. */
    private void save() {
        var text = new StringBuilder(HEADER).append('\n');
        byPod.forEach((uid, ids) ->
                ids.forEach(id -> text.append(uid).append(' ').append(id).append('\n')));
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            LOG.warn(
                    "cannot write {}: {}; if this plugin restarts, these instances are not freed",
                    file,
                    e.getMessage());
        }
    }
}
