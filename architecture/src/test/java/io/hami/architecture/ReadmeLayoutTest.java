package io.hami.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fenced block under {@code ## Layout} in the root README.md against the tree ({@link Layout}): every entry that
 * starts a line names a path that exists, every top-level folder has an entry, and every Maven module of the reactor
 * has a README.md (the module READMEs state the dependency rules the other tests check).
 */
class ReadmeLayoutTest {

    private static Path root;
    private static String readme;

    @BeforeAll
    static void readTheReadme() throws IOException {
        root = Layout.root();
        readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
    }

    @Test
    void everyEntryOfTheLayoutExists() throws IOException {
        assertThat(Layout.entries(readme))
                .as("entries of README.md's layout")
                .contains("pom.xml")
                .doesNotHaveDuplicates();
        assertThat(Layout.missingEntries(root, readme))
                .as(
                        "entries of README.md's layout (first word of a line in the block under ## Layout) that name"
                                + " no path of the repository at %s",
                        root)
                .isEmpty();
    }

    @Test
    void everyTopLevelFolderHasAnEntry() throws IOException {
        assertThat(Layout.unlistedFolders(root, readme))
                .as(
                        "top-level folders of %s (not hidden, not target/, not ignored by .gitignore) that README.md's"
                                + " layout does not list: add a line, or delete a folder left behind by a move",
                        root)
                .isEmpty();
    }

    @Test
    void everyMavenModuleHasAReadme() throws IOException {
        Set<String> modules = Layout.mavenModules(root);
        assertThat(modules).as("the reactor's modules").contains("protocol", "vendors", "architecture");
        assertThat(modules.stream()
                        .filter(m -> !Files.isRegularFile(root.resolve(m).resolve("README.md"))))
                .as("Maven modules (listed in some <modules>) without a README.md")
                .isEmpty();
    }

    /** {@link Module}'s folders are read by the source checks, which would skip a stale one silently. */
    @Test
    void everyCheckedModuleIsAMavenModuleWithItsReadme() throws IOException {
        Set<String> modules = Layout.mavenModules(root);
        assertThat(Arrays.stream(Module.values()).map(m -> m.path))
                .as("Module paths that are no Maven module of the reactor")
                .allMatch(modules::contains);
        assertThat(Arrays.stream(Module.values()).map(Module::readme))
                .as("Module READMEs (the ones the dependency rules quote)")
                .allMatch(r -> Files.isRegularFile(root.resolve(r)));
    }

    /** The checks themselves, on the real tree with one line of the block made wrong. */
    @Test
    void aWrongOrMissingLineIsReported() throws IOException {
        String renamed = readme.replaceFirst("(?m)^protocol/ ", "protocols/");
        assertThat(renamed).isNotEqualTo(readme);
        assertThat(Layout.missingEntries(root, renamed)).containsExactly("protocols/");
        assertThat(Layout.unlistedFolders(root, renamed)).containsExactly("protocol");

        String dropped = readme.replaceFirst("(?m)^vendors/ .*\\n(^ .*\\n)*", "");
        assertThat(dropped).isNotEqualTo(readme);
        assertThat(Layout.missingEntries(root, dropped)).isEmpty();
        assertThat(Layout.unlistedFolders(root, dropped)).containsExactly("vendors");
    }

    @Test
    void theBlockIsTheOneUnderLayout() {
        String text = String.join(
                "\n",
                "# x",
                "```",
                "not/this",
                "```",
                "## Layout",
                "",
                "```",
                "a/      the a folder",
                "        b/ is prose on a continuation line",
                "c.txt   a file",
                "```",
                "```",
                "nor/this",
                "```");
        assertThat(Layout.entries(text)).isEqualTo(List.of("a/", "c.txt"));
    }
}
