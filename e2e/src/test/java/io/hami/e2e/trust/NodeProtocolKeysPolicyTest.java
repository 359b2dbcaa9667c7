package io.hami.e2e.trust;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.backend.hygon.HygonKeys;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.deploy.tools.Program;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.Command;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.DeployedScheduler;
import io.hami.e2e.support.MockPlugin;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.e2e.support.ProtocolKeysPolicy;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * deploy/'s node policy ({@code hami-node-protocol-keys} in {@code protocol-keys-policy.yaml}) enforced by a real
 * kube-apiserver, with every identity that writes nodes: a user who may only get and patch nodes, the cluster admin,
 * the kubelet ({@code system:node:<name>}, client certificate, Node authorizer and NodeRestriction), the scheduler's
 * ServiceAccount, and the plugin's ServiceAccount with a token bound to a pod on node A (TokenRequest
 * {@code boundObjectRef}; the pod is created with {@code spec.nodeName} by the admin, as no kubelet runs here), bound
 * to the node A object, or bound to nothing. Every refusal is 403 from the policy, names the key(s), the node and the
 * identity, and changes nothing (same resourceVersion). The policy is removed at the end: other classes write node
 * protocol keys as the admin.
 */
@EnableKubeControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@PatientTimeout(value = 2, unit = TimeUnit.MINUTES)
class NodeProtocolKeysPolicyTest {
    private static final String SYSTEM = "hami-system";
    private static final String NS = "e2e-trust-nodes";
    private static final String A = "e2e-trust-node-a";
    private static final String B = "e2e-trust-node-b";
    private static final String USER = "e2e-trust-node-editor";
    private static final String ADMIN = "hami-admin";
    private static final String KUBELET_A = "system:node:" + A;
    private static final String FIELD_MANAGER = "hami-e2e-trust-nodes";
    private static final String ROLE = "e2e-trust-node-editor";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    static KubeControlPlane plane;
    static KubernetesClient admin;

    @TempDir
    static Path dir;

    private static KubernetesClient user;
    private static KubernetesClient kubelet;
    private static KubernetesClient scheduler;
    private static KubernetesClient pluginOnA;
    private static KubernetesClient unboundPlugin;

