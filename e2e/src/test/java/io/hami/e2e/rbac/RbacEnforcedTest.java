package io.hami.e2e.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.backend.hygon.HygonKeys;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.ApiCall;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.DeployedScheduler;
import io.hami.e2e.support.MockPlugin;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.e2e.support.RecordingClient;
import io.hami.monitor.pods.NodePods;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.LegacyRegisterCodec;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RBAC enforced, not checked against a list: deploy/'s namespace and both RBAC manifests are applied to a real
 * kube-apiserver ({@code --authorization-mode=Node,RBAC}), and every component runs with the token of the
 * ServiceAccount the manifests give it. Our scheduler (the Deployment's flags, {@code --leader-follow} included) and
 * the real kube-scheduler (leader election on Lease {@code hami-kube-scheduler}) share {@code hami-scheduler}, as the
 * two containers of the scheduler pod do; the NVIDIA and Hygon plugins, on the C mock libraries, and the node
 * monitor's informer of the NVIDIA node's pods run as {@code hami-device-plugin}. A user's pod goes the whole way: register annotations, handshake, kube-scheduler
 * through our extender (filter, bind under the node lock), the plugin's Allocate over gRPC (entry consumed,
 * {@code bind-phase=success}, lock released), events. No call may be refused, every permission must be used, and
 * calls outside the grants are refused with 403.
 *
 * <p>{@code deploy}'s SchedulerRbacTest and PluginRbacTest stay: they record the calls against the embedded API
 * server, run without the control-plane binaries, and also evaluate the manifests' own roles offline.
 */
@EnableKubeControlPlane
class RbacEnforcedTest {
    private static final String SYSTEM = "hami-system";
    private static final String NS = "e2e-rbac";
    private static final String GPU_NODE = "e2e-rbac-gpu";
    private static final String HCU_NODE = "e2e-rbac-hcu";
    private static final String USER = "e2e-rbac-alice";
    private static final String POD = "train";
    private static final String SECOND = "train-2";
    private static final String UNDECIDED = "placed-by-hand";

    static KubeControlPlane plane;
    static KubernetesClient admin;

    @TempDir
    static Path dir;

    private static Config schedulerIdentity;
    private static Config pluginIdentity;
    private static RecordingClient schedulerCalls;
    private static RecordingClient pluginCalls;

    // What the flow saw, for the tests to check.
    private static String leaseHolder;
    private static boolean schedulerLedWithoutKubeScheduler;
    private static boolean schedulerLedBeforeThePod;
    private static boolean schedulerLedAfterKubeScheduler = true;
    private static final List<String> hcuHandshakes = new CopyOnWriteArrayList<>();
    private static Pod bound;
    private static String lockWhileAllocating;
    private static AllocateResponse allocated;
    private static Pod finished;
    private static Node gpuNodeAfter;
    private static Node hcuNodeAfter;
    private static List<Event> events;
    private static Throwable unattributedAllocate;
    private static List<Event> refusalEvents;
    private static String metrics;
    private static List<String> kubeSchedulerLog;
    private static final List<String> registeredWithTheKubelet = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void runTheWholeFlowAsTheDeployedIdentities() throws Exception {
        for (String file : List.of("namespace.yaml", "scheduler/rbac.yaml", "device-plugins/rbac.yaml")) {
            DeployFiles.apply(admin, file, "hami-e2e-rbac");
        }
        plane.ensureNamespace(NS);
        // The user may create and read pods in its namespace, nothing else.
        admin.rbac()
                .roles()
                .inNamespace(NS)
                .resource(new RoleBuilder()
                        .withNewMetadata()
                        .withName("pod-author")
                        .endMetadata()
                        .addNewRule()
                        .withApiGroups("")
                        .withResources("pods")
                        .withVerbs("create", "get", "list", "watch")
                        .endRule()
                        .build())
                .serverSideApply();
        admin.rbac()
                .roleBindings()
                .inNamespace(NS)
                .resource(new RoleBindingBuilder()
                        .withNewMetadata()
                        .withName("pod-author")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "Role", "pod-author")
                        .addNewSubject()
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withKind("User")
                        .withName(USER)
                        .endSubject()
                        .build())
                .serverSideApply();
        // The nodes as a kubelet registers them: capacity, the device counts its plugins would report.
        NodeLifecycle.createReady(
                admin,
                tainted(Cluster.node(GPU_NODE))
                        .editStatus()
                        .addToCapacity("nvidia.com/gpu", new Quantity("20"))
                        .addToAllocatable("nvidia.com/gpu", new Quantity("20"))
                        .endStatus()
                        .build());
        NodeLifecycle.createReady(
                admin,
                tainted(Cluster.node(HCU_NODE))
                        .editStatus()
                        .addToCapacity("hygon.com/hcunum", new Quantity("8"))
                        .addToAllocatable("hygon.com/hcunum", new Quantity("8"))
                        .endStatus()
                        .build());

