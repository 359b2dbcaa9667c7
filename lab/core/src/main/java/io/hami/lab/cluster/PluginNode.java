package io.hami.lab.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.kubelet.SimulatedKubelet;
import io.hami.lab.node.NodeHardware;
import io.hami.lab.scenario.DeviceGroup;
import io.hami.lab.scenario.NodeSpec;
import io.hami.lab.scenario.Vendor;
import io.hami.plugin.PluginApp;
import io.hami.plugin.PluginStartException;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.protocol.config.DeviceConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/**
 * A node with mock hardware: its kubelet, and per vendor its device folder and a real device plugin loading its own
 * copy of the mock library. Faults act on these parts.
 */
public final class PluginNode implements AutoCloseable {
    /** Shorter than production, so that a run sees health changes and registrations within seconds. */
    static final Timings TIMINGS = new Timings(
            Duration.ofSeconds(2),
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            Duration.ofMillis(200),
            Duration.ofMillis(500));

    private final NodeSpec spec;
    private final KubernetesClient pluginClient;
    private final SimulatedKubelet kubelet;
    private final Path root;
    private final boolean topologyScore;
    private final Map<Vendor, NodeHardware> hardware = new EnumMap<>(Vendor.class);
    private final Map<Vendor, PluginApp> plugins = new EnumMap<>(Vendor.class);

    /**
     * @param topologyScore the NVIDIA plugin publishes its GPU pair scores ({@code ENABLE_TOPOLOGY_SCORE=true})
     */
    PluginNode(
            NodeSpec spec, KubernetesClient pluginClient, SimulatedKubelet kubelet, Path root, boolean topologyScore) {
        this.spec = spec;
        this.topologyScore = topologyScore;
        this.pluginClient = pluginClient;
        this.kubelet = kubelet;
        this.root = root;
    }

    /** The kubelet first (plugins register with it), then one plugin per vendor. */
    synchronized void start() throws IOException, PluginStartException {
        kubelet.start();
        for (DeviceGroup group : spec.group().devices()) {
            hardware.put(group.vendor(), NodeHardware.create(root, spec, group));
            startPlugin(group.vendor());
        }
    }

    private void startPlugin(Vendor vendor) throws PluginStartException {
        DeviceGroup group = spec.devices(vendor).orElseThrow();
        var settings = new PluginApp.Settings(
                vendor.yamlName(),
                spec.name(),
                null,
                kubelet.pluginDir(),
                hardware.get(vendor).dir(),
                DeviceConfig.DEFAULTS,
                new Sharing(OptionalInt.of(group.split()), OptionalDouble.empty(), OptionalDouble.empty()),
                hostPaths(),
                TIMINGS,
                topologyScore && vendor == Vendor.NVIDIA);
        plugins.put(vendor, PluginApp.start(pluginClient, settings, Clock.systemUTC()));
    }

    /** Where this node's plugins find and create things on its host (HAMi-core's hook folder among them). */
    public HostPaths hostPaths() {
        return HostPaths.under(root.resolve(spec.name()).resolve("host"));
    }

    /** The folder of the node's copy of {@code vendor}'s mock library (with its {@code devices.json}). */
    public Path hardwareDir(Vendor vendor) {
        return hardware.get(vendor).dir();
    }

    /** Stops the plugin (its sockets go away) and starts it again; null restarts every vendor's. */
    public synchronized void restartPlugin(Vendor vendor) throws PluginStartException {
        for (Vendor v : vendor == null ? plugins.keySet().toArray(Vendor[]::new) : new Vendor[] {vendor}) {
            plugins.remove(v).close();
            startPlugin(v);
        }
    }

    public void restartKubelet(Duration down) throws IOException, InterruptedException {
        kubelet.restart(down);
    }

    /** See {@link SimulatedKubelet#rejectNextDecided()}. */
    public CompletableFuture<Pod> rejectNextDecidedPod() {
        return kubelet.rejectNextDecided();
    }

    public void setHealthy(Vendor vendor, int device, boolean healthy) throws IOException {
        hardware.get(vendor).setHealthy(device, healthy);
    }

    @Override
    public synchronized void close() throws InterruptedException {
        plugins.values().forEach(PluginApp::close);
        plugins.clear();
        kubelet.close();
    }
}
