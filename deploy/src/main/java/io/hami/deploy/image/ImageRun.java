package io.hami.deploy.image;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a command from an unpacked image's own root filesystem, as a container runtime would: in a private mount
 * namespace ({@code unshare --mount}), with {@code /proc} and {@code /dev}, the given host paths bind-mounted at
 * their container paths, the root filesystem read-only when asked (the manifests' {@code readOnlyRootFilesystem}),
 * then {@code chroot} as the image's user with exactly the image's environment plus {@code env}.
 */
public final class ImageRun {
    /**
     * Mount points are made before the root turns read-only; the mounts go away with the namespace. Arguments:
     * ROOT READ_ONLY (HOST CONTAINER_PATH)... -- COMMAND...
     */
    private static final String SCRIPT = """
            set -eu
            root=$1; ro=$2; shift 2
            mkdir -p "$root/proc" "$root/dev"
            binds=""
            while [ "$1" != -- ]; do
              host=$1; target=$root$2; shift 2
              if [ -d "$host" ]; then mkdir -p "$target"; else mkdir -p "$(dirname "$target")"; : >>"$target"; fi
              binds="$binds $host $target"
            done
            shift
            if [ "$ro" = true ]; then mount --bind "$root" "$root"; mount -o remount,bind,ro "$root"; fi
            mount --rbind /proc "$root/proc"
            mount --rbind /dev "$root/dev"
            set -- $binds -- "$@"
            while [ "$1" != -- ]; do mount --bind "$1" "$2"; shift 2; done
            shift
            exec "$@"
            """;

    private ImageRun() {}

    /**
     * The command line that runs {@code command} in {@code image} as {@code user} (empty: root) with the image's
     * environment and {@code env}; {@code binds} maps host paths (no spaces) to container paths.
     */
    public static List<String> command(
            OciImage image,
            String user,
            boolean readOnly,
            Map<Path, String> binds,
            Map<String, String> env,
            List<String> command) {
        var line = inPrivateMountNamespace(SCRIPT, List.of(image.root().toString(), Boolean.toString(readOnly)));
        binds.forEach((host, path) -> {
            line.add(host.toString());
            line.add(path);
        });
        line.add("--");
        line.add("/usr/bin/env");
        line.add("-i");
        var environment = new LinkedHashMap<>(image.environment());
        environment.putAll(env);
        environment.forEach((k, v) -> line.add(k + "=" + v));
        line.add("/usr/sbin/chroot");
        if (!user.isEmpty()) {
            line.add("--userspec=" + user);
        }
        line.add(image.root().toString());
        line.addAll(command);
        return line;
    }

    /** {@code sh -c SCRIPT sh ARGS...} in a private mount namespace: its mounts go away with it. */
    static List<String> inPrivateMountNamespace(String script, List<String> args) {
        var line = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh"));
        line.addAll(args);
        return line;
    }

    /** The image's entry point up to and including {@code -jar /opt/hami/hami.jar}: its JVM, without the subcommand. */
    public static List<String> jvm(OciImage image) {
        List<String> entrypoint = image.entrypoint();
        return entrypoint.subList(0, entrypoint.indexOf("-jar") + 2);
    }
}
