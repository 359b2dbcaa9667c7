package io.hami.e2e.trust;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.grpc.StatusRuntimeException;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.DeployedWebhook;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.deploy.tools.Program;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.Command;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.DeployedScheduler;
import io.hami.e2e.support.ExtenderClient;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.MockPlugin;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.e2e.support.ProtocolKeysPolicy;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/'s {@code protocol-keys-policy.yaml} enforced by a real kube-apiserver: protocol keys on pods are written
 * only by the scheduler's and the plugins' ServiceAccounts. No webhook is registered here (its failurePolicy is
 * Ignore, and it never sees an UPDATE), so every refusal is the policy's own; one test registers it to show that the
 * pods it mutates, as their creator, pass the policy. Before the policy is applied, a user's self-grant is accepted by the API server (the hole the
 * policy closes) and the NVIDIA plugin, with no node lock, must serve it no device. Then, in order: the self-grant
 * and the user's and the admin's edits of a decision between bind and Allocate are refused with the policy's message
 * and change nothing; the scheduler's bind and the plugin's Allocate, the user's unrelated edits and an admin acting
 * as the scheduler's ServiceAccount (the documented repair) are admitted. The policy is removed at the end: every
 * class shares the API server and others write protocol keys as the admin.
 */
@EnableKubeControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@PatientTimeout(value = 2, unit = TimeUnit.MINUTES)
class ProtocolKeysPolicyTest {
    private static final String SYSTEM = "hami-system";
    private static final String NS = "e2e-trust";
    private static final String NODE = "e2e-trust-gpu";
    private static final String USER = "e2e-trust-mallory";
    /** The control plane's administrator (client certificate in system:masters). */
    private static final String ADMIN = "hami-admin";

    private static final String FIELD_MANAGER = "hami-e2e-trust";
    /** deploy/'s MutatingWebhookConfiguration, registered by one test only. */
    private static final String WEBHOOK = "hami-scheduler";

    static KubeControlPlane plane;
    static KubernetesClient admin;

    @TempDir
    static Path dir;

    private static KubernetesClient user;
    private static Path userKubeconfig;
    private static MockPlugin nvidia;
    private static HamiScheduler scheduler;
    private static String gpu;

    // Before the policy: the user's self-granted pod, and what the plugin made of its Allocate.
    private static Pod grantedBeforeThePolicy;
    private static Throwable allocateWithoutLock;
    private static AllocateResponse servedWithoutLock;
    private static Pod afterAllocateWithoutLock;

    // The pod the scheduler binds (order 3), as the scheduler left it.
    private static Pod bound;

