package io.hami.e2e.rbac;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.hami.e2e.support.ApiCall;
import java.util.ArrayList;
import java.util.List;

/**
 * Which permissions of a role the recorded calls used. The roles are read back from the real API server (as the
 * manifests created them), so this checks the other direction of least privilege: kube-apiserver already refused
 * any call outside the roles, and here every permission they grant must be needed by a call the code made.
 */
final class RoleUse {
    private RoleUse() {}

    /**
     * @param role      {@code Kind namespace/name}, for messages
     * @param namespace where the role's binding applies; empty for a ClusterRoleBinding (everywhere)
     * @return {@code verb group/resource [names] (role)} for each permission no access used
     */
    static List<String> unused(String role, String namespace, List<PolicyRule> rules, List<ApiCall.Access> accesses) {
        var out = new ArrayList<String>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    for (String verb : rule.getVerbs()) {
                        boolean used = accesses.stream()
                                .anyMatch(a -> a.verb().equals(verb)
                                        && a.group().equals(group)
                                        && a.resource().equals(resource)
                                        && (namespace.isEmpty() || namespace.equals(a.namespace()))
                                        && (rule.getResourceNames().isEmpty()
                                                || rule.getResourceNames().contains(a.name())));
                        if (!used) {
                            out.add(verb + " " + (group.isEmpty() ? "" : group + "/") + resource
                                    + (rule.getResourceNames().isEmpty() ? "" : " " + rule.getResourceNames()) + " ("
                                    + role + ")");
                        }
                    }
                }
            }
        }
        return out;
    }
}
