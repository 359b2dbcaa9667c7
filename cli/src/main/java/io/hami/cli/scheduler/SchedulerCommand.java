package io.hami.cli.scheduler;

import io.hami.cli.lifecycle.UntilStopped;
import io.hami.cli.options.DeviceConfigOption;
import io.hami.cli.options.GoDurationConverter;
import io.hami.cli.options.HostPortConverter;
import io.hami.cli.version.DistributionVersion;
import io.hami.kube.client.ApiRateLimit;
import io.hami.kube.client.KubeClients;
import io.hami.kube.http.RequestLimits;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.cluster.NodeSelector;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.gang.GangLockWait;
import io.hami.scheduler.leader.ElectionIdentity;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
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
            names = "--http-header-timeout",
            defaultValue = "10s",
            converter = GoDurationConverter.class,
            description = "Time from a request's first byte (TLS handshake included) to the end of its headers; past it"
                    + " the connection is closed. Also for the metrics endpoint. Default: ${DEFAULT-VALUE}.")
    Duration httpHeaderTimeout;

    @Option(
            names = "--http-body-timeout",
            defaultValue = "10s",
            converter = GoDurationConverter.class,
            description = "Time from the end of a request's headers to the last byte of its body; past it the"
                    + " connection is closed. Also for the metrics endpoint. Default: ${DEFAULT-VALUE}.")
    Duration httpBodyTimeout;

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
            names = "--gang-lock-wait",
            paramLabel = "DURATION",
            converter = GangLockWaitConverter.class,
            description = "How long the bind of a pod of a gang (label scheduling.x-k8s.io/pod-group or annotation"
                    + " scheduling.k8s.io/group-name) waits in line for a held node lock before answering contention;"
                    + " below 25s (kube-scheduler's extender httpTimeout is 30s), 0 = off. Default: 10s.")
    Duration gangLockWait;

    // Not an alias in names: picocli names an option by its longest name in its errors, so a bad --gang-lock-wait
    // would be reported as --node-lock-retry-timeout.
    @Option(
            names = "--node-lock-retry-timeout",
            paramLabel = "DURATION",
            converter = NodeLockRetryTimeoutConverter.class,
            description = "Upstream's name for --gang-lock-wait: the same setting, values and limits (upstream's"
                    + " default, 28s, is above them). Give one of the two.")
    Duration nodeLockRetryTimeout;

    /**
     * {@code --gang-lock-wait} or its upstream name, else {@link GangLockWait#DEFAULT}.
     *
     * @throws IllegalArgumentException when both are given
     */
    Duration gangLockWait() {
        if (gangLockWait != null && nodeLockRetryTimeout != null) {
            throw new IllegalArgumentException(
                    "--gang-lock-wait and --node-lock-retry-timeout are one setting (upstream's name): give one");
        }
        return gangLockWait != null
                ? gangLockWait
                : nodeLockRetryTimeout != null ? nodeLockRetryTimeout : GangLockWait.DEFAULT;
    }

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

    @Option(
            names = "--kube-qps",
            paramLabel = "QPS",
            defaultValue = "50",
            description = "Requests a second to the API server in the long run, as client-go's token bucket (watches"
                    + " are not counted); a request waits for its turn. Positive. Default: ${DEFAULT-VALUE}.")
    double kubeQps;

    @Option(
            names = "--kube-burst",
            paramLabel = "N",
            defaultValue = "100",
            description = "Requests to the API server that may go at once after a quiet spell (the size of the"
                    + " --kube-qps bucket). At least 1. Default: ${DEFAULT-VALUE}.")
    int kubeBurst;

    @Mixin
    DeviceConfigOption deviceConfig;

    @Mixin
    io.hami.cli.logging.LogFormatOption logFormat;

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

    @Option(
            names = "--requeue-on-release",
            arity = "1",
            defaultValue = "true",
            paramLabel = "true|false",
            description =
                    "When devices are released, the leader patches the pending pods our filter found unschedulable"
                            + " for that vendor (annotation hami.io/requeue-after-release), so kube-scheduler retries them"
                            + " instead of up to 5 minutes later. Default: ${DEFAULT-VALUE}.")
    boolean requeueOnRelease;

    /** A Go duration from 0 up to (not including) 25s; anything else is a usage error (exit 2) that says why. */
    static class GangLockWaitConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            boolean negative = value.startsWith("-");
            Duration wait = GoDurationConverter.parse(negative ? value.substring(1) : value);
            try {
                return GangLockWait.check(negative ? wait.negated() : wait);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(flagNamed(e.getMessage()));
            }
        }

        String flagNamed(String message) {
            return message;
        }
    }

    /** As {@link GangLockWaitConverter}, its reasons naming the flag given. */
    static final class NodeLockRetryTimeoutConverter extends GangLockWaitConverter {
        @Override
        String flagNamed(String message) {
            return message.replace("--gang-lock-wait", "--node-lock-retry-timeout");
        }
    }

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
        var rateLimit = new ApiRateLimit(kubeQps, kubeBurst);
        Duration gangWait = gangLockWait();
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
                new Settings.Http(httpBind, certFile, keyFile, new RequestLimits(httpHeaderTimeout, httpBodyTimeout)),
                new Settings.Scheduling(schedulerName, policy, lockTimeout, config, nodeSelector(), gangWait),
                new Settings.Replica(leader, Duration.ofSeconds(15), requeueOnRelease),
                new Settings.Metrics(metricsBind, DistributionVersion.get(), containerMetrics));
        try (var client = KubeClients.connect(kubeconfig, kubeTimeout, Optional.of(rateLimit));
                var app = SchedulerApp.start(client, settings, new PrometheusRegistry(), Clock.systemUTC())) {
            LOG.info(
                    "hami scheduler {} ready: extender on {}, metrics on {}, API requests limited by {}",
                    schedulerName,
                    app.address(),
                    app.metricsAddress(),
                    rateLimit);
            UntilStopped.await(app);
        }
        return 0;
    }
}
