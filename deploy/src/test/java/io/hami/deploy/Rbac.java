package io.hami.deploy;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The RBAC rules of the manifests as the API server's authorizer applies them to one ServiceAccount: a
 * ClusterRoleBinding grants its ClusterRole everywhere, a RoleBinding grants its Role (or ClusterRole) in the
 * binding's namespace only. Only roles defined in the manifests are evaluated: a binding to a built-in role
 * (system:kube-scheduler) grants nothing here, so the manifests' own roles must cover the code by themselves.
 */
final class Rbac {

    /** One rule of a role; empty {@code names} means any object. */
    record Rule(Set<String> groups, Set<String> resources, Set<String> verbs, Set<String> names) {

        boolean allows(ApiAccess a) {
            return matches(groups, a.group())
                    && matches(resources, a.resource())
                    && matches(verbs, a.verb())
                    && (names.isEmpty() || names.contains(a.name()));
        }

        private static boolean matches(Set<String> allowed, String value) {
            return allowed.contains("*") || allowed.contains(value);
        }
    }

    /**
     * A rule granted through a binding.
     *
     * @param namespace where it applies; empty: every namespace and the cluster-scoped resources
     * @param role      {@code Kind name} of the role that holds the rule
     */
    record Grant(String namespace, String role, Rule rule) {

        boolean allows(ApiAccess a) {
            return (namespace.isEmpty() || namespace.equals(a.namespace())) && rule.allows(a);
        }

        @Override
        public String toString() {
            return role + (namespace.isEmpty() ? "" : " in " + namespace) + ": " + rule;
        }
    }

    private final Manifests manifests;

    Rbac(Manifests manifests) {
        this.manifests = manifests;
    }

    /**
     * The rules bound to ServiceAccount {@code namespace/name} by roles of {@code component} (label
     * {@code app.kubernetes.io/component}).
     */
    List<Grant> grants(String namespace, String name, String component) {
        var out = new ArrayList<Grant>();
        for (String bindingKind : List.of("ClusterRoleBinding", "RoleBinding")) {
            for (JsonNode binding : manifests.ofKind(bindingKind)) {
                if (!bindsServiceAccount(binding, namespace, name)) {
                    continue;
                }
                String roleKind = binding.path("roleRef").path("kind").asString();
                String roleName = binding.path("roleRef").path("name").asString();
                String scope = bindingKind.equals("RoleBinding") ? Manifests.namespace(binding) : "";
                Optional<JsonNode> role = roleKind.equals("Role")
                        ? manifests.ofKind("Role").stream()
                                .filter(r -> Manifests.name(r).equals(roleName)
                                        && Manifests.namespace(r).equals(scope))
                                .<JsonNode>map(r -> r)
                                .findFirst()
                        : manifests.find("ClusterRole", roleName).map(r -> r);
                if (role.isEmpty() || !Manifests.component(role.get()).equals(component)) {
                    continue;
                }
                for (JsonNode rule : role.get().path("rules")) {
                    out.add(new Grant(
                            scope,
                            roleKind + " " + roleName,
                            new Rule(
                                    strings(rule.path("apiGroups")),
                                    strings(rule.path("resources")),
                                    strings(rule.path("verbs")),
                                    strings(rule.path("resourceNames")))));
                }
            }
        }
        return out;
    }

    private static boolean bindsServiceAccount(JsonNode binding, String namespace, String name) {
        for (JsonNode subject : binding.path("subjects")) {
            if (subject.path("kind").asString().equals("ServiceAccount")
                    && subject.path("name").asString().equals(name)
                    && subject.path("namespace").asString().equals(namespace)) {
                return true;
            }
        }
        return false;
    }

    /** The accesses that no grant allows, each listed once. */
    static List<ApiAccess> denied(List<Grant> grants, List<ApiAccess> accesses) {
        return accesses.stream()
                .distinct()
                .filter(a -> grants.stream().noneMatch(g -> g.allows(a)))
                .toList();
    }

    /**
     * The permissions of {@code grants} that no access used, as {@code verb group/resource [names]} per rule: a
     * rule is needed only if the code makes, for each verb and resource it lists, a call it allows.
     */
    static List<String> unused(List<Grant> grants, List<ApiAccess> accesses) {
        var out = new ArrayList<String>();
        for (Grant g : grants) {
            for (String group : g.rule().groups()) {
                for (String resource : g.rule().resources()) {
                    for (String verb : g.rule().verbs()) {
                        boolean used = accesses.stream()
                                .anyMatch(a -> a.verb().equals(verb)
                                        && a.group().equals(group)
                                        && a.resource().equals(resource)
                                        && g.allows(a));
                        if (!used) {
                            out.add(verb + " " + (group.isEmpty() ? "" : group + "/") + resource
                                    + (g.rule().names().isEmpty()
                                            ? ""
                                            : " " + g.rule().names()) + " (" + g.role() + ")");
                        }
                    }
                }
            }
        }
        return out;
    }

    private static Set<String> strings(JsonNode array) {
        var out = new LinkedHashSet<String>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }
}
