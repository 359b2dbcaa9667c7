package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.backend.nvidia.NvidiaKeys;
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
 * The admission policies that keep protocol keys on pods to the scheduler and the plugins, and on nodes to the node's
 * own plugin (and the scheduler for the lock and the handshakes), read offline against the code and the other
 * manifests: they name every key the code writes (and no key users set), match keys in lower case, exempt exactly
 * the ServiceAccounts the scheduler Deployment and the plugin DaemonSets run as, and are bound to deny everywhere.
 * That the API server enforces them is e2e's ProtocolKeysPolicyTest and NodeProtocolKeysPolicyTest.
 */
class ProtocolKeysPolicyTest {
    private static final Manifests MANIFESTS = Manifests.load();
    private static final JsonNode POLICY = MANIFESTS.get("ValidatingAdmissionPolicy", "hami-protocol-keys");
    private static final JsonNode NODE_POLICY = MANIFESTS.get("ValidatingAdmissionPolicy", "hami-node-protocol-keys");
    private static final Pattern PREFIX = Pattern.compile("startsWith\\('([^']+)'\\)");
    private static final Pattern LITERAL = Pattern.compile("'([^']+)'");

    private static String variable(String name) {
        return variable(POLICY, name);
    }

    private static String variable(JsonNode policy, String name) {
        for (JsonNode v : policy.path("spec").path("variables")) {
            if (v.path("name").asString().equals(name)) {
                return v.path("expression").asString();
            }
        }
        throw new AssertionError("policy " + Manifests.name(policy) + " has no variable " + name);
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

        assertBoundToDenyEverywhere(POLICY);
    }

    /** Exactly one binding names {@code policy}: Deny, and no matchResources (every namespace, every node). */
    private static void assertBoundToDenyEverywhere(JsonNode policy) {
        var bindings = MANIFESTS.ofKind("ValidatingAdmissionPolicyBinding").stream()
                .filter(b -> b.path("spec").path("policyName").asString().equals(Manifests.name(policy)))
                .toList();
        assertThat(bindings).as("bindings of " + Manifests.name(policy)).hasSize(1);
        JsonNode binding = bindings.getFirst().path("spec");
        assertThat(binding.path("validationActions").valueStream().map(JsonNode::asString))
                .containsExactly("Deny");
        assertThat(binding.has("matchResources"))
                .as("every namespace and node: the scheduler indexes all")
                .isFalse();
    }

    @Test
    void thereAreTwoPoliciesEachWithItsBinding() {
        assertThat(MANIFESTS.ofKind("ValidatingAdmissionPolicy").stream().map(Manifests::name))
                .containsExactlyInAnyOrder("hami-protocol-keys", "hami-node-protocol-keys");
        assertThat(MANIFESTS.ofKind("ValidatingAdmissionPolicyBinding").stream()
                        .map(b -> b.path("spec").path("policyName").asString()))
                .containsExactlyInAnyOrder("hami-protocol-keys", "hami-node-protocol-keys");
    }

    // ---- keys in any case ----

    @Test
    void bothPoliciesCompareKeysInLowerCase() {
        // Annotation keys are case-sensitive; Hami.io/bind-phase is refused as well, whatever a reader makes of it.
        String pods = variable("protocolKeys");
        assertThat(pods.replace("k.lowerAscii().startsWith(", "").replace("k.lowerAscii() in [", ""))
                .as("every comparison of a key is on its lower-case form")
                .doesNotContain("k.startsWith(", "k in [");
        assertThat(all(PREFIX, pods)).hasSize(2).allSatisfy(p -> assertThat(p).isLowerCase());
        assertThat(all(LITERAL, variable(NODE_POLICY, "protocolKeys")))
                .allSatisfy(k -> assertThat(k).isLowerCase());
        assertThat(variable(NODE_POLICY, "protocolKeys")).contains("k.lowerAscii() in [");
    }

    // ---- nodes ----

    /** Every node annotation the code writes or reads as part of the protocol. */
    private static Set<String> keysOfNodes() {
        var keys = new TreeSet<>(List.of(ProtocolKeys.NODE_LOCK, NvidiaKeys.DEVICE_CORDON));
        for (DeviceBackend b : DeviceBackends.load(DeviceConfig.DEFAULTS).all()) {
            b.keys().registerKey().ifPresent(keys::add);
            b.keys().handshakeKey().ifPresent(keys::add);
            keys.addAll(b.nodeAnnotations().keySet());
        }
        return keys;
    }

