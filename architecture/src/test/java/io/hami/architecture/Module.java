package io.hami.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** The project's main modules, each known by its package root (the longest matching root wins). */
enum Module {
    NATIVE_BINDINGS("native-bindings", "io.hami.nativebind"),
    PROTOCOL("protocol", "io.hami.protocol"),
    NVIDIA("vendors/nvidia/scheduler", "io.hami.backend.nvidia"),
    CAMBRICON("vendors/cambricon/scheduler", "io.hami.backend.cambricon"),
    MTHREADS("vendors/mthreads/scheduler", "io.hami.backend.mthreads"),
    HYGON("vendors/hygon/scheduler", "io.hami.backend.hygon"),
    NVIDIA_NODE("vendors/nvidia/node", "io.hami.node.nvidia"),
    CAMBRICON_NODE("vendors/cambricon/node", "io.hami.node.cambricon"),
    MTHREADS_NODE("vendors/mthreads/node", "io.hami.node.mthreads"),
    HYGON_NODE("vendors/hygon/node", "io.hami.node.hygon"),
    KUBE("kube", "io.hami.kube"),
    SCHEDULER("scheduler", "io.hami.scheduler"),
    PLUGIN("plugin", "io.hami.plugin"),
    MONITOR("monitor", "io.hami.monitor"),
    LAB_APISERVER("lab/apiserver", "io.hami.lab.apiserver"),
    CONTROL_PLANE("lab/control-plane", "io.hami.controlplane"),
    LAB("lab/core", "io.hami.lab"),
    LAB_CLI("lab/cli", "io.hami.lab.cli"),
    CLI("cli", "io.hami.cli");

    static final Set<Module> VENDORS = EnumSet.of(NVIDIA, CAMBRICON, MTHREADS, HYGON);
    static final Set<Module> VENDOR_NODES = EnumSet.of(NVIDIA_NODE, CAMBRICON_NODE, MTHREADS_NODE, HYGON_NODE);
    /** The lab's modules: none of them is part of the production distribution (the images). */
    static final Set<Module> LAB_SIDE = EnumSet.of(LAB_APISERVER, CONTROL_PLANE, LAB, LAB_CLI);

    final String path;
    final String packageRoot;

    Module(String path, String packageRoot) {
        this.path = path;
        this.packageRoot = packageRoot;
    }

    /** The README that states this module's dependencies. */
    String readme() {
        return (this == LAB ? "lab" : path) + "/README.md";
    }

    static Optional<Module> of(String packageName) {
        return Arrays.stream(values())
                .filter(m -> packageName.equals(m.packageRoot) || packageName.startsWith(m.packageRoot + "."))
                .max(Comparator.comparingInt(m -> m.packageRoot.length()));
    }

    boolean contains(JavaClass javaClass) {
        return of(javaClass.getPackageName()).orElse(null) == this;
    }

    static DescribedPredicate<JavaClass> in(Module module) {
        return DescribedPredicate.describe("in " + module.path, module::contains);
    }

    static DescribedPredicate<JavaClass> inAny(Set<Module> modules) {
        return DescribedPredicate.describe(
                "in " + modules.stream().map(m -> m.path).toList(),
                c -> of(c.getPackageName()).filter(modules::contains).isPresent());
    }
}
