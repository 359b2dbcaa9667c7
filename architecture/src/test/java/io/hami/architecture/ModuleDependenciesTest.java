package io.hami.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static io.hami.architecture.Module.in;
import static io.hami.architecture.Module.inAny;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The dependency rules the module READMEs state, on every module's main classes. A module may always use itself;
 * {@link #MAY_USE} lists what else of the project it may use, each entry quoting its README.
 */
class ModuleDependenciesTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.hami");
    }

    static final Map<Module, Set<Module>> MAY_USE = Map.ofEntries(
            // "The JDK only (FFM is final since JDK 22)."
            Map.entry(Module.NATIVE_BINDINGS, EnumSet.noneOf(Module.class)),
            // "Nothing else in the project."
            Map.entry(Module.PROTOCOL, EnumSet.noneOf(Module.class)),
            // "It depends only on hami-protocol; nothing depends on it except through the SPI."
            Map.entry(Module.NVIDIA, EnumSet.of(Module.PROTOCOL)),
            Map.entry(Module.CAMBRICON, EnumSet.of(Module.PROTOCOL)),
            Map.entry(Module.MTHREADS, EnumSet.of(Module.PROTOCOL)),
            Map.entry(Module.HYGON, EnumSet.of(Module.PROTOCOL)),
            // vendors/<vendor>/node: "hami-plugin (the SPI ...), hami-native-bindings (its vendor's FFM wrappers),
            // its own hami-backend-<vendor> (keys, type keyword) and hami-protocol"
            Map.entry(Module.NVIDIA_NODE, nodeMayUse(Module.NVIDIA)),
            Map.entry(Module.CAMBRICON_NODE, nodeMayUse(Module.CAMBRICON)),
            Map.entry(Module.MTHREADS_NODE, nodeMayUse(Module.MTHREADS)),
            Map.entry(Module.HYGON_NODE, nodeMayUse(Module.HYGON)),
            // "May depend on: protocol, fabric8 kubernetes-client."
            Map.entry(Module.KUBE, EnumSet.of(Module.PROTOCOL)),
            // "May depend on: protocol (SPI, codecs), kube, ... Never on a vendor module."
            Map.entry(Module.SCHEDULER, EnumSet.of(Module.PROTOCOL, Module.KUBE)),
            // "hami-protocol, hami-kube, hami-native-bindings only for the two exceptions ... No vendor module"
            Map.entry(Module.PLUGIN, EnumSet.of(Module.PROTOCOL, Module.KUBE, Module.NATIVE_BINDINGS)),
            // "May depend on: native-bindings, kube, protocol ... Never on plugin, scheduler or a vendor
            // module."
            Map.entry(Module.MONITOR, EnumSet.of(Module.NATIVE_BINDINGS, Module.KUBE, Module.PROTOCOL)),
            // "No other hami module"
            Map.entry(Module.LAB_APISERVER, EnumSet.noneOf(Module.class)),
            Map.entry(Module.CONTROL_PLANE, EnumSet.noneOf(Module.class)),
            // lab/README: "Depends on the scheduler, the plugins, the kube edge and the protocol" and "the node monitor
            // (hami-monitor)", and its module
            // list names lab/apiserver and lab/control-plane as the lab's API servers. Vendors: runtime only.
            Map.entry(
                    Module.LAB,
                    EnumSet.of(
                            Module.SCHEDULER,
                            Module.PLUGIN,
                            Module.MONITOR,
                            Module.KUBE,
                            Module.PROTOCOL,
                            Module.LAB_APISERVER,
                            Module.CONTROL_PLANE)),
            // lab/cli/README: "May depend on every module; nothing depends on it."
            Map.entry(Module.LAB_CLI, EnumSet.complementOf(EnumSet.of(Module.LAB_CLI))),
            // cli/README: "May depend on every other module but the lab's (lab/*): it is the production distribution,
            // which the images hold; nothing depends on it but lab/cli."
            Map.entry(Module.CLI, EnumSet.complementOf(EnumSet.copyOf(union(Module.LAB_SIDE, Module.CLI)))));

    /** One test per module: it uses no other module than its README allows. */
    @TestFactory
    Stream<DynamicTest> eachModuleUsesOnlyWhatItsReadmeAllows() {
        return MAY_USE.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .filter(e -> !forbidden(e.getKey(), e.getValue()).isEmpty())
                .map(e -> DynamicTest.dynamicTest(
                        e.getKey().path,
                        () -> noClasses()
                                .that(in(e.getKey()))
                                .should()
                                .dependOnClassesThat(inAny(forbidden(e.getKey(), e.getValue())))
                                .because(e.getKey().readme() + " says what it may depend on")
                                .allowEmptyShould(Module.VENDOR_NODES.contains(e.getKey()))
                                .check(classes)));
    }

    private static Set<Module> nodeMayUse(Module backend) {
        return EnumSet.of(Module.PLUGIN, Module.NATIVE_BINDINGS, backend, Module.PROTOCOL);
    }

    private static Set<Module> forbidden(Module module, Set<Module> mayUse) {
        return EnumSet.complementOf(EnumSet.copyOf(union(mayUse, module)));
    }

    private static Set<Module> union(Set<Module> modules, Module module) {
        EnumSet<Module> all = EnumSet.copyOf(modules);
        all.add(module);
        return all;
    }

    @Test
    void pluginUsesOnlyTheVendorLibraryFailuresOfNativeBindings() {
        check(noClasses()
                .that(in(Module.PLUGIN))
                .should()
                .dependOnClassesThat(in(Module.NATIVE_BINDINGS)
                        .and(DescribedPredicate.describe(
                                "are no vendor library failure",
                                c -> !c.isAssignableTo(NATIVE_FAILURE) && !c.isAssignableTo(VENDOR_STATUS))))
                .because("plugin/README.md: hami-native-bindings only for the two exceptions that mean the vendor"
                        + " library failed"));
    }

    private static final String NATIVE_FAILURE = "io.hami.nativebind.NativeLibraryException";
    private static final String VENDOR_STATUS = "io.hami.nativebind.VendorStatusException";

    @Test
    void nativeBindingsUseTheJdkOnly() {
        check(classes()
                .that(in(Module.NATIVE_BINDINGS))
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "io.hami.nativebind..")
                .because("native-bindings/README.md: the JDK only"));
    }

    @Test
    void protocolUsesTheKubernetesModelAndJacksonOnly() {
        check(classes()
                .that(in(Module.PROTOCOL))
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "java..",
                        "io.hami.protocol..",
                        "io.fabric8.kubernetes.api.model..",
                        "tools.jackson..",
                        "com.fasterxml.jackson.annotation..")
                .because("protocol/README.md: fabric8 kubernetes-model-core (plain data classes), Jackson"));
    }

    @Test
    void noKubernetesClientInProtocolOrVendors() {
        check(noClasses()
                .that(inAny(union(Module.VENDORS, Module.PROTOCOL)))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.fabric8.kubernetes.client..")
                .because("the protocol and the vendor units are pure functions of their inputs, with no I/O"));
    }

    @Test
    void onlyNativeBindingsUseForeignMemory() {
        check(noClasses()
                .that(not(in(Module.NATIVE_BINDINGS)))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.lang.foreign..")
                .because("native-bindings/README.md: FFM lives there; plugins use only the wrappers"));
    }

    @Test
    void rawBindingsStayInsideNativeBindings() {
        check(
                noClasses()
                        .that(not(in(Module.NATIVE_BINDINGS)))
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage("io.hami.nativebind.*.raw..")
                        .because(
                                "native-bindings/README.md: plugins use only the wrappers, never the jextract-shaped bindings"));
    }

    /**
     * Packages use each other one way, in every module (cli's Main once sat in a circle with its commands, lab.check
     * with the lab's scheduler and observer, protocol's annotation and config packages with spi).
     */
    @Test
    void noPackageCycles() {
        slices().matching("io.hami.(**)")
                .should()
                .beFreeOfCycles()
                .because("a package is a feature; features that use each other are one feature or want a third")
                .check(classes);
    }

    private static void check(ArchRule rule) {
        rule.check(classes);
    }
}
