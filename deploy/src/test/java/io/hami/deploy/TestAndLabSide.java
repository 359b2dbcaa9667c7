package io.hami.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What no image may hold: the jars of the test and lab side, by artifact id. Derived from the repository's POMs, not
 * from the distribution (which a regression would change too):
 *
 * <ul>
 *   <li>the artifacts of the modules that exist for tests and the lab ({@link #SIDE_MODULES}: lab/*, the hardware
 *       mocks, the fake vendor, e2e, architecture, deploy);
 *   <li>what those modules declare for their main code (compile or runtime scope), and what any POM declares for its
 *       tests (test scope), unless a production module declares it for its main code too;
 *   <li>by name, the test libraries and mock servers, also those whose jars have other artifact ids than the ones
 *       declared ({@link #NAMED}: junit-jupiter-api through junit-jupiter, for instance).
 * </ul>
 */
final class TestAndLabSide {
    /** The modules of the test and lab side, as folders of the repository (their POMs' folders). */
    static final List<String> SIDE_MODULES = List.of(
            "lab/apiserver",
            "lab/control-plane",
            "lab/core",
            "lab/cli",
            "hardware-mocks",
            "vendors/fake/scheduler",
            "vendors/fake/node",
            "e2e",
            "architecture",
            "deploy");

    /**
     * Artifact ids of test libraries and mock servers, as patterns of the whole id ({@code vertx-web} is the lab's
     * HTTP server; {@code vertx-web-client} is fabric8's HTTP client, which production uses).
     */
    static final List<Pattern> NAMED = Stream.of(
                    "hami-lab.*",
                    "hami-control-plane",
                    "hami-hardware-mocks",
                    "hami-fake-vendor.*",
                    "kubernetes-server-mock",
                    "mockwebserver.*",
                    "vertx-web",
                    "vertx-(eventbus-)?bridge-common",
                    "junit.*",
                    "opentest4j",
                    "apiguardian-api",
                    "assertj.*",
                    "awaitility.*",
                    "wiremock.*",
                    "mockito.*",
                    "jmh.*",
                    "archunit.*",
                    "jazzer.*",
                    "hamcrest.*")
            .map(Pattern::compile)
            .toList();

    private static final Pattern JAR = Pattern.compile("(.+?)-\\d[^-]*(-SNAPSHOT)?(-[a-z][\\w.-]*)?\\.jar");

    private TestAndLabSide() {}

    /** The artifact id of a jar named {@code artifactId-version[-classifier].jar} (as copy-dependencies names them). */
    static String artifactId(String jarName) {
        Matcher m = JAR.matcher(jarName);
        return m.matches() ? m.group(1) : jarName.replaceFirst("\\.jar$", "");
    }

    /** The forbidden artifact ids, from the POMs under {@code repository}. */
    static Set<String> forbiddenArtifacts(Path repository) throws IOException {
        for (String module : SIDE_MODULES) {
            if (!Files.isRegularFile(repository.resolve(module).resolve("pom.xml"))) {
                throw new IllegalStateException("SIDE_MODULES names " + module + ", which has no pom.xml (moved?)");
            }
        }
        var side = new TreeSet<String>();
        var production = new TreeSet<String>();
        var tests = new TreeSet<String>();
        for (Path pom : poms(repository)) {
            Element project = parse(pom);
            String dir = repository.relativize(pom.getParent()).toString();
            boolean sideModule = SIDE_MODULES.contains(dir);
            if (sideModule) {
                child(project, "artifactId").map(Node::getTextContent).ifPresent(side::add);
            }
            Optional<Element> dependencies = child(project, "dependencies");
            if (dependencies.isEmpty()) {
                continue;
            }
            for (Element dependency : children(dependencies.get(), "dependency")) {
                String id = child(dependency, "artifactId")
                        .map(Node::getTextContent)
                        .orElseThrow();
                String scope =
                        child(dependency, "scope").map(Node::getTextContent).orElse("compile");
                switch (scope) {
                    case "test" -> tests.add(id);
                    case "compile", "runtime" -> (sideModule ? side : production).add(id);
                    default -> {} // provided, import, system: not on a runtime class path
                }
            }
        }
        var forbidden = new TreeSet<String>(side);
        forbidden.addAll(tests);
        forbidden.removeAll(production);
        // The side modules' own artifacts stay forbidden even where a production POM would name one.
        for (Path pom : poms(repository)) {
            if (SIDE_MODULES.contains(repository.relativize(pom.getParent()).toString())) {
                child(parse(pom), "artifactId").map(Node::getTextContent).ifPresent(forbidden::add);
            }
        }
        return forbidden;
    }

    /** Whether the jar named {@code jarName} is of the test or lab side. */
    static boolean isForbidden(String jarName, Set<String> forbiddenArtifacts) {
        String id = artifactId(jarName);
        return forbiddenArtifacts.contains(id)
                || NAMED.stream().anyMatch(p -> p.matcher(id).matches());
    }

    private static List<Path> poms(Path repository) throws IOException {
        try (Stream<Path> files = Files.walk(repository)) {
            return files.filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .filter(p -> {
                        String rel = repository.relativize(p).toString();
                        return !rel.contains("/target/")
                                && !rel.startsWith("target/")
                                && !rel.startsWith(".")
                                && !rel.contains("/node_modules/")
                                && !rel.startsWith("tools/");
                    })
                    .sorted()
                    .toList();
        }
    }

    private static Element parse(Path pom) throws IOException {
        try {
            var factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
        } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            throw new IOException(pom + ": " + e.getMessage(), e);
        }
    }

    private static Optional<Element> child(Element parent, String name) {
        return children(parent, name).stream().findFirst();
    }

    private static List<Element> children(Element parent, String name) {
        var out = new java.util.ArrayList<Element>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }
}
