package io.hami.cli.scheduler;

import io.hami.cli.Main;
import io.hami.cli.lifecycle.UntilStopped;
import io.hami.cli.options.DeviceConfigOption;
import io.hami.cli.options.GoDurationConverter;
import io.hami.cli.options.HostPortConverter;
import io.hami.kube.client.KubeClients;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.cluster.NodeSelector;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.ElectionIdentity;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code hami scheduler}: the extender, webhook, usage index, node lock and handshake loop. */
@Command(
        name = "scheduler",
        mixinStandardHelpOptions = true,
        description =
                "Run the scheduler extender and webhook against a cluster (kube-scheduler calls it over HTTP(S)).")
public final class SchedulerCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerCommand.class);

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "Kubeconfig file. Default: in-cluster, then ~/.kube/config.")
    Path kubeconfig;

    @Option(
            names = "--http-bind",
            defaultValue = "127.0.0.1:8080",
            converter = HostPortConverter.class,
            description = "Address of the extender and webhook endpoints. Default: ${DEFAULT-VALUE}.")
    InetSocketAddress httpBind;

    @Option(
            names = "--cert-file",
            paramLabel = "PEM",
            description = "TLS certificate; with --key-file, serve HTTPS. Re-read when it changes.")
    Path certFile;

    @Option(
            names = "--key-file",
            paramLabel = "PEM",
            description = "TLS private key (PKCS#8, RSA or EC). Re-read when it changes.")
    Path keyFile;

    @Option(
            names = "--scheduler-name",
            defaultValue = "hami-scheduler",
            description =
                    "schedulerName the webhook sets on pods that request managed devices. Default: ${DEFAULT-VALUE}.")
    String schedulerName;

    @Option(
            names = "--node-scheduler-policy",
            defaultValue = "binpack",
            description = "binpack or spread across nodes. Default: ${DEFAULT-VALUE}.")
    String nodePolicy;

    @Option(
            names = "--gpu-scheduler-policy",
            defaultValue = "spread",
            description = "Device policy: binpack, spread, mutex, numa or a comma list. Default: ${DEFAULT-VALUE}.")
    String gpuPolicy;

    @Option(
            names = "--node-lock-timeout",
            defaultValue = "5m",
            converter = GoDurationConverter.class,
            description = "How long a pod may hold a node lock while still allocating. Default: ${DEFAULT-VALUE}.")
    Duration lockTimeout;

    @Option(
            names = "--node-label-selector",
            paramLabel = "K=V[,K=V...]",
            converter = NodeSelectorConverter.class,
            description = "Consider only nodes with all these labels: the others are not watched, handshaken or"
                    + " offered by /filter. Default: every node.")
    NodeSelector nodeSelector;

    /** The selector given, or every node (picocli leaves the field unset when the flag is absent). */
    NodeSelector nodeSelector() {
        return nodeSelector == null ? NodeSelector.ALL : nodeSelector;
    }

    @Option(
            names = "--kube-timeout",
            defaultValue = "10s",
            converter = GoDurationConverter.class,
            description =
                    "Timeout of each request to the API server (positive; upstream's 0, no timeout, is not"
                            + " taken: a bind must answer within kube-scheduler's extender timeout). Default: ${DEFAULT-VALUE}.")
    Duration kubeTimeout;

    @Mixin
    DeviceConfigOption deviceConfig;

    @Option(
            names = "--leader-elect",
            description = "Elect a leader on a Lease; only the leader filters, binds and runs the handshake."
                    + " Identity: env POD_NAME, else <hostname>_<random> (logged).")
    boolean leaderElect;

    @Option(
            names = "--leader-elect-resource-name",
            defaultValue = "hami-scheduler",
            description = "Lease name. Default: ${DEFAULT-VALUE}.")
    String leaseName;

    @Option(
            names = "--leader-elect-resource-namespace",
            description = "Lease namespace. Default: env POD_NAMESPACE, else kube-system.")
    String leaseNamespace;

    @Option(
            names = "--leader-follow",
            paramLabel = "LEASE",
            description =
                    "Instead of --leader-elect: lead exactly while the kube-scheduler in this pod (identity <pod name>_...)"
                            + " holds Lease LEASE, in the namespace above. Lets several replicas run.")
    String followLease;

    @Option(
            names = "--metrics-bind-address",
            defaultValue = ":9395",
            converter = HostPortConverter.class,
            description = "Address of the Prometheus /metrics endpoint. Default: ${DEFAULT-VALUE}.")
    InetSocketAddress metricsBind;

    @Option(
            names = "--container-metrics",
            description = "Also serve upstream's per-container gauges (hami_vgpu_*): two series per"
                    + " container and device, growing with the pods. Default: off.")
    boolean containerMetrics;

    /** {@code k=v,k2=v2}; a malformed one is a usage error (exit 2) with the reason. */
    static final class NodeSelectorConverter implements CommandLine.ITypeConverter<NodeSelector> {
        @Override
        public NodeSelector convert(String value) {
            try {
                return NodeSelector.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("--cert-file and --key-file go together");
        }
        if (kubeTimeout.isZero()) {
            throw new IllegalArgumentException("--kube-timeout must be positive (no timeout is not supported): a bind"
                    + " must answer within kube-scheduler's extender timeout");
        }
        var policy = new SchedulingPolicy(nodePolicy, gpuPolicy);
        var config = deviceConfig.load();
        if (leaderElect && followLease != null) {
            throw new IllegalArgumentException(
                    "--leader-elect and --leader-follow exclude each other: campaign, or follow kube-scheduler");
        }
        String namespace =
                leaseNamespace != null ? leaseNamespace : System.getenv().getOrDefault("POD_NAMESPACE", "kube-system");
        String podName = System.getenv("POD_NAME");
        String hostname = InetAddress.getLocalHost().getHostName();
        LeaderMode leader;
        if (leaderElect) {
            String identity = ElectionIdentity.of(podName, hostname);
            if (ElectionIdentity.generated(podName)) {
                LOG.warn(
                        "POD_NAME is not set: campaigning for lease {}/{} as {}, an identity unique to this process",
                        namespace,
                        leaseName,
                        identity);
            }
            leader = new LeaderMode.Elect(namespace, leaseName, identity);
        } else {
            // kube-scheduler's identity starts with its hostname, which is the pod's name
            leader = followLease != null
                    ? new LeaderMode.Follow(
                            namespace, followLease, podName != null && !podName.isBlank() ? podName : hostname)
                    : new LeaderMode.Always();
        }
        var settings = new SchedulerApp.Settings(
                new Settings.Http(httpBind, certFile, keyFile),
                new Settings.Scheduling(schedulerName, policy, lockTimeout, config, nodeSelector()),
                new Settings.Replica(leader, Duration.ofSeconds(15)),
                new Settings.Metrics(metricsBind, Main.version(), containerMetrics));
        try (var client = KubeClients.connect(kubeconfig, kubeTimeout);
                var app = SchedulerApp.start(client, settings, new PrometheusRegistry(), Clock.systemUTC())) {
            LOG.info(
                    "hami scheduler {} ready: extender on {}, metrics on {}",
                    schedulerName,
                    app.address(),
                    app.metricsAddress());
            UntilStopped.await(app);
        }
        return 0;
    }
}
