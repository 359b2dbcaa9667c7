package io.hami.lab.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.lab.kubelet.AllocationLog;
import io.hami.lab.kubelet.ContainerRuntime;
import io.hami.lab.kubelet.PodStatusWriter;
import io.hami.lab.kubelet.SimulatedKubelet;
import io.hami.lab.kubelet.SyntheticKubelet;
import io.hami.lab.kubescheduler.ExtenderActivity;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.node.MockLibraries;
import io.hami.lab.node.SyntheticNodes;
import io.hami.lab.scenario.DeviceGroup;
import io.hami.lab.scenario.NodeSpec;
import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.Vendor;
import io.hami.lab.usage.ContainerWorkloads;
import io.hami.lab.usage.NodeMonitors;
import io.hami.plugin.PluginStartException;
import io.hami.plugin.server.UnixSockets;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.Discovery;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a scenario's cluster runs: the API server (the embedded one, or kube-apiserver with kube-scheduler, the
 * webhook registered with it, see {@link KubernetesPlane}), the scheduler replicas, and per node either a kubelet
 * with real device plugins on mock hardware or a synthetic inventory. Components that are separate processes in a
 * real cluster get clients of their own. Started in dependency order, closed in reverse.
 */
public final class LabCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LabCluster.class);
    /** How long a kubelet's admission waits for a plugin that is away. */
    private static final Duration PLUGIN_GRACE = Duration.ofSeconds(30);

    private final Scenario scenario;
    private final Path workDir;
    private final DeviceBackends backends;
    private final Latencies latencies;
    private final ControlPlaneKind kind;
    private final Path controlPlaneDir;
    private final AllocationLog allocations = new AllocationLog();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final Map<String, PluginNode> pluginNodes = new LinkedHashMap<>();
    private EmbeddedApiServer server;
    private KubernetesPlane plane;
    private ExtenderActivity extenderActivity;
    private KubernetesClient client;
    private SchedulerReplicas schedulers;
    private ContainerWorkloads workloads;
    private final NodeMonitors monitors = new NodeMonitors();

    /**
     * @param controlPlaneDir where kube-apiserver, etcd and kube-scheduler keep their certificates, kubeconfigs and
     *                        logs ({@link ControlPlaneKind#KUBERNETES} only)
     */
    public LabCluster(
            Scenario scenario,
            Path workDir,
            DeviceBackends backends,
            Latencies latencies,
            ControlPlaneKind kind,
            Path controlPlaneDir) {
        this.scenario = scenario;
        this.workDir = workDir;
        this.backends = backends;
        this.latencies = latencies;
        this.kind = kind;
        this.controlPlaneDir = controlPlaneDir;
    }

    public void start() throws IOException, GeneralSecurityException, PluginStartException {
        // The scheduler serves the extender with the JDK's HTTP server, which leaves Nagle's algorithm on unless this
        // is set before its first use; a filter answer for hundreds of nodes then waits ~40 ms for a delayed ACK.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        if (kind == ControlPlaneKind.EMBEDDED) {
            server = EmbeddedApiServer.start();
            opened.add(server);
            client = newClient();
            // The scheduler gets the client configuration it has in production (fabric8's defaults).
            schedulers = new SchedulerReplicas(server::newClient, scenario.scheduler());
            opened.add(schedulers);
            schedulers.start();
        } else {
            plane = open(KubernetesPlane.start(controlPlaneDir));
            client = newClient();
            open(new NodeLifecycle(newClient())); // kube-controller-manager's part: new nodes lose the not-ready taint
            // As deployed: TLS with a certificate of the cluster's CA; kube-scheduler calls the extender, the API
            // server
            // the webhook. The scheduler's own observers time the calls the lab no longer makes.
            KubernetesPlane.Tls tls = plane.schedulerTls();
            extenderActivity = new ExtenderActivity(latencies);
            schedulers = new SchedulerReplicas(
                    () -> new KubernetesClientBuilder()
                            .withConfig(plane.adminConfig())
                            .build(),
                    scenario.scheduler(),
                    tls.cert(),
                    tls.key(),
                    extenderActivity,
                    extenderActivity);
            opened.add(schedulers);
            schedulers.start();
            URI extender = schedulers.endpoints().getFirst();
            plane.registerWebhook(client, extender);
            plane.startKubeScheduler(extender);
            opened.add(plane::stopKubeScheduler); // before the extender it calls stops
        }

        List<NodeSpec> nodes = scenario.nodeSpecs();
        List<NodeSpec> synthetic = nodes.stream().filter(NodeSpec::synthetic).toList();
        List<NodeSpec> withPlugins = nodes.stream().filter(n -> !n.synthetic()).toList();
        workloads = open(new ContainerWorkloads(MockLibraries.workloadTool(workDir.resolve("tools"))));
        var runtime = open(new ContainerRuntime(new PodStatusWriter(client), allocations, workloads));
        if (!synthetic.isEmpty()) {
            for (NodeSpec n : synthetic) {
                client.nodes().resource(SyntheticNodes.of(n, backends)).create();
            }
            KubernetesClient agentClient = newClient();
            open(new SyntheticKubelet(
                    agentClient,
                    synthetic.stream().map(NodeSpec::name).collect(Collectors.toSet()),
                    backends,
                    new NodeLockClient(agentClient, scenario.scheduler().lockTimeout(), Clock.systemUTC()),
                    runtime));
        }
        if (!withPlugins.isEmpty()) {
            UnixSockets sockets = open(new UnixSockets());
            KubernetesClient kubeletClient = newClient();
            KubernetesClient pluginClient = newClient();
            KubernetesClient monitorClient = newClient();
            open(monitors); // closed before its client
            for (NodeSpec n : withPlugins) {
                var kubelet = new SimulatedKubelet(
                        kubeletClient,
                        n.name(),
                        workDir.resolve(n.name()).resolve("device-plugins"),
                        sockets,
                        runtime,
                        allocations,
                        latencies,
                        PLUGIN_GRACE);
                var node = new PluginNode(n, pluginClient, kubelet, workDir, scenario.topologyScore());
                pluginNodes.put(n.name(), node);
                opened.add(node);
                node.start();
                if (n.devices(Vendor.NVIDIA).isPresent()) {
                    monitors.start(
                            n.name(),
                            node.hostPaths().vgpuDir(),
                            node.hardwareDir(Vendor.NVIDIA)
                                    .resolve(Vendor.NVIDIA.libraries().getFirst()),
                            monitorClient);
                }
            }
        }
    }

    /**
     * Waits until every node's devices are visible as the scheduler reads them (register annotation or capacity), the
     * leading scheduler's index holds every node, and no node still has the not-ready taint of a new node.
     *
     * @return the nodes still not ready when {@code timeout} ran out
     */
    public List<String> awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> missing;
        do {
            missing = new ArrayList<>();
            for (NodeSpec spec : scenario.nodeSpecs()) {
                Node node = client.nodes().withName(spec.name()).get();
                if (node == null
                        || !schedulers.knows(spec.name())
                        || !devicesVisible(spec, node)
                        || NodeLifecycle.tainted(node)) {
                    missing.add(spec.name());
                }
            }
            if (missing.isEmpty()) {
                return missing;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        return missing;
    }

    private boolean devicesVisible(NodeSpec spec, Node node) {
        for (DeviceGroup group : spec.group().devices()) {
            DeviceBackend backend = backends.byVendor(group.vendor().keyword()).orElseThrow();
            if (!(backend.discover(node) instanceof Discovery.Found found)
                    || found.devices().size() != group.count()) {
                return false;
            }
        }
        return true;
    }

    public KubernetesClient client() {
        return client;
    }

    /** The embedded API server; only with {@link ControlPlaneKind#EMBEDDED}. */
    public EmbeddedApiServer server() {
        if (server == null) {
            throw new IllegalStateException("the run uses --control-plane " + kind + ", not the embedded API server");
        }
        return server;
    }

    public ControlPlaneKind kind() {
        return kind;
    }

    /** The API server's URL. */
    public String url() {
        return server != null ? server.url() : plane.url();
    }

    /** Writes a kubeconfig of the cluster's administrator for kubectl and {@code hami inspect}. */
    public Path writeKubeconfig(Path file) {
        return server != null ? server.writeKubeconfig(file) : plane.writeKubeconfig(file);
    }

    /** Which control plane runs, for the report. */
    public String description() {
        return server != null ? ControlPlaneKind.EMBEDDED_DESCRIPTION : plane.description();
    }

    /** API writes the embedded API server failed on purpose (none with a real API server). */
    public int injectedApiErrors() {
        return server == null ? 0 : server.faults().injectedCount();
    }

    /** The extender's own record of kube-scheduler's calls; only with {@link ControlPlaneKind#KUBERNETES}. */
    public ExtenderActivity extenderActivity() {
        return extenderActivity;
    }

    public SchedulerReplicas schedulers() {
        return schedulers;
    }

    /** The workload processes of the containers with a usage profile. */
    public ContainerWorkloads workloads() {
        return workloads;
    }

    /** The node monitors of the nodes with NVIDIA devices. */
    public NodeMonitors monitors() {
        return monitors;
    }

    public AllocationLog allocations() {
        return allocations;
    }

    public PluginNode pluginNode(String name) {
        PluginNode node = pluginNodes.get(name);
        if (node == null) {
            throw new IllegalArgumentException(name + " is not a node with plugins");
        }
        return node;
    }

    public Set<String> pluginNodeNames() {
        return Set.copyOf(pluginNodes.keySet());
    }

    /** A client of its own for a component of the lab (kubelets, plugins, the kube-scheduler, the observer, the workload). */
    public KubernetesClient newClient() {
        Config base = server != null ? server.clientConfig() : plane.adminConfig();
        return open(new KubernetesClientBuilder().withConfig(base).build());
    }

    private <T extends AutoCloseable> T open(T resource) {
        opened.add(resource);
        return resource;
    }

    @Override
    public void close() {
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                LOG.warn("while stopping the lab: {}", e.toString());
            }
        }
        opened.clear();
    }
}
