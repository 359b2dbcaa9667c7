package io.hami.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.attribute.ConstantValueAttribute;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.StringEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Annotation keys belong to protocol and the vendors' scheduler sides (vendors/<vendor>/scheduler): no other module
 * spells one. Checked twice, since javac copies a {@code static final String} into every class that reads it: the
 * compiled classes' constant pools may hold only keys the protocol or a vendor declares as a constant, and the sources
 * may hold no such string literal at all (a literal equal to a declared key looks like a use of the constant in
 * bytecode).
 */
class AnnotationKeyLiteralsTest {

    /** The protocol's key prefix and the vendors' annotation prefixes (their resource names share them). */
    static final List<String> KEY_PREFIXES =
            List.of("hami.io/", "nvidia.com/", "cambricon.com/", "mthreads.com/", "hygon.com/");

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.hami");
    }

    @Test
    void compiledClassesHoldOnlyKeysTheProtocolOrAVendorDeclares() {
        Set<String> declared = new TreeSet<>();
        Set<String> found = new TreeSet<>();
        for (JavaClass javaClass : classes) {
            var module = Module.of(javaClass.getPackageName());
            if (module.isEmpty()) {
                continue;
            }
            ClassModel model = ClassFile.of().parse(bytes(javaClass));
            if (keyOwner(module.get())) {
                model.fields()
                        .forEach(f -> f.findAttribute(java.lang.classfile.Attributes.constantValue())
                                .map(ConstantValueAttribute::constant)
                                .filter(StringEntry.class::isInstance)
                                .map(c -> ((StringEntry) c).stringValue())
                                .filter(AnnotationKeyLiteralsTest::isKey)
                                .ifPresent(declared::add));
            } else {
                for (PoolEntry entry : model.constantPool()) {
                    if (entry instanceof StringEntry s && isKey(s.stringValue())) {
                        found.add(javaClass.getName() + ": " + s.stringValue());
                    }
                }
            }
        }
        assertThat(declared)
                .as("keys declared by the protocol and the vendors (the check sees them)")
                .isNotEmpty();
        Set<String> undeclared = new TreeSet<>(found);
        undeclared.removeIf(line -> declared.contains(line.substring(line.indexOf(": ") + 2)));
        assertThat(undeclared)
                .as("string constants outside protocol and the vendors' scheduler sides that start with a protocol"
                        + " or vendor key prefix but are no constant of those (declare the key there)")
                .isEqualTo(Allowed.read("compiled-key-constants.allowed"));
    }

    @Test
    void sourcesOutsideTheProtocolAndVendorsSpellNoKey() throws IOException {
        Path root = Path.of(System.getProperty("hami.root", ".."));
        Set<String> found = new TreeSet<>();
        for (Module module : Module.values()) {
            Path sources = root.resolve(module.path).resolve("src/main/java");
            if (keyOwner(module) || !Files.isDirectory(sources)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                        .sorted()
                        .toList()) {
                    String text = Files.readString(file, StandardCharsets.UTF_8);
                    for (String literal : JavaLiterals.strings(text)) {
                        if (isKey(literal)) {
                            found.add(root.relativize(file) + ": " + literal);
                        }
                    }
                }
            }
        }
        assertThat(found)
                .as("string literals in main sources outside protocol and the vendors' scheduler sides that start"
                        + " with a protocol or vendor key prefix (use the constant of protocol or the vendor)")
                .isEqualTo(Allowed.read("source-key-literals.allowed"));
    }

    static boolean isKey(String value) {
        return KEY_PREFIXES.stream().anyMatch(value::startsWith);
    }

    private static boolean keyOwner(Module module) {
        return module == Module.PROTOCOL || Module.VENDORS.contains(module);
    }

    private static byte[] bytes(JavaClass javaClass) {
        var uri = javaClass.getSource().orElseThrow().getUri();
        try (InputStream in = uri.toURL().openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + uri, e);
        }
    }
}