    @BeforeAll
    static void setUp() throws Exception {
        for (String file : List.of("namespace.yaml", "scheduler/rbac.yaml", "device-plugins/rbac.yaml")) {
            DeployFiles.apply(admin, file, FIELD_MANAGER);
        }
        plane.ensureNamespace(NS);
        // An ordinary user: may do anything with pods of its namespace, nothing else.
        admin.rbac()
                .roles()
                .inNamespace(NS)
                .resource(new RoleBuilder()
                        .withNewMetadata()
                        .withName("pod-owner")
                        .endMetadata()
                        .addNewRule()
                        .withApiGroups("")
                        .withResources("pods")
                        .withVerbs("create", "get", "list", "watch", "patch", "update", "delete")
                        .endRule()
                        .build())
                .serverSideApply();
        admin.rbac()
                .roleBindings()
                .inNamespace(NS)
                .resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName("pod-owner")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "Role", "pod-owner")
                        .addNewSubject()
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withKind("User")
                        .withName(USER)
                        .endSubject()
                        .build())
                .serverSideApply();
        user = KubeControlPlane.client(plane.userConfig(USER, List.of()));
        userKubeconfig = plane.writeKubeconfig(dir.resolve("user.kubeconfig"), plane.userConfig(USER, List.of()));

        NodeLifecycle.createReady(
                admin,
                Cluster.node(NODE)
                        .editOrNewSpec()
                        .addToTaints(Cluster.e2eTaint("trust"))
                        .endSpec()
                        .editStatus()
                        .addToCapacity("nvidia.com/gpu", new Quantity("20"))
                        .addToAllocatable("nvidia.com/gpu", new Quantity("20"))
                        .endStatus()
                        .build());
        // As the DaemonSet's pod on the node: the node policy lets the plugin write only its own node's keys.
        nvidia = MockPlugin.start(
                KubeControlPlane.client(ProtocolKeysPolicy.pluginOnNode(plane, admin, SYSTEM, NODE)),
                "nvidia",
                NODE,
                DeployedScheduler.deviceConfig(),
                dir.resolve("plugins"));
        await().atMost(Patience.seconds(30))
                .until(() -> annotations(admin.nodes().withName(NODE).get()).get(NvidiaKeys.REGISTER) != null);
        gpu = JsonRegisterCodec.decode(
                        annotations(admin.nodes().withName(NODE).get()).get(NvidiaKeys.REGISTER))
                .getFirst()
                .id();

        // The self-grant, as the API server accepts it without the policy; the node has no lock.
        grantedBeforeThePolicy = user.pods()
                .inNamespace(NS)
                .resource(selfGrant("granted-before-policy"))
                .create();
        try {
            servedWithoutLock = nvidia.allocate(gpu + "-0");
        } catch (StatusRuntimeException e) {
            allocateWithoutLock = e;
        }
        afterAllocateWithoutLock = pod("granted-before-policy");

        ProtocolKeysPolicy.apply(admin, NS, FIELD_MANAGER);
        scheduler = HamiScheduler.start(
                plane,
                plane.serviceAccountConfig(SYSTEM, "hami-scheduler"),
                new LeaderMode.Always(),
                dir.resolve("scheduler"));
        ClusterOps.awaitIndexed(scheduler, List.of(NODE));
    }

    @AfterAll
    static void cleanUp() {
        try {
            if (admin != null) {
                admin.admissionRegistration()
                        .v1()
                        .mutatingWebhookConfigurations()
                        .withName(WEBHOOK)
                        .delete();
                ProtocolKeysPolicy.remove(admin, NS);
            }
        } finally {
            if (scheduler != null) {
                scheduler.close();
            }
            if (nvidia != null) {
                nvidia.close();
            }
            if (user != null) {
                user.close();
            }
            if (admin != null) {
                ClusterOps.deletePods(admin, NS);
                ProtocolKeysPolicy.deletePluginPod(admin, SYSTEM, NODE);
                ClusterOps.deleteNodes(admin, List.of(NODE));
            }
        }
    }

    /**
     * The self-grant: labelled to skip the webhook, pinned to the node, one GPU, and the decision written by
     * its own author (bind-phase, vgpu-node and a to-allocate entry on a real device of the node).
     */
    private static Pod selfGrant(String name) {
        return new PodBuilder(Cluster.pod(NS, name, Cluster.container("cuda", "nvidia.com/gpu", "1"))
                        .build())
                .editMetadata()
                .addToLabels("hami.io/webhook", "ignore")
                .addToAnnotations(Map.of(
                        ProtocolKeys.BIND_PHASE,
                        ProtocolKeys.PHASE_ALLOCATING,
                        ProtocolKeys.VGPU_NODE,
                        NODE,
                        NvidiaKeys.TO_ALLOCATE,
                        gpu + ",NVIDIA,40000,100:;"))
                .endMetadata()
                .editSpec()
                .withNodeName(NODE)
                .addToTolerations(Cluster.e2eToleration())
                .endSpec()
                .build();
    }

    private static Pod pod(String name) {
        return admin.pods().inNamespace(NS).withName(name).get();
    }

    /** The pod's protocol keys (as the policy names them), sorted. */
    private static Map<String, String> protocolKeys(Pod pod) {
        var out = new TreeMap<String, String>();
        annotations(pod).forEach((k, v) -> {
            if (k.startsWith("hami.io/vgpu-")
                    || k.startsWith("hami.io/bind-")
                    || k.endsWith("-devices-to-allocate")
                    || k.endsWith("-devices-allocated")
                    || k.equals(ProtocolKeys.NODE_LOCK)) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** Runs {@code call}, which must be refused by the policy with its message naming {@code keys} and {@code who}. */
    private static void assertRefused(Runnable call, String who, String... keys) {
        var e = catchThrowableOfType(KubernetesClientException.class, call::run);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.getCode()).as(e.getMessage()).isEqualTo(403);
        assertThat(e.getMessage())
                .contains("ValidatingAdmissionPolicy '" + ProtocolKeysPolicy.NAME + "'")
                .contains(ProtocolKeysPolicy.WHO_MAY + who
                        + ": devices are granted by the scheduler, never through annotations");
        for (String key : keys) {
            assertThat(e.getMessage()).contains(key);
        }
    }

    /** A refused patch changed nothing: same resourceVersion, same protocol keys. */
    private static void assertUnchanged(String name, Pod before) {
        Pod now = pod(name);
        assertThat(now.getMetadata().getResourceVersion())
                .as("resourceVersion")
                .isEqualTo(before.getMetadata().getResourceVersion());
        assertThat(protocolKeys(now)).isEqualTo(protocolKeys(before));
    }

    private static Pod mergePatch(KubernetesClient as, String name, String json) {
        return as.pods().inNamespace(NS).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), json);
    }

    // ---- before the policy ----

    @Test
    @Order(0)
    void withoutThePolicyTheApiServerTakesTheSelfGrantButThePluginServesNoDeviceWithoutALock() {
        assertThat(protocolKeys(grantedBeforeThePolicy))
                .as("the hole the policy closes")
                .containsKeys(ProtocolKeys.BIND_PHASE, ProtocolKeys.VGPU_NODE, NvidiaKeys.TO_ALLOCATE);
        assertThat(annotations(admin.nodes().withName(NODE).get())).doesNotContainKey(ProtocolKeys.NODE_LOCK);
        assertThat(servedWithoutLock).as("Allocate served without a node lock").isNull();
        assertThat(allocateWithoutLock).isNotNull();
        assertThat(annotations(afterAllocateWithoutLock).get(NvidiaKeys.TO_ALLOCATE))
                .as("the entry is not consumed")
                .isEqualTo(gpu + ",NVIDIA,40000,100:;");
    }

    // ---- with the policy: creates ----

    @Test
    @Order(1)
    void theSelfGrantOfAUserIsRefused() {
        assertRefused(
                () -> user.pods()
                        .inNamespace(NS)
                        .resource(selfGrant("self-grant"))
                        .create(),
                USER,
                ProtocolKeys.BIND_PHASE,
                ProtocolKeys.VGPU_NODE,
                NvidiaKeys.TO_ALLOCATE);
        assertThat(pod("self-grant")).isNull();
    }

    @Test
    @Order(1)
    void theClusterAdminCannotCreateAPodWithAProtocolKeyEither() {
        assertRefused(
                () -> admin.pods()
                        .inNamespace(NS)
                        .resource(new PodBuilder(selfGrant("admin-grant"))
                                .editMetadata()
                                .withAnnotations(Map.of(NvidiaKeys.ALLOCATED, gpu + ",NVIDIA,1000,10:;"))
                                .endMetadata()
                                .build())
                        .create(),
                ADMIN,
                NvidiaKeys.ALLOCATED);
        assertThat(pod("admin-grant")).isNull();
    }

    @Test
    @Order(1)
    void variantsOfProtocolKeysInAnotherCaseAreRefusedToo() {
        // Annotation keys are case-sensitive and no reader takes these for protocol keys (scheduler's
        // CaseVariantKeysTest), but an operator expects them refused: the policy compares keys in lower case.
        String toAllocate = "Hami.io/vgpu-devices-to-allocate";
        String phase = "HAMI.IO/BIND-PHASE";
        String hcu = "hami.io/HCU-devices-allocated";
        assertRefused(
                () -> user.pods()
                        .inNamespace(NS)
                        .resource(new PodBuilder(Cluster.pod(NS, "variant", Cluster.container("app", "cpu", "10m"))
                                        .build())
                                .editMetadata()
                                .addToAnnotations(
                                        Map.of(toAllocate, gpu + ",NVIDIA,40000,100:;", phase, "allocating", hcu, "x"))
                                .endMetadata()
                                .build())
                        .create(),
                USER,
                phase,
                toAllocate,
                hcu);
        assertThat(pod("variant")).isNull();
    }

    @Test
    @Order(1)
    void anOrdinaryPodOfAUserIsAdmitted() {
        Pod plain = user.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(Cluster.pod(NS, "plain", Cluster.container("app", "cpu", "100m"))
                                .build())
                        .editMetadata()
                        .addToAnnotations("example.com/note", "mine")
                        .addToAnnotations(ProtocolKeys.GPU_SCHEDULER_POLICY, "spread")
                        .endMetadata()
                        .build())
                .create();
        assertThat(annotations(plain)).containsEntry(ProtocolKeys.GPU_SCHEDULER_POLICY, "spread");
    }

    @Test
    @Order(1)
    void ourWebhookMutatesUnderTheUsersIdentityAndAddsNoProtocolKey() {
        // The policy judges the pod as mutated, as the user who created it: a protocol key added by the webhook would
        // refuse every pod that asks for devices.
        DeployedWebhook.register(admin, scheduler.url(), plane.ca().certificatePem());
        try {
            Pod gpu = user.pods()
                    .inNamespace(NS)
                    .resource(Cluster.pod(NS, "webhook-gpu", Cluster.container("cuda", "nvidia.com/gpu", "1"))
                            .build())
                    .create();
            Pod musa = user.pods()
                    .inNamespace(NS)
                    .resource(Cluster.pod(NS, "webhook-musa", Cluster.container("musa", "mthreads.com/vgpu", "2"))
                            .build())
                    .create();
            for (Pod mutated : List.of(gpu, musa)) {
                assertThat(mutated.getSpec().getSchedulerName())
                        .as("mutated by the webhook")
                        .isEqualTo(HamiScheduler.SCHEDULER_NAME);
                assertThat(protocolKeys(mutated)).isEmpty();
            }
            assertThat(annotations(musa))
                    .as("an annotation the webhook adds")
                    .containsKey("mthreads.com/request-gpu-num");
        } finally {
            admin.admissionRegistration()
                    .v1()
                    .mutatingWebhookConfigurations()
                    .withName(WEBHOOK)
                    .delete();
        }
    }

    // ---- with the policy: repairing a pod granted before it ----

    @Test
    @Order(2)
    void anAdminRepairsAPodOnlyByActingAsTheSchedulersServiceAccount() {
        Pod before = pod("granted-before-policy");
        String[] removeKeys = {
            "annotate",
            "-n",
            NS,
            "pod",
            "granted-before-policy",
            ProtocolKeys.BIND_PHASE + "-",
            ProtocolKeys.VGPU_NODE + "-",
            NvidiaKeys.TO_ALLOCATE + "-"
        };
        Path cache = dir.resolve("kubectl-cache");
        Program.Result asAdmin = Command.kubectl(plane.adminKubeconfig(), cache, removeKeys);
        assertThat(asAdmin.exitCode()).as(asAdmin.stdout()).isNotZero();
        assertThat(asAdmin.stderr())
                .contains("ValidatingAdmissionPolicy '" + ProtocolKeysPolicy.NAME + "'")
                .contains(ProtocolKeys.BIND_PHASE)
                .contains(ProtocolKeysPolicy.WHO_MAY + ADMIN);
        assertUnchanged("granted-before-policy", before);

        // docs/operators.md: impersonation is the admin's own grant, and the audit log names both identities.
        String[] asScheduler = new String[removeKeys.length + 1];
        asScheduler[0] = "--as=" + ProtocolKeysPolicy.SCHEDULER;
        System.arraycopy(removeKeys, 0, asScheduler, 1, removeKeys.length);
        Command.kubectl(plane.adminKubeconfig(), cache, asScheduler).ok();
        assertThat(protocolKeys(pod("granted-before-policy"))).isEmpty();

        // Gone before the scheduler's pod is allocated: a pod on the node asking for the same resource would make its
        // Allocate ambiguous to the plugin.
        admin.pods()
                .inNamespace(NS)
                .withName("granted-before-policy")
                .withGracePeriod(0)
                .delete();
        await().atMost(Patience.seconds(20)).until(() -> pod("granted-before-policy") == null);
    }

    // ---- with the policy: between bind and Allocate ----

    @Test
    @Order(3)
    void theSchedulersServiceAccountWritesItsDecision() throws Exception {
        Pod created = user.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(Cluster.pod(
                                        NS,
                                        "bound",
                                        Cluster.container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"))
                                .build())
                        .editSpec()
                        .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                        .addToTolerations(Cluster.e2eToleration())
                        .endSpec()
                        .build())
                .create();
        var result = ExtenderClient.of(scheduler, plane.ca().certificatePem()).bind(created, NODE);
        assertThat(result.error()).as("bind").isNullOrEmpty();
        bound = pod("bound");
        assertThat(bound.getSpec().getNodeName()).isEqualTo(NODE);
        assertThat(protocolKeys(bound))
                .containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING)
                .containsEntry(ProtocolKeys.VGPU_NODE, NODE)
                .containsKeys(
                        NvidiaKeys.TO_ALLOCATE, NvidiaKeys.ALLOCATED, ProtocolKeys.BIND_TIME, ProtocolKeys.VGPU_TIME);
        assertThat(NodeLockCodec.decode(
                                annotations(admin.nodes().withName(NODE).get()).get(ProtocolKeys.NODE_LOCK))
                        .name())
                .isEqualTo("bound");
    }

    @Test
    @Order(4)
    void theUsersEditsOfTheDecisionAreRefusedAndChangeNothing() throws Exception {
        String entry = protocolKeys(bound).get(NvidiaKeys.TO_ALLOCATE);
        String other = entry.replace(
                        gpu,
                        JsonRegisterCodec.decode(
                                        annotations(admin.nodes().withName(NODE).get())
                                                .get(NvidiaKeys.REGISTER))
                                .getLast()
                                .id())
                .replace(",1000,", ",40000,");
        assertThat(other).isNotEqualTo(entry);
        assertRefused(
                () -> mergePatch(
                        user,
                        "bound",
                        "{\"metadata\":{\"annotations\":{\"" + NvidiaKeys.TO_ALLOCATE + "\":\"" + other + "\"}}}"),
                USER,
                NvidiaKeys.TO_ALLOCATE);
        assertUnchanged("bound", bound);
        assertRefused(
                () -> mergePatch(
                        user,
                        "bound",
                        "{\"metadata\":{\"annotations\":{\"hami.io/hcu-devices-to-allocate\":\""
                                + "HCU-0,HCU,1000,10:;\"}}}"),
                USER,
                "hami.io/hcu-devices-to-allocate");
        assertUnchanged("bound", bound);
        assertRefused(
                () -> mergePatch(
                        user, "bound", "{\"metadata\":{\"annotations\":{\"" + ProtocolKeys.BIND_PHASE + "\":null}}}"),
                USER,
                ProtocolKeys.BIND_PHASE);
        assertUnchanged("bound", bound);
        // A whole-object update (kubectl replace, an operator's read-modify-write) is an UPDATE too.
        Pod replaced = new PodBuilder(
                        user.pods().inNamespace(NS).withName("bound").get())
                .editMetadata()
                .addToAnnotations(ProtocolKeys.VGPU_NODE, "elsewhere")
                .endMetadata()
                .build();
        assertRefused(() -> user.pods().inNamespace(NS).resource(replaced).update(), USER, ProtocolKeys.VGPU_NODE);
        assertUnchanged("bound", bound);

        Program.Result annotate = Command.kubectl(
                userKubeconfig,
                dir.resolve("kubectl-cache-user"),
                "annotate",
                "--overwrite",
                "-n",
                NS,
                "pod",
                "bound",
                NvidiaKeys.TO_ALLOCATE + "=" + other);
        assertThat(annotate.exitCode()).as(annotate.stdout()).isNotZero();
        assertThat(annotate.stderr())
                .contains("ValidatingAdmissionPolicy '" + ProtocolKeysPolicy.NAME + "'")
                .contains(NvidiaKeys.TO_ALLOCATE + ProtocolKeysPolicy.WHO_MAY + USER);
        assertUnchanged("bound", bound);
    }

    @Test
    @Order(4)
    void theClusterAdminsEditsAreRefusedToo() {
        assertRefused(
                () -> mergePatch(
                        admin,
                        "bound",
                        "{\"metadata\":{\"annotations\":{\"" + ProtocolKeys.BIND_PHASE + "\":\"success\"}}}"),
                ADMIN,
                ProtocolKeys.BIND_PHASE);
        assertUnchanged("bound", bound);
        // The status subresource stores annotations too (shown by the unrelated one below), so it is checked as well.
        assertRefused(
                () -> admin.pods()
                        .inNamespace(NS)
                        .withName("bound")
                        .status()
                        .patch(
                                PatchContext.of(PatchType.JSON_MERGE),
                                "{\"metadata\":{\"annotations\":{\"" + ProtocolKeys.BIND_PHASE + "\":\"failed\"}}}"),
                ADMIN,
                ProtocolKeys.BIND_PHASE);
        assertUnchanged("bound", bound);
        Pod noted = admin.pods()
                .inNamespace(NS)
                .withName("bound")
                .status()
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"example.com/status-note\":\"seen\"}}}");
        assertThat(annotations(noted)).containsEntry("example.com/status-note", "seen");
        assertThat(protocolKeys(noted)).isEqualTo(protocolKeys(bound));
    }

    @Test
    @Order(4)
    void aBindingCannotCarryProtocolKeysOntoAPod() {
        // A Binding's annotations are copied onto the pod it binds.
        user.pods()
                .inNamespace(NS)
                .resource(Cluster.pod(NS, "unbound", Cluster.container("app", "cpu", "100m"))
                        .build())
                .create();
        assertRefused(
                () -> admin.bindings()
                        .inNamespace(NS)
                        .resource(new BindingBuilder()
                                .withNewMetadata()
                                .withName("unbound")
                                .addToAnnotations(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING)
                                .endMetadata()
                                .withNewTarget()
                                .withKind("Node")
                                .withName(NODE)
                                .endTarget()
                                .build())
                        .create(),
                ADMIN,
                ProtocolKeys.BIND_PHASE);
        Pod after = pod("unbound");
        assertThat(after.getSpec().getNodeName()).isNullOrEmpty();
        assertThat(protocolKeys(after)).isEmpty();
    }

    @Test
    @Order(5)
    void theUsersUnrelatedEditsOfTheSamePodAreAdmitted() {
        Pod before = pod("bound");
        Pod patched = mergePatch(
                user,
                "bound",
                "{\"metadata\":{\"annotations\":{\"example.com/owner\":\"team-a\"},"
                        + "\"labels\":{\"example.com/tier\":\"batch\"}}}");
        assertThat(annotations(patched)).containsEntry("example.com/owner", "team-a");
        assertThat(patched.getMetadata().getLabels()).containsEntry("example.com/tier", "batch");
        assertThat(protocolKeys(patched)).isEqualTo(protocolKeys(before)).isEqualTo(protocolKeys(bound));
    }

    @Test
    @Order(6)
    void thePluginsServiceAccountConsumesTheSchedulersEntryAndFinishes() {
        String entry = protocolKeys(bound).get(NvidiaKeys.ALLOCATED);
        AllocateResponse response = nvidia.allocate(entry.split(",")[0] + "-0");
        assertThat(response.getContainerResponsesCount()).isEqualTo(1);
        await().atMost(Patience.seconds(20))
                .until(() -> annotations(admin.nodes().withName(NODE).get()).get(ProtocolKeys.NODE_LOCK) == null);
        Pod finished = pod("bound");
        assertThat(protocolKeys(finished))
                .containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_SUCCESS)
                .containsEntry(NvidiaKeys.TO_ALLOCATE, ";")
                .containsEntry(NvidiaKeys.ALLOCATED, entry);
    }
}