    /** The lock and every vendor's handshake: what the scheduler writes on nodes. */
    private static Set<String> keysTheSchedulerWritesOnNodes() {
        var keys = new TreeSet<>(List.of(ProtocolKeys.NODE_LOCK));
        for (DeviceBackend b : DeviceBackends.load(DeviceConfig.DEFAULTS).all()) {
            b.keys().handshakeKey().ifPresent(keys::add);
        }
        return keys;
    }

    @Test
    void theNodePolicyNamesEveryNodeKeyOfTheCodeAndOnlyThose() {
        assertThat(keysOfNodes())
                .contains(
                        "hami.io/node-nvidia-register",
                        "hami.io/node-hcu-register",
                        "hami.io/node-handshake",
                        "hami.io/node-handshake-hcu",
                        "hami.io/node-nvidia-score",
                        "hami.io/device-cordon",
                        "hami.io/mutex.lock");
        assertThat(new TreeSet<>(all(LITERAL, variable(NODE_POLICY, "protocolKeys"))))
                .isEqualTo(keysOfNodes());
        // The scheduler's exception: the lock and the handshakes, nothing of the inventory.
        String refused = variable(NODE_POLICY, "refused");
        assertThat(new TreeSet<>(all(LITERAL, refused))).isEqualTo(keysTheSchedulerWritesOnNodes());
        assertThat(refused)
                .startsWith("variables.protocolKeys.filter(k, !variables.ownPlugin && !(variables.scheduler");
        assertThat(NODE_POLICY
                        .path("spec")
                        .path("validations")
                        .get(0)
                        .path("expression")
                        .asString())
                .isEqualTo("size(variables.refused) == 0");
    }

    @Test
    void onNodesThePluginIsBoundToItsNodeAndTheSchedulerIsNamed() {
        String plugin = identity(MANIFESTS.ofKind("DaemonSet").getFirst());
        String scheduler = identity(MANIFESTS.get("Deployment", "hami-scheduler"));
        assertThat(variable(NODE_POLICY, "boundNode"))
                .isEqualTo("request.userInfo.extra[?'authentication.kubernetes.io/node-name'].orValue([])");
        assertThat(variable(NODE_POLICY, "ownPlugin"))
                .isEqualTo("request.userInfo.username == '" + plugin
                        + "' && variables.boundNode == [object.metadata.name]");
        assertThat(variable(NODE_POLICY, "scheduler")).isEqualTo("request.userInfo.username == '" + scheduler + "'");
        String message = NODE_POLICY
                .path("spec")
                .path("validations")
                .get(0)
                .path("messageExpression")
                .asString();
        assertThat(message).contains(plugin, scheduler, "object.metadata.name", "request.userInfo.username");
    }

    @Test
    void theNodePolicySeesOnlyWritesThatChangeAnAnnotation() {
        var rules = new TreeSet<String>();
        for (JsonNode rule : NODE_POLICY.path("spec").path("matchConstraints").path("resourceRules")) {
            for (JsonNode op : rule.path("operations")) {
                for (JsonNode resource : rule.path("resources")) {
                    rules.add(op.asString() + " " + resource.asString());
                }
            }
        }
        assertThat(rules).containsExactlyInAnyOrder("CREATE nodes", "UPDATE nodes", "UPDATE nodes/status");
        assertThat(NODE_POLICY.path("spec").path("failurePolicy").asString()).isEqualTo("Fail");
        JsonNode conditions = NODE_POLICY.path("spec").path("matchConditions");
        assertThat(conditions.size()).isEqualTo(1);
        assertThat(conditions.get(0).path("expression").asString())
                .isEqualTo("object.metadata.?annotations.orValue({}) "
                        + "!= (oldObject != null ? oldObject.metadata.?annotations.orValue({}) : {})");
        assertBoundToDenyEverywhere(NODE_POLICY);
    }

    @Test
    void thePluginPodsGetTheTokenTheKubeletProjects() {
        // The node-name claim is in the token the kubelet projects into a pod (bound to it); a DaemonSet that turned
        // automounting off, or a ServiceAccount that did, would leave the plugin no token bound to its node.
        var daemonSets = MANIFESTS.ofKind("DaemonSet");
        assertThat(daemonSets).hasSize(4);
        for (JsonNode ds : daemonSets) {
            JsonNode pod = ds.path("spec").path("template").path("spec");
            assertThat(pod.path("automountServiceAccountToken").asBoolean(true))
                    .as(Manifests.name(ds))
                    .isTrue();
            String sa = pod.path("serviceAccountName").asString();
            assertThat(MANIFESTS
                            .get("ServiceAccount", sa)
                            .path("automountServiceAccountToken")
                            .asBoolean(true))
                    .as("ServiceAccount " + sa)
                    .isTrue();
        }
    }
}
