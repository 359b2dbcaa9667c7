package io.hami.lab.apiserver;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The API server's non-resource endpoints: {@code /version}, legacy discovery ({@code /api}, {@code /apis},
 * {@code /api/v1}, {@code /apis/<group>/<version>}) for the built-in resources kubectl and the project use, health
 * checks, and 404 for anything else outside {@code /api/} and {@code /apis/}, OpenAPI included (kubectl then needs
 * {@code --validate=false}). Without this the mock answers an unknown path with a list of every stored object.
 */
final class Discovery {

    private record Resource(String name, String kind, boolean namespaced, List<String> shortNames) {}

    private static final List<String> VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    private static final Map<String, List<Resource>> RESOURCES = Map.of(
            "v1",
                    List.of(
                            new Resource("pods", "Pod", true, List.of("po")),
                            new Resource("pods/status", "Pod", true, List.of()),
                            new Resource("pods/binding", "Binding", true, List.of()),
                            new Resource("bindings", "Binding", true, List.of()),
                            new Resource("nodes", "Node", false, List.of("no")),
                            new Resource("nodes/status", "Node", false, List.of()),
                            new Resource("namespaces", "Namespace", false, List.of("ns")),
                            new Resource("configmaps", "ConfigMap", true, List.of("cm")),
                            new Resource("secrets", "Secret", true, List.of()),
                            new Resource("services", "Service", true, List.of("svc")),
                            new Resource("serviceaccounts", "ServiceAccount", true, List.of("sa")),
                            new Resource("events", "Event", true, List.of("ev"))),
            "apps/v1",
                    List.of(
                            new Resource("deployments", "Deployment", true, List.of("deploy")),
                            new Resource("daemonsets", "DaemonSet", true, List.of("ds")),
                            new Resource("statefulsets", "StatefulSet", true, List.of("sts")),
                            new Resource("replicasets", "ReplicaSet", true, List.of("rs"))),
            "batch/v1", List.of(new Resource("jobs", "Job", true, List.of())),
            "coordination.k8s.io/v1", List.of(new Resource("leases", "Lease", true, List.of())),
            "events.k8s.io/v1", List.of(new Resource("events", "Event", true, List.of("ev"))),
            "rbac.authorization.k8s.io/v1",
                    List.of(
                            new Resource("clusterroles", "ClusterRole", false, List.of()),
                            new Resource("clusterrolebindings", "ClusterRoleBinding", false, List.of()),
                            new Resource("roles", "Role", true, List.of()),
                            new Resource("rolebindings", "RoleBinding", true, List.of())),
            "admissionregistration.k8s.io/v1",
                    List.of(
                            new Resource(
                                    "mutatingwebhookconfigurations", "MutatingWebhookConfiguration", false, List.of()),
                            new Resource(
                                    "validatingwebhookconfigurations",
                                    "ValidatingWebhookConfiguration",
                                    false,
                                    List.of()),
                            new Resource("validatingadmissionpolicies", "ValidatingAdmissionPolicy", false, List.of()),
                            new Resource(
                                    "validatingadmissionpolicybindings",
                                    "ValidatingAdmissionPolicyBinding",
                                    false,
                                    List.of())));

    private static final List<String> GROUP_VERSIONS = List.of(
            "apps/v1",
            "batch/v1",
            "coordination.k8s.io/v1",
            "events.k8s.io/v1",
            "rbac.authorization.k8s.io/v1",
            "admissionregistration.k8s.io/v1");

    private Discovery() {}

    /** True for the paths answered here: everything outside {@code /api/} and {@code /apis/}, and discovery. */
    static boolean answers(String path) {
        return !path.startsWith("/api/") && !path.startsWith("/apis/")
                || path.equals("/api/v1")
                || GROUP_VERSIONS.stream()
                        .anyMatch(gv ->
                                path.equals("/apis/" + gv) || path.equals("/apis/" + gv.substring(0, gv.indexOf('/'))));
    }

