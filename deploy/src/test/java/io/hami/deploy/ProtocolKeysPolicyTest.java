package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The admission policy that keeps protocol keys on pods to the scheduler and the plugins, read offline against the
 * code and the other manifests: it names every key the code writes on pods (and no key users set), exempts exactly
 * the ServiceAccounts the scheduler Deployment and the plugin DaemonSets run as, and is bound to deny everywhere.
 * That the API server enforces it is e2e's ProtocolKeysPolicyTest.
 */
class ProtocolKeysPolicyTest {
    private static final Manifests MANIFESTS = Manifests.load();
    private static final JsonNode POLICY = MANIFESTS.get("ValidatingAdmissionPolicy", "hami-protocol-keys");
    private static final Pattern PREFIX = Pattern.compile("startsWith\\('([^']+)'\\)");
    private static final Pattern LITERAL = Pattern.compile("'([^']+)'");

    private static String variable(String name) {
        for (JsonNode v : POLICY.path("spec").path("variables")) {
            if (v.path("name").asString().equals(name)) {
                return v.path("expression").asString();
            }
        }
        throw new AssertionError("the policy has no variable " + name);
    }

    private static List<String> all(Pattern pattern, String text) {
        var out = new ArrayList<String>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** Whether the policy's {@code protocolKeys} expression covers {@code key}, by prefix or by name. */
    private static boolean covered(String key) {
        String expression = variable("protocolKeys");
        List<String> prefixes = all(PREFIX, expression);
        List<String> listed = all(LITERAL, expression).stream()
                .filter(l -> !prefixes.contains(l))
                .toList();
        return listed.contains(key) || prefixes.stream().anyMatch(key::startsWith);
    }

    private static Set<String> keysTheCodeWritesOnPods() {
        var keys = new TreeSet<>(List.of(
                ProtocolKeys.VGPU_NODE,
                ProtocolKeys.VGPU_TIME,
                ProtocolKeys.BIND_TIME,
                ProtocolKeys.BIND_PHASE,
                ProtocolKeys.NODE_LOCK));
        for (DeviceBackend b : DeviceBackends.load(DeviceConfig.DEFAULTS).all()) {
            keys.add(b.keys().toAllocateKey());
            keys.add(b.keys().allocatedKey());
        }
        return keys;
    }

    /** {@code system:serviceaccount:<namespace>:<name>} of the workload's pods. */
    private static String identity(JsonNode workload) {
        return "system:serviceaccount:" + Manifests.namespace(workload) + ":"
                + workload.path("spec")
                        .path("template")
                        .path("spec")
                        .path("serviceAccountName")
                        .asString();
    }

    @Test
    void everyKeyTheSchedulerOrAPluginWritesOnPodsIsCoveredAndNoKeyOfUsers() {
        assertThat(keysTheCodeWritesOnPods())
                .hasSizeGreaterThanOrEqualTo(13)
                .allSatisfy(k -> assertThat(covered(k)).as(k).isTrue());
        // Users set these on their own pods; the policy must leave them alone.
        for (String users : List.of(
                ProtocolKeys.NODE_SCHEDULER_POLICY,
                ProtocolKeys.GPU_SCHEDULER_POLICY,
                "hami.io/webhook",
                "nvidia.com/use-gputype",
                "hami.io/e2e")) {
            assertThat(covered(users)).as(users).isFalse();
        }
        String expression = variable("protocolKeys");
        List<String> prefixes = all(PREFIX, expression);
        assertThat(all(LITERAL, expression).stream()
                        .filter(l -> !prefixes.contains(l))
                        .toList())
                .as("keys named one by one are keys of the code")
                .isSubsetOf(keysTheCodeWritesOnPods());
    }

    @Test
    void exactlyTheSchedulersAndThePluginsServiceAccountsAreExempt() {
        var expected = new TreeSet<String>();
        expected.add(identity(MANIFESTS.get("Deployment", "hami-scheduler")));
        MANIFESTS.ofKind("DaemonSet").forEach(ds -> expected.add(identity(ds)));
        assertThat(expected)
                .containsExactly(
                        "system:serviceaccount:hami-system:hami-device-plugin",
                        "system:serviceaccount:hami-system:hami-scheduler");
        for (String sa : expected) {
            String name = sa.substring(sa.lastIndexOf(':') + 1);
            assertThat(MANIFESTS.find("ServiceAccount", name))
                    .as("ServiceAccount " + name)
                    .isPresent();
        }
        JsonNode conditions = POLICY.path("spec").path("matchConditions");
        assertThat(conditions.size()).isEqualTo(1);
        String condition = conditions.get(0).path("expression").asString();
        assertThat(condition).startsWith("!(request.userInfo.username in [");
        assertThat(new TreeSet<>(all(LITERAL, condition))).isEqualTo(expected);
        String message = POLICY.path("spec")
                .path("validations")
                .get(0)
                .path("messageExpression")
                .asString();
        assertThat(expected).allSatisfy(sa -> assertThat(message).contains(sa));
    }

    @Test
    void itDeniesCreatesAndUpdatesOfPodsTheirStatusAndBindingsEverywhere() {
        var rules = new TreeSet<String>();
        for (JsonNode rule : POLICY.path("spec").path("matchConstraints").path("resourceRules")) {
            for (JsonNode op : rule.path("operations")) {
                for (JsonNode resource : rule.path("resources")) {
                    rules.add(op.asString() + " " + resource.asString());
                }
            }
        }
        assertThat(rules)
                .containsExactlyInAnyOrder(
                        "CREATE pods", "UPDATE pods", "UPDATE pods/status", "CREATE pods/binding", "CREATE bindings");
        assertThat(POLICY.path("spec").path("failurePolicy").asString()).isEqualTo("Fail");

        var bindings = MANIFESTS.ofKind("ValidatingAdmissionPolicyBinding");
        assertThat(bindings).hasSize(1);
        JsonNode binding = bindings.getFirst().path("spec");
        assertThat(binding.path("policyName").asString()).isEqualTo(Manifests.name(POLICY));
        assertThat(binding.path("validationActions").valueStream().map(JsonNode::asString))
                .containsExactly("Deny");
        assertThat(binding.has("matchResources"))
                .as("every namespace: the scheduler indexes pods of all")
                .isFalse();
    }
}