    @BeforeAll
    static void setUp() {
        for (String file : List.of("namespace.yaml", "scheduler/rbac.yaml", "device-plugins/rbac.yaml")) {
            DeployFiles.apply(admin, file, FIELD_MANAGER);
        }
        plane.ensureNamespace(NS);
        // The user: may read and patch nodes, nothing else.
        admin.rbac()
                .clusterRoles()
                .resource(new ClusterRoleBuilder()
                        .withNewMetadata()
                        .withName(ROLE)
                        .endMetadata()
                        .addNewRule()
                        .withApiGroups("")
                        .withResources("nodes", "nodes/status")
                        .withVerbs("get", "patch", "update")
                        .endRule()
                        .build())
                .serverSideApply();
        admin.rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName(ROLE)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", ROLE)
                        .addNewSubject()
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withKind("User")
                        .withName(USER)
                        .endSubject()
                        .build())
                .serverSideApply();
        for (String node : List.of(A, B)) {
            NodeLifecycle.createReady(
                    admin,
                    Cluster.node(node)
                            .editOrNewSpec()
                            .addToTaints(Cluster.e2eTaint("trust"))
                            .endSpec()
                            .editStatus()
                            .addToCapacity("nvidia.com/gpu", new Quantity("20"))
                            .addToAllocatable("nvidia.com/gpu", new Quantity("20"))
                            .endStatus()
                            .build());
        }
        user = KubeControlPlane.client(plane.userConfig(USER, List.of()));
        kubelet = KubeControlPlane.client(plane.userConfig(KUBELET_A, List.of("system:nodes")));
        scheduler = KubeControlPlane.client(plane.serviceAccountConfig(SYSTEM, "hami-scheduler"));
        pluginOnA = KubeControlPlane.client(ProtocolKeysPolicy.pluginOnNode(plane, admin, SYSTEM, A));
        unboundPlugin = KubeControlPlane.client(plane.serviceAccountConfig(SYSTEM, "hami-device-plugin"));
        ProtocolKeysPolicy.apply(admin, NS, FIELD_MANAGER);
    }

    @AfterAll
    static void cleanUp() {
        try {
            if (admin != null) {
                ProtocolKeysPolicy.remove(admin, NS);
            }
        } finally {
            for (KubernetesClient c : new KubernetesClient[] {user, kubelet, scheduler, pluginOnA, unboundPlugin}) {
                if (c != null) {
                    c.close();
                }
            }
            if (admin != null) {
                ProtocolKeysPolicy.deletePluginPod(admin, SYSTEM, A);
                ClusterOps.deleteNodes(admin, List.of(A, B));
                admin.rbac().clusterRoleBindings().withName(ROLE).delete();
                admin.rbac().clusterRoles().withName(ROLE).delete();
            }
        }
    }

    // ---- helpers ----

    private static Node node(String name) {
        return admin.nodes().withName(name).get();
    }

    private static String annotationPatch(Map<String, String> annotations) {
        var patch = JSON.createObjectNode();
        var a = patch.putObject("metadata").putObject("annotations");
        annotations.forEach((k, v) -> {
            if (v == null) {
                a.putNull(k);
            } else {
                a.put(k, v);
            }
        });
        return patch.toString();
    }

    private static Node annotate(KubernetesClient as, String node, Map<String, String> annotations) {
        return as.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), annotationPatch(annotations));
    }

    private static Node annotate(KubernetesClient as, String node, String key, String value) {
        var one = new java.util.HashMap<String, String>();
        one.put(key, value);
        return annotate(as, node, one);
    }

    /**
     * {@code call} is refused by the node policy: 403, the policy's message naming {@code keys}, {@code node} and
     * {@code who}; node {@code node} is unchanged.
     */
    private static String assertRefused(Runnable call, String node, String who, String... keys) {
        String before = node(node).getMetadata().getResourceVersion();
        var e = catchThrowableOfType(KubernetesClientException.class, call::run);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.getCode()).as(e.getMessage()).isEqualTo(403);
        assertThat(e.getMessage())
                .contains("ValidatingAdmissionPolicy '" + ProtocolKeysPolicy.NODE_NAME + "'")
                .contains(ProtocolKeysPolicy.whoMayOnNode(node) + who);
        for (String key : keys) {
            assertThat(e.getMessage()).contains(key);
        }
        assertThat(node(node).getMetadata().getResourceVersion())
                .as("node " + node + " unchanged")
                .isEqualTo(before);
        return e.getMessage();
    }

    /** The forged register: 100 slots of 4 TB. */
    private static String forgedRegister() {
        return JsonRegisterCodec.encode(IntStream.range(0, 100)
                .mapToObj(i -> new DeviceInfo(
                        "GPU-forged-" + i, i, 1, 4 * 1024 * 1024, 100, "NVIDIA-H100", 0, "hami-core", true))
                .toList());
    }

    private static String register(String node) {
        return JsonRegisterCodec.encode(List.of(
                Cluster.gpu("GPU-" + node + "-0", 0, 16000, "NVIDIA-A10"),
                Cluster.gpu("GPU-" + node + "-1", 1, 16000, "NVIDIA-A10")));
    }

    // ---- the plugin of node A ----

    @Test
    @Order(1)
    void thePluginOfNodeAWritesEveryProtocolKeyOfNodeA() {
        Node written = annotate(
                pluginOnA,
                A,
                Map.of(
                        NvidiaKeys.REGISTER,
                        register(A),
                        NvidiaKeys.SCORE,
                        "[]",
                        HygonKeys.HANDSHAKE,
                        "Reported_2026-08-01 06:00:00",
                        NvidiaKeys.DEVICE_CORDON,
                        "GPU-" + A + "-1"));
        assertThat(annotations(written))
                .containsEntry(NvidiaKeys.REGISTER, register(A))
                .containsEntry(NvidiaKeys.DEVICE_CORDON, "GPU-" + A + "-1");
        // and removes them: the lock it releases, the cordon
        assertThat(annotations(annotate(pluginOnA, A, ProtocolKeys.NODE_LOCK, "2026-08-01T06:00:00Z,e2e,pod")))
                .containsKey(ProtocolKeys.NODE_LOCK);
        var remove = new java.util.HashMap<String, String>();
        remove.put(ProtocolKeys.NODE_LOCK, null);
        remove.put(NvidiaKeys.DEVICE_CORDON, null);
        assertThat(annotations(annotate(pluginOnA, A, remove)))
                .doesNotContainKeys(ProtocolKeys.NODE_LOCK, NvidiaKeys.DEVICE_CORDON);
    }

    @Test
    @Order(2)
    void thePluginOfNodeACannotWriteNodeB() {
        assertRefused(
                () -> annotate(pluginOnA, B, NvidiaKeys.REGISTER, register(B)),
                B,
                ProtocolKeysPolicy.PLUGIN + " bound to node " + A,
                NvidiaKeys.REGISTER);
        assertRefused(
                () -> annotate(pluginOnA, B, ProtocolKeys.NODE_LOCK, "2026-08-01T06:00:00Z,e2e,pod"),
                B,
                ProtocolKeysPolicy.PLUGIN + " bound to node " + A,
                ProtocolKeys.NODE_LOCK);
        assertThat(annotations(node(B))).doesNotContainKeys(NvidiaKeys.REGISTER, ProtocolKeys.NODE_LOCK);
    }

    @Test
    @Order(2)
    void thePluginsServiceAccountWithATokenBoundToNoNodeWritesNoNode() {
        // A token from the TokenRequest API without a bound object (or a legacy Secret token) names no node.
        String message = assertRefused(
                () -> annotate(unboundPlugin, A, NvidiaKeys.REGISTER, forgedRegister()),
                A,
                ProtocolKeysPolicy.PLUGIN,
                NvidiaKeys.REGISTER);
        assertThat(message).doesNotContain(ProtocolKeysPolicy.PLUGIN + " bound to node");
    }

    @Test
    @Order(2)
    void thePluginsOtherAnnotationsAreNotLookedAt() {
        // Annotations outside the protocol stay anyone's with RBAC to patch nodes, the plugin included.
        assertThat(annotations(annotate(pluginOnA, A, "example.com/plugin-note", "seen")))
                .containsEntry("example.com/plugin-note", "seen");
    }

    // ---- a user who may patch nodes, and the cluster admin ----

    @Test
    @Order(3)
    void aUserWhoMayPatchNodesCannotForgeARegisterALockOrACordon() {
        for (var forged : List.of(
                Map.entry(NvidiaKeys.REGISTER, forgedRegister()),
                Map.entry(ProtocolKeys.NODE_LOCK, "2026-08-01T06:00:00Z,e2e-trust-nodes,mallory"),
                Map.entry(NvidiaKeys.DEVICE_CORDON, "GPU-" + A + "-0"))) {
            assertRefused(() -> annotate(user, A, forged.getKey(), forged.getValue()), A, USER, forged.getKey());
            assertRefused(() -> annotate(user, B, forged.getKey(), forged.getValue()), B, USER, forged.getKey());
        }
        // Removing what the plugin wrote, and a whole-object update, are writes too.
        assertRefused(() -> annotate(user, A, NvidiaKeys.REGISTER, null), A, USER, NvidiaKeys.REGISTER);
        Node replaced = new NodeBuilder(user.nodes().withName(A).get())
                .editMetadata()
                .addToAnnotations(HygonKeys.REGISTER, "HCU-0,10,65536,100,HCU-Z100,0,true,0,hami-core:")
                .endMetadata()
                .build();
        assertRefused(() -> user.nodes().resource(replaced).update(), A, USER, HygonKeys.REGISTER);
        assertThat(annotations(node(A))).containsEntry(NvidiaKeys.REGISTER, register(A));
    }

    @Test
    @Order(3)
    void variantsOfNodeKeysInAnotherCaseAreRefusedToo() {
        assertRefused(
                () -> annotate(
                        user,
                        A,
                        Map.of("Hami.io/node-nvidia-register", forgedRegister(), "HAMI.IO/MUTEX.LOCK", "x,y,z")),
                A,
                USER,
                "Hami.io/node-nvidia-register",
                "HAMI.IO/MUTEX.LOCK");
    }

    @Test
    @Order(3)
    void theClusterAdminIsRefusedOnCreateUpdateAndStatusToo() {
        assertRefused(
                () -> annotate(admin, A, ProtocolKeys.NODE_LOCK, "2026-08-01T06:00:00Z,e2e,admin"),
                A,
                ADMIN,
                ProtocolKeys.NODE_LOCK);
        // nodes/status stores annotations (the unrelated one below shows it), so it is checked as well.
        assertRefused(
                () -> admin.nodes()
                        .withName(A)
                        .status()
                        .patch(
                                PatchContext.of(PatchType.JSON_MERGE),
                                annotationPatch(Map.of(NvidiaKeys.DEVICE_CORDON, "GPU-" + A + "-0"))),
                A,
                ADMIN,
                NvidiaKeys.DEVICE_CORDON);
        Node noted = admin.nodes()
                .withName(A)
                .status()
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        annotationPatch(Map.of("example.com/status-note", "seen")));
        assertThat(annotations(noted)).containsEntry("example.com/status-note", "seen");
        var e = catchThrowableOfType(
                KubernetesClientException.class,
                () -> admin.nodes()
                        .resource(Cluster.node("e2e-trust-node-forged")
                                .editMetadata()
                                .addToAnnotations(NvidiaKeys.REGISTER, forgedRegister())
                                .endMetadata()
                                .build())
                        .create());
        assertThat(e).as("a node created with a register").isNotNull();
        assertThat(e.getCode()).isEqualTo(403);
        assertThat(e.getMessage())
                .contains("ValidatingAdmissionPolicy '" + ProtocolKeysPolicy.NODE_NAME + "'")
                .contains(NvidiaKeys.REGISTER + ProtocolKeysPolicy.whoMayOnNode("e2e-trust-node-forged") + ADMIN);
        assertThat(node("e2e-trust-node-forged")).isNull();
    }

    @Test
    @Order(3)
    void anAdminCordonsADeviceOnlyAsTheNodesPlugin() {
        // docs/operators.md: a token of the plugin's ServiceAccount bound to the node carries its name.
        String token = admin.serviceAccounts()
                .inNamespace(SYSTEM)
                .withName("hami-device-plugin")
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(600L)
                        .withNewBoundObjectRef()
                        .withApiVersion("v1")
                        .withKind("Node")
                        .withName(B)
                        .endBoundObjectRef()
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
        Path kubeconfig = plane.writeKubeconfig(
                dir.resolve("cordon.kubeconfig"),
                new ConfigBuilder(plane.serviceAccountConfig(SYSTEM, "hami-device-plugin"))
                        .withOauthToken(token)
                        .build());
        Path cache = dir.resolve("kubectl-cache");
        String cordon = NvidiaKeys.DEVICE_CORDON + "=GPU-" + B + "-0";
        Program.Result asAdmin = Command.kubectl(plane.adminKubeconfig(), cache, "annotate", "node", B, cordon);
        assertThat(asAdmin.exitCode()).as(asAdmin.stdout()).isNotZero();
        assertThat(asAdmin.stderr())
                .contains("ValidatingAdmissionPolicy '" + ProtocolKeysPolicy.NODE_NAME + "'")
                .contains(NvidiaKeys.DEVICE_CORDON + ProtocolKeysPolicy.whoMayOnNode(B) + ADMIN);
        Command.kubectl(kubeconfig, cache, "annotate", "node", B, cordon).ok();
        assertThat(annotations(node(B))).containsEntry(NvidiaKeys.DEVICE_CORDON, "GPU-" + B + "-0");
        Command.kubectl(kubeconfig, cache, "annotate", "node", B, NvidiaKeys.DEVICE_CORDON + "-")
                .ok();
        assertThat(annotations(node(B))).doesNotContainKey(NvidiaKeys.DEVICE_CORDON);
    }

    @Test
    @Order(4)
    void theUsersUnrelatedAnnotationsAndLabelsAreAdmitted() {
        Node patched = user.nodes()
                .withName(A)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"example.com/rack\":\"r1\"},"
                                + "\"labels\":{\"example.com/zone\":\"z1\"}}}");
        assertThat(annotations(patched)).containsEntry("example.com/rack", "r1");
        assertThat(patched.getMetadata().getLabels()).containsEntry("example.com/zone", "z1");
        assertThat(annotations(patched)).containsEntry(NvidiaKeys.REGISTER, register(A));
    }

    // ---- the kubelet ----

    @Test
    @Order(4)
    void theKubeletsStatusUpdatesAndItsOwnAnnotationsAreAdmittedButNotAProtocolKey() {
        Node status = kubelet.nodes()
                .withName(A)
                .status()
                .patch(
                        PatchContext.of(PatchType.STRATEGIC_MERGE),
                        "{\"status\":{\"allocatable\":{\"nvidia.com/gpu\":\"10\"},\"conditions\":[{\"type\":\"Ready\","
                                + "\"status\":\"True\",\"reason\":\"KubeletReady\"}]}}");
        assertThat(status.getStatus().getAllocatable()).containsEntry("nvidia.com/gpu", new Quantity("10"));
        Node noted = annotate(kubelet, A, "volumes.kubernetes.io/controller-managed-attach-detach", "true");
        assertThat(annotations(noted)).containsEntry("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        // The kubelet is not its node's device plugin.
        assertRefused(
                () -> annotate(kubelet, A, NvidiaKeys.REGISTER, forgedRegister()), A, KUBELET_A, NvidiaKeys.REGISTER);
        kubelet.nodes()
                .withName(A)
                .status()
                .patch(
                        PatchContext.of(PatchType.STRATEGIC_MERGE),
                        "{\"status\":{\"allocatable\":{\"nvidia.com/gpu\":\"20\"}}}");
    }

    // ---- the scheduler ----

    @Test
    @Order(5)
    void theSchedulerWritesTheLockAndTheHandshakesOfAnyNodeButNoRegisterNorCordon() {
        String lock = "2026-08-01T06:00:00Z,e2e-trust-nodes,bound";
        Node locked = annotate(
                scheduler,
                B,
                Map.of(
                        ProtocolKeys.NODE_LOCK,
                        lock,
                        NvidiaKeys.HANDSHAKE,
                        "Requesting_2026-08-01 06:00:00",
                        HygonKeys.HANDSHAKE,
                        "Requesting_2026-08-01 06:00:00"));
        assertThat(annotations(locked)).containsEntry(ProtocolKeys.NODE_LOCK, lock);
        var release = new java.util.HashMap<String, String>();
        release.put(ProtocolKeys.NODE_LOCK, null);
        release.put(NvidiaKeys.HANDSHAKE, null);
        assertThat(annotations(annotate(scheduler, B, release)))
                .doesNotContainKeys(ProtocolKeys.NODE_LOCK, NvidiaKeys.HANDSHAKE)
                .containsKey(HygonKeys.HANDSHAKE);
        assertRefused(
                () -> annotate(scheduler, A, NvidiaKeys.REGISTER, forgedRegister()),
                A,
                ProtocolKeysPolicy.SCHEDULER,
                NvidiaKeys.REGISTER);
        assertRefused(
                () -> annotate(
                        scheduler,
                        A,
                        Map.of(NvidiaKeys.DEVICE_CORDON, "GPU-" + A + "-0", ProtocolKeys.NODE_LOCK, lock)),
                A,
                ProtocolKeysPolicy.SCHEDULER,
                NvidiaKeys.DEVICE_CORDON);
        assertThat(annotations(node(A))).doesNotContainKey(ProtocolKeys.NODE_LOCK);
    }

    // ---- the plugin as deployed ----

    @Test
    @Order(6)
    void theNvidiaPluginWithItsPodsTokenPublishesItsRegisterUnderThePolicy() throws Exception {
        annotate(pluginOnA, A, NvidiaKeys.REGISTER, null);
        try (var plugin =
                MockPlugin.start(pluginOnA, "nvidia", A, DeployedScheduler.deviceConfig(), dir.resolve("plugin"))) {
            await().atMost(Patience.seconds(30))
                    .until(() -> annotations(node(A)).get(NvidiaKeys.REGISTER) != null);
            assertThat(JsonRegisterCodec.decode(annotations(node(A)).get(NvidiaKeys.REGISTER)))
                    .isNotEmpty();
            assertThat(plugin.registered()).isNotEmpty();
        }
    }
}