    /**
     * The kind of {@code plural} in {@code groupVersion} ({@code v1}, {@code apps/v1}); for a resource not listed here,
     * the plural without its last {@code s}, capitalized.
     */
    static String kindOf(String groupVersion, String plural) {
        return RESOURCES.getOrDefault(groupVersion, List.of()).stream()
                .filter(r -> r.name().equals(plural))
                .map(Resource::kind)
                .findFirst()
                .orElseGet(() -> plural.isEmpty()
                        ? ""
                        : plural.substring(0, 1).toUpperCase(Locale.ROOT)
                                + plural.substring(1, plural.endsWith("s") ? plural.length() - 1 : plural.length()));
    }

    static MockResponse answer(String path) {
        if (isHealth(path)) {
            return new MockResponse()
                    .setResponseCode(200)
                    .setHeader("Content-Type", "text/plain")
                    .setBody("ok");
        }
        return switch (path) {
            case "/version" -> Statuses.json(200, version());
            case "/api" -> Statuses.json(200, apiVersions());
            case "/apis" -> Statuses.json(200, groupList());
            case "/api/v1" -> Statuses.json(200, resourceList("v1"));
            default ->
                path.startsWith("/apis/")
                        ? groupOrResources(path)
                        : Statuses.failure(404, "the embedded API server does not serve " + path);
        };
    }

    private static MockResponse groupOrResources(String path) {
        String groupVersion = path.substring("/apis/".length());
        if (groupVersion.contains("/")) {
            return Statuses.json(200, resourceList(groupVersion));
        }
        ObjectNode group = group(groupVersion + "/v1");
        group.put("kind", "APIGroup");
        group.put("apiVersion", "v1");
        return Statuses.json(200, group);
    }

    private static boolean isHealth(String path) {
        return path.equals("/healthz") || path.equals("/livez") || path.equals("/readyz");
    }

    private static ObjectNode version() {
        ObjectNode version = Json.object();
        version.put("major", "1");
        version.put("minor", "32");
        version.put("gitVersion", "v1.32.0-hami-lab");
        version.put("gitCommit", "hami-lab");
        version.put("gitTreeState", "clean");
        version.put("buildDate", "2026-01-01T00:00:00Z");
        version.put("goVersion", "go1.23.0");
        version.put("compiler", "gc");
        version.put("platform", "linux/amd64");
        return version;
    }

    private static ObjectNode apiVersions() {
        ObjectNode versions = Json.object();
        versions.put("kind", "APIVersions");
        versions.putArray("versions").add("v1");
        versions.putArray("serverAddressByClientCIDRs");
        return versions;
    }

    private static ObjectNode groupList() {
        ObjectNode list = Json.object();
        list.put("kind", "APIGroupList");
        list.put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        GROUP_VERSIONS.forEach(gv -> groups.add(group(gv)));
        return list;
    }

    private static ObjectNode group(String groupVersion) {
        ObjectNode group = Json.object();
        group.put("name", groupVersion.substring(0, groupVersion.indexOf('/')));
        ObjectNode version = Json.object();
        version.put("groupVersion", groupVersion);
        version.put("version", groupVersion.substring(groupVersion.indexOf('/') + 1));
        group.putArray("versions").add(version);
        group.set("preferredVersion", version.deepCopy());
        return group;
    }

    private static List<String> verbsOf(Resource resource) {
        if (resource.kind().equals("Binding")) {
            return List.of("create");
        }
        return resource.name().endsWith("/status") ? List.of("get", "patch", "update") : VERBS;
    }

    private static ObjectNode resourceList(String groupVersion) {
        ObjectNode list = Json.object();
        list.put("kind", "APIResourceList");
        list.put("apiVersion", "v1");
        list.put("groupVersion", groupVersion);
        ArrayNode resources = list.putArray("resources");
        for (Resource resource : RESOURCES.get(groupVersion)) {
            ObjectNode entry = resources.addObject();
            entry.put("name", resource.name());
            entry.put(
                    "singularName",
                    resource.name().contains("/") ? "" : resource.kind().toLowerCase(Locale.ROOT));
            entry.put("namespaced", resource.namespaced());
            entry.put("kind", resource.kind());
            ArrayNode verbs = entry.putArray("verbs");
            verbsOf(resource).forEach(verbs::add);
            if (!resource.shortNames().isEmpty()) {
                ArrayNode shortNames = entry.putArray("shortNames");
                resource.shortNames().forEach(shortNames::add);
            }
        }
        return list;
    }
}
