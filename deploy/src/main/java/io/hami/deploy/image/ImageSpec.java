package io.hami.deploy.image;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One image the build makes: its name, what its entry point runs, its environment and user, and what it holds
 * besides the base root filesystem, the linked runtime and the distribution. The single definition the image build
 * and the tests read.
 *
 * @param name the image's name under {@code hami-java/} (the manifests' image names)
 * @param entrypoint the entry point, in exec form
 * @param environment the image's environment
 * @param user {@code uid:gid}, empty for root
 * @param backend the {@code --backend} of a device plugin image (its AOT cache is trained on that plugin's start),
 *     empty for the scheduler
 * @param hamiCore whether the image holds HAMi-core ({@code /opt/hami/vgpu/libvgpu.so}), its install script and a
 *     shell to run it (the NVIDIA DaemonSet's init container)
 */
public record ImageSpec(
        String name,
        List<String> entrypoint,
        Map<String, String> environment,
        Optional<String> user,
        Optional<String> backend,
        boolean hamiCore) {
    /** The tag of every image: the version the manifests name. */
    public static final String TAG = "0.1.0";

    public static final String HOME = "/opt/hami";
    public static final String JAVA = HOME + "/jre/bin/java";
    public static final String JAR = HOME + "/hami.jar";
    public static final String AOT_CACHE = HOME + "/hami.aot";
    public static final String HAMI_CORE = HOME + "/vgpu/libvgpu.so";
    public static final String INSTALL_HAMI_CORE = HOME + "/bin/install-hami-core.sh";
    /** The scheduler's user (and group): nonroot of the base root filesystem's /etc/passwd. */
    public static final String NONROOT = "65532:65532";

    public ImageSpec {
        entrypoint = List.copyOf(entrypoint);
        environment = Map.copyOf(environment);
    }

    /**
     * The image's OCI annotations as config labels ({@code org.opencontainers.image.*}): title, description, version.
     * The build adds what it learns from the base root filesystem ({@code io.hami.image.base}: the Debian release
     * and packages). No {@code source} or {@code licenses}: the project declares neither yet.
     */
    public Map<String, String> labels() {
        String description = backend.map(b -> "hami-java device plugin for "
                        + switch (b) {
                            case "nvidia" ->
                                "NVIDIA GPUs (NVML), with HAMi-core and its installer, and the node "
                                        + "monitor (hami monitor)";
                            case "cambricon" -> "Cambricon MLUs (CNDev)";
                            case "mthreads" -> "Moore Threads GPUs (MTML)";
                            case "hygon" -> "Hygon HCUs (ROCm SMI and hydmi)";
                            default -> b;
                        }
                        + ": hami plugin --backend " + b)
                .orElse("hami-java scheduler: kube-scheduler extender (filter, prioritize, bind, preempt), mutating "
                        + "webhook, node lock and handshake, /metrics: hami scheduler");
        return Map.of(
                "org.opencontainers.image.title",
                        reference().substring(0, reference().lastIndexOf(':')),
                "org.opencontainers.image.description", description,
                "org.opencontainers.image.version", TAG);
    }

    /** The image reference the build writes into the archive: {@code hami-java/<name>:<tag>}. */
    public String reference() {
        return "hami-java/" + name + ":" + TAG;
    }

    /** The five images: the scheduler and one device plugin per vendor. */
    public static List<ImageSpec> all() {
        var images = new ArrayList<ImageSpec>();
        // The heap and the collector are the Deployment's (JDK_JAVA_OPTIONS), next to its memory limit.
        images.add(new ImageSpec(
                "scheduler",
                List.of(
                        JAVA,
                        "-XX:+ExitOnOutOfMemoryError",
                        "--enable-native-access=ALL-UNNAMED",
                        "-jar",
                        JAR,
                        "scheduler"),
                Map.of(),
                Optional.of(NONROOT),
                Optional.empty(),
                false));
        for (String backend : List.of("nvidia", "cambricon", "mthreads", "hygon")) {
            boolean nvidia = backend.equals("nvidia");
            // The NVIDIA container runtime then mounts NVML (libnvidia-ml.so.1) and the device nodes into the plugin.
            Map<String, String> env = nvidia
                    ? Map.of(
                            "NVIDIA_VISIBLE_DEVICES", "all",
                            "NVIDIA_DRIVER_CAPABILITIES", "utility",
                            "NVIDIA_DISABLE_REQUIRE", "true")
                    : Map.of();
            // A small, mostly idle process: one GC thread, C1 only (less memory and compile time at start), the AOT
            // cache; the heap is the DaemonSet's (JDK_JAVA_OPTIONS). Root: the kubelet's device-plugin folder is
            // root's, and the vendor libraries open the device nodes.
            images.add(new ImageSpec(
                    "device-plugin-" + backend,
                    List.of(
                            JAVA,
                            "-XX:+UseSerialGC",
                            "-XX:TieredStopAtLevel=1",
                            "-XX:AOTCache=" + AOT_CACHE,
                            "-XX:+ExitOnOutOfMemoryError",
                            "--enable-native-access=ALL-UNNAMED",
                            "-jar",
                            JAR,
                            "plugin",
                            "--backend",
                            backend),
                    env,
                    Optional.empty(),
                    Optional.of(backend),
                    nvidia));
        }
        return List.copyOf(images);
    }

    /** The image named {@code name}. */
    public static ImageSpec named(String name) {
        return all().stream()
                .filter(i -> i.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no image " + name));
    }
}
