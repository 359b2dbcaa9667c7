package io.hami.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The root README.md's layout block (the fenced block under {@code ## Layout}) and what it describes: each line that
 * does not start with white space is an entry, its first word a path relative to the repository root ({@code name/}
 * for a folder, {@code dir/file} for a file); indented lines continue the entry above.
 */
final class Layout {
    private Layout() {}

    /**
     * The repository root: the {@code hami.root} system property (the architecture POM sets it), else the first
     * folder upwards from {@code basedir} (or the working folder) whose pom.xml is {@code hami-parent}.
     */
    static Path root() {
        String configured = System.getProperty("hami.root");
        if (configured != null && isRoot(Path.of(configured))) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        Path start = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
                .toAbsolutePath()
                .normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (isRoot(dir)) {
                return dir;
            }
        }
        throw new IllegalStateException("no hami-parent pom.xml in " + start + " or above");
    }

    private static boolean isRoot(Path dir) {
        Path pom = dir.resolve("pom.xml");
        return Files.isRegularFile(pom)
                && child(parse(pom), "artifactId")
                        .map(Node::getTextContent)
                        .filter("hami-parent"::equals)
                        .isPresent();
    }

    /** The first words of the block's entry lines, in order. */
    static List<String> entries(String readme) {
        List<String> lines = readme.lines().toList();
        int heading = lines.indexOf("## Layout");
        if (heading < 0) {
            throw new IllegalArgumentException("README.md has no \"## Layout\" heading");
        }
        int open = heading + 1;
        while (open < lines.size() && !lines.get(open).startsWith("```")) {
            if (lines.get(open).startsWith("#")) {
                throw new IllegalArgumentException("no fenced block under \"## Layout\"");
            }
            open++;
        }
        List<String> entries = new ArrayList<>();
        for (int i = open + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("```")) {
                return entries;
            }
            if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
                entries.add(line.split("\\s+", 2)[0]);
            }
        }
        throw new IllegalArgumentException("the block under \"## Layout\" is not closed");
    }

    /** Entries that name no path of the repository (a {@code name/} entry must be a folder). */
    static List<String> missingEntries(Path root, String readme) {
        return entries(readme).stream()
                .filter(e -> {
                    Path path = root.resolve(e);
                    return e.endsWith("/") ? !Files.isDirectory(path) : !Files.exists(path);
                })
                .toList();
    }

    /**
     * Top-level folders that no entry starts with: not hidden, not {@code target}, not matched by a pattern of the
     * root .gitignore (the lab's reports, for instance).
     */
    static Set<String> unlistedFolders(Path root, String readme) throws IOException {
        Set<String> listed = new TreeSet<>();
        for (String entry : entries(readme)) {
            listed.add(entry.split("/", 2)[0]);
        }
        List<PathMatcher> ignored = ignoredTopLevel(root);
        Set<String> unlisted = new TreeSet<>();
        try (Stream<Path> children = Files.list(root)) {
            children.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .filter(name -> !name.startsWith(".") && !name.equals("target"))
                    .filter(name -> ignored.stream().noneMatch(m -> m.matches(Path.of(name))))
                    .filter(name -> !listed.contains(name))
                    .forEach(unlisted::add);
        }
        return unlisted;
    }

    /** The root .gitignore's patterns that can match a top-level name, as glob matchers. */
    private static List<PathMatcher> ignoredTopLevel(Path root) throws IOException {
        Path gitignore = root.resolve(".gitignore");
        if (!Files.isRegularFile(gitignore)) {
            return List.of();
        }
        List<PathMatcher> matchers = new ArrayList<>();
        for (String line : Files.readAllLines(gitignore, StandardCharsets.UTF_8)) {
            String pattern = line.strip();
            if (pattern.isEmpty() || pattern.startsWith("#") || pattern.startsWith("!")) {
                continue;
            }
            pattern = pattern.replaceAll("^/|/$", "");
            if (!pattern.isEmpty() && !pattern.contains("/")) {
                matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern));
            }
        }
        return matchers;
    }

    /** Every folder that some pom.xml of the reactor lists in {@code <modules>}, relative to the root. */
    static Set<String> mavenModules(Path root) {
        Set<String> modules = new TreeSet<>();
        Deque<Path> poms = new ArrayDeque<>(List.of(root.resolve("pom.xml")));
        while (!poms.isEmpty()) {
            Path pom = poms.pop();
            for (String module : modules(parse(pom))) {
                Path dir = pom.getParent().resolve(module).normalize();
                String relative = root.relativize(dir).toString().replace('\\', '/');
                if (!modules.add(relative)) {
                    continue;
                }
                if (!Files.isRegularFile(dir.resolve("pom.xml"))) {
                    throw new IllegalStateException(pom + " lists module " + module + ", which has no pom.xml");
                }
                poms.push(dir.resolve("pom.xml"));
            }
        }
        return modules;
    }

    /** The {@code <module>} entries of a POM, its profiles' included. */
    private static List<String> modules(Element project) {
        List<String> modules = new ArrayList<>();
        NodeList all = project.getElementsByTagName("module");
        for (int i = 0; i < all.getLength(); i++) {
            Node parent = all.item(i).getParentNode();
            if (parent != null && "modules".equals(parent.getNodeName())) {
                modules.add(all.item(i).getTextContent().strip());
            }
        }
        return modules;
    }

    private static Element parse(Path pom) {
        try {
            var factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pom, e);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot parse " + pom, e);
        }
    }

    private static Optional<Element> child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
