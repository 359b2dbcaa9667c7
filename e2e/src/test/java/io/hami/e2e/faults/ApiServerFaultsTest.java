package io.hami.e2e.faults;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.grpc.StatusRuntimeException;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.ExtenderClient;
import io.hami.e2e.support.MockPlugin;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.kube.client.KubeClients;
import io.hami.kube.lock.HolderPod;
import io.hami.kube.lock.HolderState;
import io.hami.kube.lock.LockRules;
import io.hami.kube.lock.LockTimeouts;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.cluster.NodeInventory;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * Faults between our components and the real kube-apiserver: WireMock proxies every request of our scheduler and of
 * an NVIDIA plugin (each a fabric8 client with {@link KubeClients#bounded}'s retries, as its deployed ServiceAccount
 * with deploy/'s roles: a token, which passes the proxy as a header) and answers chosen ones itself: 409, 429 with
 * Retry-After, 500, a slow answer, a reset or empty connection, on the node lock, the decision patch, the binding
 * and the plugin's Allocate patch. A scenario fails only the first N matching requests, N being what one failing
 * call sends when fabric8 retries as bounded: had it retried more, the call would reach the API server and the bind
 * would not fail (with fabric8's default of 10 retries, every 429, 5xx and I/O case here binds at once). The
 * assertions read the API server directly: nothing overcommitted, nothing reserved, the scheduler's index equal to a
 * rebuild, the answer an error within kube-scheduler's patience, the failure in the log and in a metric.
 *
 * <p>Watches bypass the proxy (WireMock answers only once a response is complete, which a watch never is); every
 * other request goes through it.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 3, unit = TimeUnit.MINUTES)
class ApiServerFaultsTest {
    static final String NS = "e2e-faults";
    static final String NODE = "faults-0";
    static final String SCHEDULER_UA = "hami-e2e-faults-scheduler";
    static final String PLUGIN_UA = "hami-e2e-faults-plugin";
    /** Nobody serves it: kube-scheduler (if another class left one) must not take these pods. */
    static final String SCHEDULER_NAME = "e2e-faults-driver";

    static final int POD_MEM = 2000;
    /** kube-scheduler's extender httpTimeout in deploy/: a bind must answer before it. */
    static final Duration BIND_TIMEOUT = Duration.ofSeconds(30);
    /** One failing request at most: every try to its timeout, the backoff between. */
    static final Duration ONE_CALL = Duration.ofMillis((1L + KubeClients.RETRIES) * KubeClients.REQUEST_TIMEOUT_MS
            + (long) KubeClients.RETRIES * KubeClients.RETRY_BACKOFF_MS);
    /** What one failing call sends when the failure is one fabric8 retries (5xx, I/O error) and one it does not. */
    static final int RETRIED = 1 + KubeClients.RETRIES;

    static final int NOT_RETRIED = 1;
    /** An answer that involves no timeout: requests and a 250 ms backoff on loopback. */
    static final Duration FAST = Duration.ofSeconds(5);

    static KubeControlPlane plane;
    static KubernetesClient admin;

    @TempDir
    static Path dir;

    static WireMockServer proxy;
    static KubernetesClient schedulerClient;
    static KubernetesClient pluginClient;
    static SchedulerApp scheduler;
    static MockPlugin plugin;
    static ExtenderClient extender;
    static ListAppender<ILoggingEvent> logs;
    static final AtomicInteger pods = new AtomicInteger();
    /** Allocate calls the plugin answered with a grant. */
    static final AtomicInteger served = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        plane.ensureNamespace(NS);
        // Our components as the deployed ServiceAccounts with deploy/'s roles: tokens, which pass the proxy as a
        // header.
        for (String file : List.of("namespace.yaml", "scheduler/rbac.yaml", "device-plugins/rbac.yaml")) {
            DeployFiles.apply(admin, file, "hami-e2e-faults");
        }
        Config schedulerIdentity = plane.serviceAccountConfig("hami-system", "hami-scheduler");
        Config pluginIdentity = plane.serviceAccountConfig("hami-system", "hami-device-plugin");

        proxy = new WireMockServer(options()
                .dynamicPort()
                .bindAddress("127.0.0.1")
                .trustAllProxyTargets(true)
                .containerThreads(40)
                .asynchronousResponseEnabled(true));
        proxy.start();
        proxyEverything();

        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        logs = new ListAppender<>();
        logs.setContext(context);
        logs.start();
        Logger hami = context.getLogger("io.hami");
        hami.addAppender(logs);

        NodeLifecycle.createReady(
                admin,
                Cluster.node(NODE)
                        .editOrNewSpec()
                        .addToTaints(Cluster.e2eTaint("faults"))
                        .endSpec()
                        .editStatus()
                        .addToCapacity("nvidia.com/gpu", new Quantity("20"))
                        .addToAllocatable("nvidia.com/gpu", new Quantity("20"))
                        .endStatus()
                        .build());

        pluginClient = throughProxy(pluginIdentity, PLUGIN_UA);
        plugin = MockPlugin.start(pluginClient, "nvidia", NODE, DeviceConfig.DEFAULTS, dir.resolve("plugins"));
        await().atMost(Patience.seconds(30))
                .until(() -> annotations(admin.nodes().withName(NODE).get()).get(NvidiaKeys.REGISTER) != null);

        schedulerClient = throughProxy(schedulerIdentity, SCHEDULER_UA);
        Path cert = plane.ca()
                .serving("hami-scheduler", List.of("hami-scheduler", "127.0.0.1", "localhost"))
                .writeTo(dir, "tls");
        var settings = new SchedulerApp.Settings(
                new Settings.Http(new InetSocketAddress("127.0.0.1", 0), cert, dir.resolve("tls.key")),
                new Settings.Scheduling(
                        SCHEDULER_NAME,
                        new SchedulingPolicy("binpack", "spread"),
                        Duration.ofMinutes(5),
                        DeviceConfig.DEFAULTS),
                new Settings.Replica(new LeaderMode.Always(), Duration.ofSeconds(2)),
                new Settings.Metrics(new InetSocketAddress("127.0.0.1", 0), "e2e"));
        scheduler = SchedulerApp.start(schedulerClient, settings, new PrometheusRegistry(), Clock.systemUTC());
        extender = new ExtenderClient(
                "https://127.0.0.1:" + scheduler.address().getPort(), plane.ca().certificatePem());
        await().atMost(Patience.seconds(30))
                .until(() -> scheduler
                        .index()
                        .snapshot(NODE)
                        .map(s -> !s.view().devicesOf("NVIDIA").isEmpty())
                        .orElse(false));
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {scheduler, plugin, schedulerClient, pluginClient}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // keep closing the rest
            }
        }
        if (proxy != null) {
            proxy.stop();
        }
        if (logs != null) {
            ((LoggerContext) LoggerFactory.getILoggerFactory())
                    .getLogger("io.hami")
                    .detachAppender(logs);
        }
        if (admin != null) {
            ClusterOps.deletePods(admin, NS);
            ClusterOps.deleteNodes(admin, List.of(NODE));
        }
    }

    @BeforeEach
    void calm() {
        proxyEverything();
        logs.list.clear();
    }

    @AfterEach
    void invariants() throws Exception {
        proxyEverything();
        try {
            assertNothingOvercommittedOrReserved();
            assertIndexEqualsRebuild();
        } finally {
            // After a failed assertion: a pod left waiting for its Allocate would hold the node for the next test.
            for (Pod p : admin.pods().inNamespace(NS).list().getItems()) {
                if (ProtocolKeys.PHASE_ALLOCATING.equals(annotations(p).get(ProtocolKeys.BIND_PHASE))) {
                    admin.pods().inNamespace(NS).resource(p).withGracePeriod(0).delete();
                }
            }
        }
    }

    /** Where a fault is injected: the scheduler's or the plugin's requests of one step. */
    enum Step {
        LOCK,
        DECISION,
        BINDING,
        ALLOCATE_PATCH;

        MappingBuilder matching(String pod) {
            return switch (this) {
                // Taking the lock (and releasing it): a node patch carrying the lock key.
                case LOCK ->
                    patch(urlPathEqualTo("/api/v1/nodes/" + NODE))
                            .withHeader("User-Agent", equalTo(SCHEDULER_UA))
                            .withRequestBody(containing(ProtocolKeys.NODE_LOCK));
                // The decision: the scheduler's pod patch that carries the devices to allocate.
                case DECISION ->
                    patch(urlPathEqualTo("/api/v1/namespaces/" + NS + "/pods/" + pod))
                            .withHeader("User-Agent", equalTo(SCHEDULER_UA))
                            .withRequestBody(containing(NvidiaKeys.TO_ALLOCATE));
                // The binding: the pods/binding subresource or the namespaced bindings collection.
                case BINDING ->
                    post(urlPathMatching("/api/v1/namespaces/" + NS + "/(pods/" + pod + "/binding|bindings)"))
                            .withHeader("User-Agent", equalTo(SCHEDULER_UA));
                // Allocate: the plugin's patch of the pod (entries consumed, bind-phase).
                case ALLOCATE_PATCH ->
                    patch(urlPathEqualTo("/api/v1/namespaces/" + NS + "/pods/" + pod))
                            .withHeader("User-Agent", equalTo(PLUGIN_UA));
            };
        }
    }

    /** An answer in place of the API server's, and how many requests one failing call sends for it. */
    enum Failure {
        CONFLICT(NOT_RETRIED),
        TOO_MANY(RETRIED),
        SERVER_ERROR(RETRIED),
        RESET(RETRIED),
        EMPTY(RETRIED);

        final int perCall;

        Failure(int perCall) {
            this.perCall = perCall;
        }

        ResponseDefinitionBuilder answer() {
            return switch (this) {
                case CONFLICT ->
                    status(
                            409,
                            "Conflict",
                            "the object has been modified; please apply your changes to the latest version and try again");
                case TOO_MANY ->
                    status(429, "TooManyRequests", "too many requests, please try again later")
                            .withHeader("Retry-After", "1");
                case SERVER_ERROR -> status(500, "InternalError", "etcdserver: request timed out");
                case RESET -> aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER);
                case EMPTY -> aResponse().withFault(Fault.EMPTY_RESPONSE);
            };
        }

        private static ResponseDefinitionBuilder status(int code, String reason, String message) {
            return aResponse()
                    .withStatus(code)
                    .withHeader("Content-Type", "application/json")
                    .withBody("""
                    {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"%s","reason":"%s","code":%d}""".formatted(message, reason, code));
        }
    }

    static Stream<Arguments> bindFaults() {
        return Stream.of(Step.LOCK, Step.DECISION, Step.BINDING)
                .flatMap(step -> Stream.of(Failure.values())
                        .filter(f ->
                                !(step != Step.BINDING && f == Failure.EMPTY)) // an empty answer once, on the binding
                        .map(f -> Arguments.of(step, f)));
    }

    /**
     * One failing call on a bind step: the bind answers an error within the bound (or, for a lost compare-and-swap
     * of the lock or a decision on a pod changed since the informer's copy, our own retry takes it), the failure is logged and counted, nothing is left reserved; the bind
     * kube-scheduler retries then binds, and the plugin allocates the pod.
     */
    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("bindFaults")
    void aFailingBindStepIsAnErrorWithinTheBoundAndLeavesNothingReserved(Step step, Failure failure) throws Exception {
        Pod pod = createPod();
        String name = pod.getMetadata().getName();
        // As kube-scheduler's binds come: after the scheduler's pod informer has the pod, whose copy the bind decides
        // on.
        await().atMost(Patience.seconds(30)).until(() -> scheduler.watch().pod(NS, name) != null);
        String faultStub = failFirst(step.matching(name), failure.answer(), failure.perCall);
        double failedBefore = metric("hami_bind_duration_seconds_count", "result", "failed");
        double lockFailuresBefore = metric("hami_node_lock_failures_total", "node", NODE);

        long t0 = System.nanoTime();
        BindingResult first = extender.bind(pod, NODE);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);

        assertThat(served(faultStub))
                .as("the fault answered exactly the requests of one failing call")
                .isEqualTo(failure.perCall);
        // Answered at once, never a timeout waited out: no failure here is slow.
        assertThat(took)
                .as("bind answered without waiting for a timeout")
                .isLessThan(FAST)
                .isLessThan(BIND_TIMEOUT);
        if (step != Step.BINDING && failure == Failure.CONFLICT) {
            // A lost compare-and-swap is ours to retry: the lock client reads the node again and takes it; a decision
            // refused because the pod changed since the informer's copy is made again on a fresh read.
            assertThat(first.ok())
                    .as("bind after one lost compare-and-swap: %s", first.error())
                    .isTrue();
        } else {
            assertThat(first.ok()).as("bind with a failing %s step", step).isFalse();
            assertThat(first.error()).as("the answer names what failed").isNotBlank();
            assertNothingOvercommittedOrReserved();
            Pod after = admin.pods().inNamespace(NS).withName(name).get();
            assertThat(after.getSpec().getNodeName()).as("pod not bound").isNull();
            assertThat(annotations(after).get(ProtocolKeys.BIND_PHASE))
                    .as("no decision in flight")
                    .isNotEqualTo(ProtocolKeys.PHASE_ALLOCATING);
            assertThat(warnings()).as("the failure is logged").anyMatch(m -> m.contains(name));
            assertThat(metric("hami_bind_duration_seconds_count", "result", "failed"))
                    .as("failed binds counted")
                    .isGreaterThan(failedBefore);
            if (step == Step.LOCK) {
                assertThat(metric("hami_node_lock_failures_total", "node", NODE))
                        .as("lock failures counted")
                        .isGreaterThan(lockFailuresBefore);
            }
            // kube-scheduler retries the pod; the fault is spent.
            BindingResult retry =
                    extender.bind(admin.pods().inNamespace(NS).withName(name).get(), NODE);
            assertThat(retry.ok()).as("retried bind: %s", retry.error()).isTrue();
        }
        allocate(name);
    }

    /**
     * The decision patch answered after the client's timeout: the API server wrote it, the answer is lost. The bind
     * answers within the bound: either fabric8's one retry wrote it again and the bind went on, or the bind failed
     * and marked the decision it may have written failed.
     */
    @Test
    void aSlowDecisionPatchAnswersWithinTheBound() throws Exception {
        Pod pod = createPod();
        String name = pod.getMetadata().getName();
        var slow = aResponse().proxiedFrom(plane.url()).withFixedDelay(KubeClients.REQUEST_TIMEOUT_MS + 1_000);
        String faultStub = failFirst(Step.DECISION.matching(name), slow, 1);

        long t0 = System.nanoTime();
        BindingResult first = extender.bind(pod, NODE);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);

        assertThat(served(faultStub)).as("the slow answer was given").isEqualTo(1);
        assertThat(took)
                .as("bind answered within one failing call and kube-scheduler's timeout")
                .isLessThan(ONE_CALL.plusSeconds(2))
                .isLessThan(BIND_TIMEOUT);
        if (!first.ok()) {
            await("the decision the lost answer wrote is marked failed")
                    .atMost(Patience.seconds(30))
                    .until(() -> !ProtocolKeys.PHASE_ALLOCATING.equals(annotations(
                                    admin.pods().inNamespace(NS).withName(name).get())
                            .get(ProtocolKeys.BIND_PHASE)));
            assertThat(warnings()).as("the failure is logged").anyMatch(m -> m.contains(name));
            assertNothingOvercommittedOrReserved();
            BindingResult retry =
                    extender.bind(admin.pods().inNamespace(NS).withName(name).get(), NODE);
            assertThat(retry.ok()).as("retried bind: %s", retry.error()).isTrue();
        }
        allocate(name);
    }

    /**
     * The plugin's patch of the pod fails during Allocate: the kubelet gets an error (which it retries), the failure
     * is logged, no device is served twice, and the lock is released or recoverable; a retried Allocate serves the
     * pod if its decision still stands.
     */
    @ParameterizedTest(name = "{0} on the Allocate patch")
    @MethodSource("allocateFaults")
    void aFailingAllocatePatchIsAnErrorTheKubeletRetries(Failure failure) throws Exception {
        Pod pod = createPod();
        String name = pod.getMetadata().getName();
        BindingResult bound = extender.bind(pod, NODE);
        assertThat(bound.ok()).as("bind: %s", bound.error()).isTrue();
        String faultStub = failFirst(Step.ALLOCATE_PATCH.matching(name), failure.answer(), failure.perCall);

        String device = deviceOf(name);
        long t0 = System.nanoTime();
        boolean ok;
        try {
            plugin.allocate(device);
            served.incrementAndGet();
            ok = true;
        } catch (StatusRuntimeException e) {
            ok = false;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(served(faultStub)).as("the fault was answered").isPositive();
        assertThat(took).as("Allocate answered within the bound").isLessThan(ONE_CALL.multipliedBy(2));
        if (!ok) {
            assertThat(warnings()).as("the failed Allocate is logged").anyMatch(m -> m.contains("Allocate"));
            assertNothingOvercommittedOrReserved();
            Pod now = admin.pods().inNamespace(NS).withName(name).get();
            if (ProtocolKeys.PHASE_ALLOCATING.equals(annotations(now).get(ProtocolKeys.BIND_PHASE))) {
                allocate(name); // the kubelet retries Allocate
            } else {
                // The plugin failed the decision: the kubelet rejects the pod and its controller makes a new one.
                assertThat(annotations(now).get(ProtocolKeys.BIND_PHASE)).isEqualTo(ProtocolKeys.PHASE_FAILED);
                admin.pods().inNamespace(NS).withName(name).withGracePeriod(0).delete();
                await().atMost(Patience.seconds(30))
                        .until(() -> admin.pods().inNamespace(NS).withName(name).get() == null);
            }
        }
        awaitLockFree();
    }

    static Stream<Failure> allocateFaults() {
        return Stream.of(Failure.CONFLICT, Failure.TOO_MANY, Failure.SERVER_ERROR, Failure.RESET);
    }

    // ---- the proxy ----

    /** Every request goes to the API server unchanged. */
    static void proxyEverything() {
        proxy.resetAll();
        proxy.stubFor(any(anyUrl()).atPriority(100).willReturn(aResponse().proxiedFrom(plane.url())));
    }

    /**
     * Answers the first {@code n} requests that {@code request} matches with {@code answer}; later ones go to the API
     * server. Returns the scenario's name.
     */
    static String failFirst(MappingBuilder request, ResponseDefinitionBuilder answer, int n) {
        String scenario = "fault-" + UUID.randomUUID();
        String state = Scenario.STARTED;
        for (int i = 0; i < n; i++) {
            String next = i == n - 1 ? "recovered" : "failed-" + (i + 1);
            proxy.stubFor(request.atPriority(1)
                    .withId(UUID.randomUUID())
                    .inScenario(scenario)
                    .whenScenarioStateIs(state)
                    .willSetStateTo(next)
                    .willReturn(answer));
            state = next;
        }
        return scenario;
    }

    /** How many requests the fault stubs of {@code scenario} answered. */
    static long served(String scenario) {
        return proxy.getAllServeEvents().stream()
                .map(ServeEvent::getStubMapping)
                .filter(m -> m != null && scenario.equals(m.getScenarioName()))
                .count();
    }

    /** A client whose requests go through the proxy; its watches go straight to the API server. */
    static KubernetesClient throughProxy(Config identity, String userAgent) {
        Config config = KubeClients.bounded(new ConfigBuilder(identity)
                .withMasterUrl("http://127.0.0.1:" + proxy.port())
                .withUserAgent(userAgent)
                .build());
        URI apiServer = URI.create(plane.url());
        Interceptor watchesDirect = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                URI uri = request.uri();
                if (uri.getRawQuery() != null && uri.getRawQuery().contains("watch=true")) {
                    String scheme = uri.getScheme().startsWith("ws") ? "wss" : "https";
                    builder.uri(URI.create(
                            scheme + "://" + apiServer.getRawAuthority() + uri.getRawPath() + "?" + uri.getRawQuery()));
                }
            }
        };
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("e2e-watches-direct", watchesDirect))
                .build();
    }

    // ---- the cluster ----

    static Pod createPod() {
        String name = "faults-" + pods.incrementAndGet();
        Pod p = new PodBuilder(Cluster.pod(
                                NS,
                                name,
                                Cluster.container(
                                        "cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", String.valueOf(POD_MEM)))
                        .build())
                .editSpec()
                .withSchedulerName(SCHEDULER_NAME)
                .addToTolerations(Cluster.e2eToleration())
                .endSpec()
                .build();
        return admin.pods().inNamespace(NS).resource(p).create();
    }

    /** The kubelet device ID of the pod's granted GPU (the plugin advertises {@code <uuid>-<n>}). */
    static String deviceOf(String name) {
        String toAllocate =
                annotations(admin.pods().inNamespace(NS).withName(name).get()).get(NvidiaKeys.TO_ALLOCATE);
        assertThat(toAllocate).as("pod %s decision", name).isNotNull();
        return toAllocate.split(",")[0] + "-" + (pods.get() % 10);
    }

    /** The kubelet's Allocate for a bound pod: served, entry consumed, lock released. */
    static void allocate(String name) {
        plugin.allocate(deviceOf(name));
        served.incrementAndGet();
        await("pod " + name + " allocated")
                .atMost(Patience.seconds(30))
                .until(() -> ProtocolKeys.PHASE_SUCCESS.equals(
                        annotations(admin.pods().inNamespace(NS).withName(name).get())
                                .get(ProtocolKeys.BIND_PHASE)));
        awaitLockFree();
    }

    static void awaitLockFree() {
        await("the node lock released or recoverable")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(ApiServerFaultsTest::assertLockRecoverable);
    }

    /**
     * From the API server: per device memory within capacity and tasks within the split count, each device on this
     * node, as many pods served as Allocates that returned a grant; no unbound pod left allocating; the lock
     * released or recoverable (design D5, docs/design.md#d5).
     */
    static void assertNothingOvercommittedOrReserved() throws Exception {
        UsageIndex fresh = rebuild();
        for (DeviceUsage d : fresh.snapshot(NODE).orElseThrow().view().devicesOf("NVIDIA")) {
            assertThat(d.usedmem())
                    .as("memory on %s", d.device().id())
                    .isLessThanOrEqualTo(d.device().devmem());
            assertThat(d.used())
                    .as("tasks on %s", d.device().id())
                    .isLessThanOrEqualTo(d.device().count());
            assertThat(d.usedcores())
                    .as("cores on %s", d.device().id())
                    .isLessThanOrEqualTo(d.device().devcore());
        }
        var all = admin.pods().inNamespace(NS).list().getItems();
        for (Pod p : all) {
            String phase = annotations(p).get(ProtocolKeys.BIND_PHASE);
            if (p.getSpec().getNodeName() == null) {
                assertThat(phase)
                        .as(
                                "unbound %s keeps no decision in flight",
                                p.getMetadata().getName())
                        .isNotEqualTo(ProtocolKeys.PHASE_ALLOCATING);
            }
        }
        long success = all.stream()
                .filter(p -> ProtocolKeys.PHASE_SUCCESS.equals(annotations(p).get(ProtocolKeys.BIND_PHASE)))
                .count();
        assertThat(success).as("pods served = Allocates that returned a grant").isEqualTo(served.get());
        assertLockRecoverable();
    }

    /** Design D5: a lock left on the node is one a bind may take, or its holder is bound and waits for its Allocate. */
    static void assertLockRecoverable() throws Exception {
        String value = annotations(admin.nodes().withName(NODE).get()).get(ProtocolKeys.NODE_LOCK);
        if (value == null) {
            return;
        }
        var lock = NodeLockCodec.decode(value);
        Pod holder =
                admin.pods().inNamespace(lock.namespace()).withName(lock.name()).get();
        HolderState state = LockRules.holderState(NODE, lock, HolderPod.of(holder));
        var decision = LockRules.decide(
                lock, NS, "someone-else", state, Instant.now(), LockTimeouts.of(Duration.ofMinutes(5)));
        if (decision instanceof LockRules.Decision.Wait) {
            assertThat(holder.getSpec().getNodeName())
                    .as("lock %s held by a pod bound here, awaiting its Allocate", value)
                    .isEqualTo(NODE);
            assertThat(annotations(holder).get(ProtocolKeys.BIND_PHASE)).isEqualTo(ProtocolKeys.PHASE_ALLOCATING);
        }
    }

    /** The usage index of a scheduler started now: the node and every pod as the API server holds them. */
    static UsageIndex rebuild() {
        var backends = DeviceBackends.load(DeviceConfig.DEFAULTS);
        var index = new UsageIndex();
        new NodeInventory(index, backends).refresh(admin.nodes().withName(NODE).get());
        for (Pod p : admin.pods().inAnyNamespace().list().getItems()) {
            index.putPod(
                    p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(),
                    PodUsage.of(p, backends),
                    p.getMetadata().getResourceVersion());
        }
        return index;
    }

    static void assertIndexEqualsRebuild() {
        await("the scheduler's usage index equals a rebuild from the API server")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(devices(scheduler.index())).isEqualTo(devices(rebuild())));
    }

    static Map<String, List<DeviceUsage>> devices(UsageIndex index) {
        return index.snapshot(NODE).orElseThrow().view().devices();
    }

    static List<String> warnings() {
        synchronized (logs) {
            return logs.list.stream()
                    .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }

    /** One sample of the scheduler's {@code /metrics}, 0 when absent. */
    static double metric(String name, String label, String value) throws Exception {
        try (var http = HttpClient.newHttpClient()) {
            var address = scheduler.metricsAddress();
            var r = http.send(
                    java.net.http.HttpRequest.newBuilder(
                                    URI.create("http://127.0.0.1:" + address.getPort() + "/metrics"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*"
                            + Pattern.quote(label + "=\"" + value + "\"") + "[^}]*\\} (\\S+)$")
                    .matcher(r.body());
            return m.find() ? Double.parseDouble(m.group(1)) : 0;
        }
    }
}
