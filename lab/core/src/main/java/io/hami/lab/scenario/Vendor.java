package io.hami.lab.scenario;

import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.ResourceNames;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The four vendors as a scenario names them, with what the lab needs to give a node that vendor's mock
 * hardware: the folder of its mock libraries and their file names (the SONAMEs the plugins load).
 */
public enum Vendor {
    NVIDIA("nvidia", "NVIDIA", 100, List.of("libnvidia-ml.so.1")),
    CAMBRICON("cambricon", "MLU", 100, List.of("libcndev.so")),
    MTHREADS("mthreads", "Mthreads", 16, List.of("libmtml.so.2", "libmtml.so")),
    HYGON("hygon", "HCU", 100, List.of("librocm_smi64.so.2", "libhydmi.so.1"));

    private final String yamlName;
    private final String keyword;
    private final int cores;
    private final List<String> libraries;

    Vendor(String yamlName, String keyword, int cores, List<String> libraries) {
        this.yamlName = yamlName;
        this.keyword = keyword;
        this.cores = cores;
        this.libraries = libraries;
    }

    /** The compute share of one whole device in pod device strings (design D1 in docs/design.md#d1: percent; Moore Threads 16). */
    public int cores() {
        return cores;
    }

    /** The name in scenario files, also the mock folder and the plugin's {@code --backend}. */
    public String yamlName() {
        return yamlName;
    }

    /** The type keyword of pod device strings, which finds the vendor's backend. */
    public String keyword() {
        return keyword;
    }

    /**
     * Whether the scheduler reads this vendor from a register annotation (NVIDIA, Hygon), where each device has a
     * split count; the others are discovered from node capacity.
     */
    public boolean registered() {
        return this == NVIDIA || this == HYGON;
    }

    /** This vendor's resource names under the lab's device config (the defaults). */
    public ResourceNames resources() {
        return Resources.BY_KEYWORD.get(keyword);
    }

    /** Loaded on first use: reading a scenario needs no backend otherwise. */
    private static final class Resources {
        static final Map<String, ResourceNames> BY_KEYWORD = DeviceBackends.load(DeviceConfig.DEFAULTS).all().stream()
                .collect(Collectors.toMap(DeviceBackend::vendor, DeviceBackend::resources));
    }

    /** The mock library files, the first being the one the plugin loads. */
    public List<String> libraries() {
        return libraries;
    }

    public static Vendor byKeyword(String keyword) {
        for (Vendor v : values()) {
            if (v.keyword.equals(keyword)) {
                return v;
            }
        }
        return null;
    }
}