        schedulerIdentity = plane.serviceAccountConfig(SYSTEM, "hami-scheduler");
        pluginIdentity = plane.serviceAccountConfig(SYSTEM, "hami-device-plugin");
        schedulerCalls = new RecordingClient(schedulerIdentity);
        pluginCalls = new RecordingClient(pluginIdentity);
        DeviceConfig config = DeployedScheduler.deviceConfig();

        try (MockPlugin nvidia =
                        MockPlugin.start(pluginCalls.client(), "nvidia", GPU_NODE, config, dir.resolve("plugins"));
                MockPlugin hcu =
                        MockPlugin.start(pluginCalls.client(), "hygon", HCU_NODE, config, dir.resolve("plugins"));
                // The NVIDIA DaemonSet's node monitor runs as the same ServiceAccount: its informer of the node's pods.
                NodePods monitorPods = NodePods.watch(pluginCalls.client(), GPU_NODE)) {
            await().atMost(Patience.seconds(30))
                    .until(() -> annotation(GPU_NODE, NvidiaKeys.REGISTER) != null
                            && annotation(HCU_NODE, HygonKeys.REGISTER) != null
                            && monitorPods.synced());

            try (DeployedScheduler scheduler = DeployedScheduler.start(
                    plane, schedulerCalls.client(), Duration.ofSeconds(1), dir.resolve("scheduler"))) {
                await().atMost(Patience.seconds(30))
                        .until(() -> schedulerCalls.calls().stream()
                                .anyMatch(c -> c.uri().getPath().endsWith("/leases/" + scheduler.leaseName())));
                schedulerLedWithoutKubeScheduler = scheduler.app().isLeader();
                scheduler.startKubeScheduler(plane, schedulerIdentity);
                await().atMost(Patience.seconds(60)).until(() -> scheduler.app().isLeader());
                schedulerLedBeforeThePod = true;
                Lease lease = admin.resources(Lease.class)
                        .inNamespace(scheduler.leaseNamespace())
                        .withName(scheduler.leaseName())
                        .get();
                leaseHolder = lease.getSpec().getHolderIdentity();

                // The scheduler asks the HCU plugin for its handshake; the plugin answers.
                await().atMost(Patience.seconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> {
                            String h = annotation(HCU_NODE, HygonKeys.HANDSHAKE);
                            if (h != null
                                    && (hcuHandshakes.isEmpty()
                                            || !hcuHandshakes.getLast().equals(h))) {
                                hcuHandshakes.add(h);
                            }
                            return hcuHandshakes.stream().anyMatch(v -> v.startsWith("Requesting_"))
                                    && hcuHandshakes.stream().anyMatch(v -> v.startsWith("Reported_"));
                        });
                await().atMost(Patience.seconds(30))
                        .until(() -> scheduler.app().index().nodeNames().containsAll(List.of(GPU_NODE, HCU_NODE)));

                // A user creates a pod; the real kube-scheduler schedules it through our extender.
                createUsersPod(POD);
                await().atMost(Patience.seconds(60))
                        .until(() -> GPU_NODE.equals(pod().getSpec().getNodeName()));
                bound = pod();
                lockWhileAllocating = annotation(GPU_NODE, ProtocolKeys.NODE_LOCK);

                // The kubelet's Allocate on the plugin's socket.
                String gpu = bound.getMetadata()
                        .getAnnotations()
                        .get(NvidiaKeys.ALLOCATED)
                        .split(",")[0];
                allocated = nvidia.allocate(gpu + "-0");
                await().atMost(Patience.seconds(30)).until(() -> annotation(GPU_NODE, ProtocolKeys.NODE_LOCK) == null);
                finished = pod();
                await().atMost(Patience.seconds(30))
                        .until(() -> reasons().containsAll(List.of("FilteringSucceed", "BindingSucceed", "Scheduled")));
                events = podEvents();

                // A pod the admin placed by nodeName asks for a GPU without a decision of ours: the plugin cannot tell
                // the
                // next holder's Allocate from that pod's, refuses it and says so in events; once that pod is gone it
                // serves.
                admin.pods()
                        .inNamespace(NS)
                        .resource(new PodBuilder(
                                        Cluster.pod(NS, UNDECIDED, Cluster.container("main", "nvidia.com/gpu", "1"))
                                                .build())
                                .editSpec()
                                .withNodeName(GPU_NODE)
                                .endSpec()
                                .build())
                        .create();
                createUsersPod(SECOND);
                await().atMost(Patience.seconds(60))
                        .until(() -> ProtocolKeys.PHASE_ALLOCATING.equals(admin.pods()
                                .inNamespace(NS)
                                .withName(SECOND)
                                .get()
                                .getMetadata()
                                .getAnnotations()
                                .get(ProtocolKeys.BIND_PHASE)));
                String secondGpu = admin.pods()
                        .inNamespace(NS)
                        .withName(SECOND)
                        .get()
                        .getMetadata()
                        .getAnnotations()
                        .get(NvidiaKeys.ALLOCATED)
                        .split(",")[0];
                unattributedAllocate = catchThrowable(() -> nvidia.allocate(secondGpu + "-1"));
                await().atMost(Patience.seconds(30))
                        .until(() -> ambiguityEvents().size() >= 2);
                refusalEvents = ambiguityEvents();
                admin.pods()
                        .inNamespace(NS)
                        .withName(UNDECIDED)
                        .withGracePeriod(0)
                        .delete();
                await().atMost(Patience.seconds(30))
                        .until(() ->
                                admin.pods().inNamespace(NS).withName(UNDECIDED).get() == null);
                nvidia.allocate(secondGpu + "-1");
                await().atMost(Patience.seconds(30)).until(() -> annotation(GPU_NODE, ProtocolKeys.NODE_LOCK) == null);
                metrics = get(scheduler.metricsUrl());
                kubeSchedulerLog = Files.readAllLines(scheduler.kubeScheduler().log());
                registeredWithTheKubelet.addAll(nvidia.registered());
                registeredWithTheKubelet.addAll(hcu.registered());
                // kube-scheduler stops (its pod's container ends): ours stops leading once the Lease is not its own.
                scheduler.kubeScheduler().close();
                await().atMost(Patience.seconds(30))
                        .until(() -> !scheduler.app().isLeader());
                schedulerLedAfterKubeScheduler = scheduler.app().isLeader();
            }
        }
        gpuNodeAfter = admin.nodes().withName(GPU_NODE).get();
        hcuNodeAfter = admin.nodes().withName(HCU_NODE).get();
    }

    @AfterAll
    static void cleanUp() {
        if (admin != null) {
            Stream.of(POD, SECOND, UNDECIDED)
                    .forEach(p -> admin.pods()
                            .inNamespace(NS)
                            .withName(p)
                            .withGracePeriod(0)
                            .delete());
            admin.nodes().withName(GPU_NODE).delete();
            admin.nodes().withName(HCU_NODE).delete();
        }
        Stream.of(schedulerCalls, pluginCalls).filter(c -> c != null).forEach(RecordingClient::close);
    }

    /** A pod of the user, for our scheduler (the Deployment's scheduler name), tolerating the test nodes' taint. */
    private static void createUsersPod(String name) {
        try (KubernetesClient user = KubeControlPlane.client(plane.userConfig(USER, List.of()))) {
            user.pods()
                    .inNamespace(NS)
                    .resource(new PodBuilder(Cluster.onNode(
                                    Cluster.pod(
                                                    NS,
                                                    name,
                                                    Cluster.container(
                                                            "main", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "4000"))
                                            .build(),
                                    GPU_NODE))
                            .editSpec()
                            .withSchedulerName(DeployFiles.flag(DeployedScheduler.container(), "--scheduler-name")
                                    .orElseThrow())
                            .addToTolerations(Cluster.e2eToleration())
                            .endSpec()
                            .build())
                    .create();
        }
    }

    private static List<Event> ambiguityEvents() {
        return admin.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "AllocationAmbiguous".equals(e.getReason()))
                .toList();
    }

    private static NodeBuilder tainted(NodeBuilder node) {
        return node.editOrNewSpec().addToTaints(Cluster.e2eTaint("rbac")).endSpec();
    }

    private static Pod pod() {
        return admin.pods().inNamespace(NS).withName(POD).get();
    }

    private static String annotation(String node, String key) {
        Map<String, String> a = admin.nodes().withName(node).get().getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    private static List<Event> podEvents() {
        return admin.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> POD.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    private static List<String> reasons() {
        return podEvents().stream().map(Event::getReason).distinct().toList();
    }

    private static String get(String url) throws Exception {
        try (var http = HttpClient.newHttpClient()) {
            var r = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(url).isEqualTo(200);
            return r.body();
        }
    }

    // ---- the flow, as the deployed identities ran it ----

    @Test
    void ourSchedulerLeadsExactlyWhileTheKubeSchedulerOfItsPodHoldsTheLease() {
        assertThat(schedulerLedWithoutKubeScheduler)
                .as("before kube-scheduler took the Lease")
                .isFalse();
        assertThat(schedulerLedBeforeThePod).as("while it holds it").isTrue();
        assertThat(schedulerLedAfterKubeScheduler).as("once it stopped").isFalse();
        assertThat(leaseHolder)
                .as("kube-scheduler's identity: <pod name>_<uuid>")
                .startsWith(DeployedScheduler.POD_NAME + "_");
    }

    @Test
    void thePluginsPublishTheirInventoryAndTheHcuPluginAnswersTheHandshake() throws Exception {
        assertThat(JsonRegisterCodec.decode(
                        gpuNodeAfter.getMetadata().getAnnotations().get(NvidiaKeys.REGISTER)))
                .hasSize(2);
        assertThat(LegacyRegisterCodec.decode(
                        hcuNodeAfter.getMetadata().getAnnotations().get(HygonKeys.REGISTER)))
                .hasSize(2);
        assertThat(hcuHandshakes)
                .as("scheduler's request, plugin's answer")
                .anyMatch(v -> v.startsWith("Requesting_"))
                .anyMatch(v -> v.startsWith("Reported_"));
        assertThat(gpuNodeAfter.getMetadata().getAnnotations())
                .as("the scheduler's handshake round on the NVIDIA node")
                .containsKey(NvidiaKeys.HANDSHAKE);
        assertThat(registeredWithTheKubelet).contains("nvidia.com/gpu", "hygon.com/hcunum");
    }

    @Test
    void kubeSchedulerBindsTheUsersPodThroughOurExtenderUnderTheNodeLock() throws Exception {
        Map<String, String> a = bound.getMetadata().getAnnotations();
        assertThat(bound.getSpec().getNodeName()).isEqualTo(GPU_NODE);
        assertThat(a)
                .containsEntry(ProtocolKeys.VGPU_NODE, GPU_NODE)
                .containsKeys(NvidiaKeys.ALLOCATED, NvidiaKeys.TO_ALLOCATE);
        assertThat(a.get(ProtocolKeys.BIND_PHASE)).isIn(ProtocolKeys.PHASE_ALLOCATING, ProtocolKeys.PHASE_SUCCESS);
        var lock = NodeLockCodec.decode(lockWhileAllocating);
        assertThat(lock.isHeldBy(NS, POD)).as("lock " + lockWhileAllocating).isTrue();
    }

    @Test
    void thePluginAllocatesThePodOverGrpcConsumesItsEntryAndReleasesTheLock() {
        String gpu =
                bound.getMetadata().getAnnotations().get(NvidiaKeys.ALLOCATED).split(",")[0];
        assertThat(allocated.getContainerResponsesCount()).isEqualTo(1);
        Map<String, String> a = finished.getMetadata().getAnnotations();
        assertThat(a).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_SUCCESS);
        assertThat(a.get(NvidiaKeys.ALLOCATED)).contains(gpu);
        assertThat(a.getOrDefault(NvidiaKeys.TO_ALLOCATE, ""))
                .as("entry consumed")
                .doesNotContain(gpu);
        assertThat(gpuNodeAfter.getMetadata().getAnnotations()).doesNotContainKey(ProtocolKeys.NODE_LOCK);
    }

    @Test
    void thePluginRefusesAnAllocateItCannotAttributeAndTellsBothPodsInEvents() {
        assertThat(unattributedAllocate)
                .as("the Allocate while an undecided pod waits")
                .isNotNull()
                .hasMessageContaining("without a decision");
        assertThat(refusalEvents)
                .extracting(e -> e.getInvolvedObject().getName())
                .contains(SECOND, UNDECIDED);
        assertThat(refusalEvents).allSatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getMessage()).contains(GPU_NODE);
        });
    }

    @Test
    void theSchedulersEventsAndKubeSchedulersAreWritten() {
        assertThat(events).extracting(Event::getReason).contains("FilteringSucceed", "BindingSucceed", "Scheduled");
        assertThat(metrics)
                .as("events all written")
                .doesNotContainPattern("(?m)^hami_event_write_failures_total\\{[^}]*} [1-9]");
        assertThat(metrics).doesNotContainPattern("(?m)^hami_node_lock_failures_total\\{[^}]*} [1-9]");
    }

    // ---- no call refused ----

    @Test
    void noCallOfOurSchedulerIsRefused() {
        assertThat(schedulerCalls.calls()).as("recorded").isNotEmpty();
        assertThat(schedulerCalls.answered(101))
                .as("the informers' watches are answered too (WebSocket upgrades)")
                .extracting(a -> a.call().uri().getPath())
                .containsExactlyInAnyOrder("/api/v1/nodes", "/api/v1/pods", "/api/v1/resourcequotas");
        assertThat(schedulerCalls.answered(403)).as("refused calls").isEmpty();
        assertThat(schedulerCalls.answered(401)).as("unauthenticated calls").isEmpty();
        assertThat(errors(schedulerCalls))
                .as("error answers other than a Lease not there yet")
                .isEmpty();
    }

    @Test
    void noCallOfThePluginsIsRefused() {
        assertThat(pluginCalls.calls()).as("recorded").isNotEmpty();
        assertThat(pluginCalls.answered(403)).as("refused calls").isEmpty();
        assertThat(pluginCalls.answered(401)).as("unauthenticated calls").isEmpty();
        assertThat(errors(pluginCalls)).isEmpty();
    }

    /** Error answers, except the 404 of reading kube-scheduler's Lease before kube-scheduler created it. */
    private static List<RecordingClient.Answer> errors(RecordingClient calls) {
        return calls.answers().stream()
                .filter(a -> a.code() >= 400)
                .filter(a -> !(a.code() == 404 && a.call().uri().getPath().contains("/leases/")))
                .distinct()
                .toList();
    }

    @Test
    void kubeSchedulerIsRefusedNothing() {
        assertThat(kubeSchedulerLog)
                .as("kube-scheduler's log")
                .isNotEmpty()
                .noneMatch(l -> l.contains("forbidden") || l.contains("Forbidden"));
    }

    /**
     * kube-scheduler ran as the Deployment's ServiceAccount and held its Lease; outside a cluster it has no in-cluster
     * configuration for delegated authentication, so the reader of kube-system's authentication ConfigMap is not
     * called here: the authorizer is asked instead.
     */
    @Test
    void kubeSchedulersOwnGrantsAreWhatItNeeds() {
        String user = "system:serviceaccount:" + SYSTEM + ":hami-scheduler";
        assertThat(allowed(user, "get", "", "configmaps", "kube-system", "extension-apiserver-authentication"))
                .isTrue();
        assertThat(allowed(user, "update", "coordination.k8s.io", "leases", SYSTEM, "hami-kube-scheduler"))
                .isTrue();
        assertThat(allowed(user, "update", "coordination.k8s.io", "leases", SYSTEM, "another-lease"))
                .isFalse();
        assertThat(leaseHolder).isNotNull();
    }

    private static boolean allowed(
            String user, String verb, String group, String resource, String namespace, String name) {
        return allowed(
                user,
                List.of("system:serviceaccounts", "system:serviceaccounts:" + SYSTEM, "system:authenticated"),
                verb,
                group,
                resource,
                namespace,
                name);
    }

    private static boolean allowed(String user, List<String> groups, ApiCall.Access a) {
        return allowed(user, groups, a.verb(), a.group(), a.resource(), a.namespace(), a.name());
    }

    /** The real authorizer's answer (SubjectAccessReview); {@code resource} may name a subresource ({@code nodes/status}). */
    private static boolean allowed(
            String user,
            List<String> groups,
            String verb,
            String group,
            String resource,
            String namespace,
            String name) {
        String[] parts = resource.split("/", 2);
        return admin.authorization()
                .v1()
                .subjectAccessReview()
                .create(new SubjectAccessReviewBuilder()
                        .withNewSpec()
                        .withUser(user)
                        .withGroups(groups)
                        .withNewResourceAttributes()
                        .withVerb(verb)
                        .withGroup(group)
                        .withResource(parts[0])
                        .withSubresource(parts.length > 1 ? parts[1] : "")
                        .withNamespace(namespace)
                        .withName(name)
                        .endResourceAttributes()
                        .endSpec()
                        .build())
                .getStatus()
                .getAllowed();
    }

    @Test
    void theRealAuthorizerAllowsEveryCallTheCodeMade() {
        var refused = new ArrayList<String>();
        for (var entry : Map.of("hami-scheduler", schedulerCalls, "hami-device-plugin", pluginCalls)
                .entrySet()) {
            String user = "system:serviceaccount:" + SYSTEM + ":" + entry.getKey();
            for (ApiCall.Access a :
                    entry.getValue().accesses().stream().distinct().toList()) {
                if (!allowed(
                        user,
                        List.of("system:serviceaccounts", "system:serviceaccounts:" + SYSTEM, "system:authenticated"),
                        a)) {
                    refused.add(entry.getKey() + ": " + a);
                }
            }
        }
        assertThat(refused).isEmpty();
    }

    /**
     * The scheduler's ServiceAccount also holds kube-scheduler's built-in roles (both containers share it), which
     * allow most of what our extender does: a call missing from our own roles would go unnoticed above. So the real
     * authorizer is asked about every call our scheduler made for an account bound to our roles alone (the roles of
     * component {@code scheduler}: ClusterRole and Role {@code hami-scheduler}), as deploy's SchedulerRbacTest does
     * offline.
     */
    @Test
    void ourSchedulersOwnRolesAloneAllowEveryCallItMade() {
        String account = "own-roles-only";
        String user = "system:serviceaccount:" + NS + ":" + account;
        var cluster = new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName("e2e-rbac-" + account)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "hami-scheduler")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(account)
                .withNamespace(NS)
                .endSubject()
                .build();
        var lease = new RoleBindingBuilder()
                .withNewMetadata()
                .withName("e2e-rbac-" + account)
                .withNamespace(SYSTEM)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "hami-scheduler")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(account)
                .withNamespace(NS)
                .endSubject()
                .build();
        admin.resource(cluster).serverSideApply();
        admin.resource(lease).serverSideApply();
        try {
            // The authorizer learns of new bindings through its informers.
            await().atMost(Patience.seconds(30))
                    .until(() -> allowed(
                            user,
                            List.of("system:serviceaccounts", "system:authenticated"),
                            "get",
                            "coordination.k8s.io",
                            "leases",
                            SYSTEM,
                            "hami-kube-scheduler"));
            var refused = schedulerCalls.accesses().stream()
                    .distinct()
                    .filter(a -> !allowed(
                            user,
                            List.of("system:serviceaccounts", "system:serviceaccounts:" + NS, "system:authenticated"),
                            a))
                    .toList();
            assertThat(refused)
                    .as("calls of our scheduler that its own roles do not allow")
                    .isEmpty();
            assertThat(allowed(user, List.of("system:authenticated"), "create", "", "pods/binding", NS, POD))
                    .as("our roles bind through the pods/binding subresource")
                    .isTrue();
            assertThat(allowed(user, List.of("system:authenticated"), "create", "", "bindings", NS, POD))
                    .as("not through the deprecated bindings collection")
                    .isFalse();
            assertThat(allowed(user, List.of("system:authenticated"), "delete", "", "pods", NS, POD))
                    .as("kube-scheduler's preemption right is not in our roles")
                    .isFalse();
            assertThat(allowed("system:serviceaccount:" + SYSTEM + ":hami-scheduler", "delete", "", "pods", NS, POD))
                    .as("but the shared ServiceAccount holds it: our extender's process may delete pods")
                    .isTrue();
        } finally {
            admin.resource(cluster).delete();
            admin.resource(lease).delete();
        }
    }

    // ---- least privilege: every permission used ----

    @Test
    void everyPermissionOfOurSchedulersRolesIsUsed() {
        ClusterRole cluster =
                admin.rbac().clusterRoles().withName("hami-scheduler").get();
        Role lease = admin.rbac()
                .roles()
                .inNamespace(SYSTEM)
                .withName("hami-scheduler")
                .get();
        var accesses = schedulerCalls.accesses();
        assertThat(Stream.concat(
                                RoleUse.unused("ClusterRole hami-scheduler", "", cluster.getRules(), accesses).stream(),
                                RoleUse.unused("Role hami-system/hami-scheduler", SYSTEM, lease.getRules(), accesses)
                                        .stream())
                        .toList())
                .as("permissions no call of the scheduler used")
                .isEmpty();
    }

    @Test
    void everyPermissionOfThePluginsRoleIsUsed() {
        ClusterRole role =
                admin.rbac().clusterRoles().withName("hami-device-plugin").get();
        assertThat(RoleUse.unused("ClusterRole hami-device-plugin", "", role.getRules(), pluginCalls.accesses()))
                .as("permissions no call of the plugins used")
                .isEmpty();
    }

    // ---- outside the grants: 403 ----

    @Test
    void theSchedulersServiceAccountIsRefusedOutsideItsGrants() {
        try (RecordingClient recorded = new RecordingClient(schedulerIdentity)) {
            KubernetesClient sa = recorded.client();
            assertForbidden(() -> sa.nodes().withName(HCU_NODE).delete(), "delete a node");
            assertForbidden(() -> sa.secrets().inNamespace(SYSTEM).list(), "list secrets");
            assertForbidden(
                    () -> sa.configMaps()
                            .inNamespace("kube-system")
                            .withName("extension-apiserver-authentication")
                            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"e2e\":\"x\"}}"),
                    "patch kube-system's authentication ConfigMap (it may read it)");
            assertForbidden(
                    () -> sa.pods()
                            .inNamespace(NS)
                            .resource(Cluster.pod(NS, "intruder", Cluster.container("main"))
                                    .build())
                            .create(),
                    "create a pod");
            assertForbidden(
                    () -> sa.nodes()
                            .withName(GPU_NODE)
                            .status()
                            .patch(
                                    PatchContext.of(PatchType.JSON_MERGE),
                                    "{\"metadata\":{\"labels\":{\"e2e\":\"x\"}}}"),
                    "patch a node's status");
            assertThat(recorded.answered(403))
                    .as("the recorder that found no 403 in the flow sees these")
                    .hasSize(5);
        }
    }

    @Test
    void thePluginsServiceAccountIsRefusedOutsideItsGrants() {
        try (RecordingClient recorded = new RecordingClient(pluginIdentity)) {
            KubernetesClient sa = recorded.client();
            assertForbidden(() -> sa.secrets().inNamespace(SYSTEM).list(), "list secrets");
            assertForbidden(() -> sa.nodes().list(), "list nodes");
            assertForbidden(
                    () -> sa.nodes()
                            .withName(GPU_NODE)
                            .status()
                            .patch(
                                    PatchContext.of(PatchType.JSON_MERGE),
                                    "{\"metadata\":{\"labels\":{\"e2e\":\"x\"}}}"),
                    "patch a node's status");
            assertForbidden(
                    () -> sa.pods()
                            .inNamespace(NS)
                            .withName(POD)
                            .withGracePeriod(0)
                            .delete(),
                    "delete a pod");
            assertForbidden(
                    () -> sa.raw(
                            "/api/v1/namespaces/" + NS + "/pods/" + POD + "/binding",
                            "POST",
                            new BindingBuilder()
                                    .withNewMetadata()
                                    .withName(POD)
                                    .endMetadata()
                                    .withNewTarget()
                                    .withKind("Node")
                                    .withName(HCU_NODE)
                                    .endTarget()
                                    .build()),
                    "bind a pod");
            assertForbidden(
                    () -> sa.resources(Lease.class)
                            .inNamespace(SYSTEM)
                            .withName("hami-kube-scheduler")
                            .get(),
                    "read the Lease");
            assertThat(recorded.answered(403))
                    .as("the recorder that found no 403 in the flow sees these")
                    .hasSize(6);
        }
    }

    /**
     * A pod's spec is outside what the plugins may change, but RBAC cannot say so: the role grants {@code patch} on
     * pods (annotations), and it is kube-apiserver's validation (pod spec immutability), not RBAC, that refuses it,
     * with 422. Recorded here so that a change of that rule does not go unnoticed.
     */
    @Test
    void thePluginsServiceAccountCannotChangeAnotherPodsSpecButOnlyValidationSaysSo() {
        try (KubernetesClient sa = KubeControlPlane.client(pluginIdentity)) {
            var e = catchThrowableOfType(
                    KubernetesClientException.class,
                    () -> sa.pods()
                            .inNamespace(NS)
                            .withName(POD)
                            .patch(
                                    PatchContext.of(PatchType.JSON_MERGE),
                                    "{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"evil\"}]}}"));
            assertThat(e).as("patching the spec").isNotNull();
            assertThat(e.getCode()).as(e.getMessage()).isEqualTo(422);
            assertThat(pod().getSpec().getContainers().getFirst().getImage()).isEqualTo("registry.k8s.io/pause:3.10");
        }
    }

    private static void assertForbidden(Runnable call, String what) {
        var e = catchThrowableOfType(KubernetesClientException.class, call::run);
        assertThat(e).as(what + " must be refused").isNotNull();
        assertThat(e.getCode()).as(what + ": " + e.getMessage()).isEqualTo(403);
    }
}
