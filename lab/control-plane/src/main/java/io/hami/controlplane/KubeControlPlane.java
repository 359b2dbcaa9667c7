package io.hami.controlplane;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * etcd and kube-apiserver of the pinned Kubernetes release on loopback ports, with generated certificates, service
 * account keys, RBAC and the admission plugins of a cluster; kube-scheduler on request. Everything lives under one
 * work folder (certificates, etcd's data, kubeconfigs, one log per process) and stops with {@link #close()}.
 */
public final class KubeControlPlane implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KubeControlPlane.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    /** What a cluster runs (kube-apiserver's defaults plus the ones a hardened cluster enables). */
    static final String ADMISSION_PLUGINS = String.join(
            ",",
            "NamespaceLifecycle",
            "LimitRanger",
            "ServiceAccount",
            "NodeRestriction",
            "Priority",
            "DefaultTolerationSeconds",
            "DefaultStorageClass",
            "RuntimeClass",
            "PodSecurity",
            "MutatingAdmissionWebhook",
            "ValidatingAdmissionPolicy",
            "ValidatingAdmissionWebhook",
            "ResourceQuota");

    private final ControlPlaneBinaries binaries;
    private final Path workDir;
    private final CertificateAuthority ca;
    private final String url;
    private final CertificateAuthority.Issued admin;
    private final ManagedProcess etcd;
    private final ManagedProcess apiserver;
    private final List<AutoCloseable> started = new CopyOnWriteArrayList<>();

    private KubeControlPlane(
            ControlPlaneBinaries binaries,
            Path workDir,
            CertificateAuthority ca,
            String url,
            CertificateAuthority.Issued admin,
            ManagedProcess etcd,
            ManagedProcess apiserver) {
        this.binaries = binaries;
        this.workDir = workDir;
        this.ca = ca;
        this.url = url;
        this.admin = admin;
        this.etcd = etcd;
        this.apiserver = apiserver;
    }

    /** Starts etcd and kube-apiserver with everything under {@code workDir}; returns once the API server is ready. */
    public static KubeControlPlane start(ControlPlaneBinaries binaries, Path workDir) {
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(workDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path pki = workDir.resolve("pki");
        var ca = CertificateAuthority.create("hami-java-test-ca");
        writeString(pki.resolve("ca.crt"), ca.certificatePem());
        ca.serving(
                        "kube-apiserver",
                        List.of(
                                "127.0.0.1",
                                "localhost",
                                "kubernetes",
                                "kubernetes.default",
                                "kubernetes.default.svc",
                                "kubernetes.default.svc.cluster.local",
                                "10.0.0.1"))
                .writeTo(pki, "apiserver");
        CertificateAuthority.serviceAccountSigningKey().writeTo(pki, "service-account");
        var admin = ca.client("hami-admin", List.of("system:masters"));

        int etcdClient = freePort();
        int etcdPeer = freePort();
        ManagedProcess etcd = ManagedProcess.start(
                "etcd",
                List.of(
                        binaries.etcd().toString(),
                        "--name",
                        "default",
                        "--data-dir",
                        workDir.resolve("etcd").toString(),
                        "--listen-client-urls",
                        "http://127.0.0.1:" + etcdClient,
                        "--advertise-client-urls",
                        "http://127.0.0.1:" + etcdClient,
                        "--listen-peer-urls",
                        "http://127.0.0.1:" + etcdPeer,
                        "--initial-advertise-peer-urls",
                        "http://127.0.0.1:" + etcdPeer,
                        "--initial-cluster",
                        "default=http://127.0.0.1:" + etcdPeer,
                        // Test data: an fsync per write would make the disk, not the code under test, the bottleneck.
                        "--unsafe-no-fsync",
                        "--log-level",
                        "warn"),
                workDir.resolve("logs/etcd.log"));
        ManagedProcess apiserver = null;
        try {
            int port = freePort();
            apiserver = ManagedProcess.start(
                    "kube-apiserver",
                    List.of(
                            binaries.kubeApiserver().toString(),
                            "--etcd-servers",
                            "http://127.0.0.1:" + etcdClient,
                            "--bind-address",
                            "127.0.0.1",
                            "--advertise-address",
                            "127.0.0.1",
                            "--secure-port",
                            String.valueOf(port),
                            "--tls-cert-file",
                            pki.resolve("apiserver.crt").toString(),
                            "--tls-private-key-file",
                            pki.resolve("apiserver.key").toString(),
                            "--client-ca-file",
                            pki.resolve("ca.crt").toString(),
                            "--service-account-issuer",
                            "https://kubernetes.default.svc.cluster.local",
                            "--service-account-key-file",
                            pki.resolve("service-account.crt").toString(),
                            "--service-account-signing-key-file",
                            pki.resolve("service-account.key").toString(),
                            "--service-cluster-ip-range",
                            "10.0.0.0/24",
                            // The kubernetes Service would point at a loopback address, which Endpoints refuse.
                            "--endpoint-reconciler-type",
                            "none",
                            "--authorization-mode",
                            "Node,RBAC",
                            "--enable-admission-plugins",
                            ADMISSION_PLUGINS,
                            "--allow-privileged=true",
                            "--profiling=false",
                            "--v=1"),
                    workDir.resolve("logs/kube-apiserver.log"));
            var plane =
                    new KubeControlPlane(binaries, workDir, ca, "https://127.0.0.1:" + port, admin, etcd, apiserver);
            plane.awaitReady();
            plane.writeKubeconfig(workDir.resolve("admin.kubeconfig"), plane.adminConfig());
            LOG.info(
                    "control plane ready at {} in {} ms (work folder {})",
                    plane.url,
                    (System.nanoTime() - t0) / 1_000_000,
                    workDir);
            return plane;
        } catch (RuntimeException e) {
            if (apiserver != null) {
                apiserver.close();
            }
            etcd.close();
            throw e;
        }
    }

    public String url() {
        return url;
    }

    public Path workDir() {
        return workDir;
    }

    public CertificateAuthority ca() {
        return ca;
    }

    public ControlPlaneBinaries binaries() {
        return binaries;
    }

    /** A kubeconfig of the cluster administrator ({@code system:masters}) for kubectl and other clients. */
    public Path adminKubeconfig() {
        return workDir.resolve("admin.kubeconfig");
    }

    /** The cluster administrator: client certificate in group {@code system:masters}. */
    public Config adminConfig() {
        return base().withClientCertData(b64(admin.certificatePem()))
                .withClientKeyData(b64(admin.privateKeyPem()))
                .withClientKeyAlgo("EC")
                .build();
    }

    /** A user authenticated by a client certificate of this CA; RBAC decides what it may do. */
    public Config userConfig(String user, List<String> groups) {
        var cert = ca.client(user, groups);
        return base().withClientCertData(b64(cert.certificatePem()))
                .withClientKeyData(b64(cert.privateKeyPem()))
                .withClientKeyAlgo("EC")
                .build();
    }

    /**
     * A ServiceAccount's own identity: a token the API server issues (TokenRequest) and authenticates like the
     * token mounted into the SA's pods. Creates the namespace and the account when missing.
     */
    public Config serviceAccountConfig(String namespace, String name) {
        try (KubernetesClient client = newClient()) {
            ensureNamespace(client, namespace);
            if (client.serviceAccounts().inNamespace(namespace).withName(name).get() == null) {
                client.serviceAccounts()
                        .inNamespace(namespace)
                        .resource(new ServiceAccountBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .build())
                        .create();
            }
            var token = client.serviceAccounts()
                    .inNamespace(namespace)
                    .withName(name)
                    .tokenRequest(new TokenRequestBuilder()
                            .withNewSpec()
                            .withExpirationSeconds(6L * 3600)
                            .endSpec()
                            .build())
                    .getStatus()
                    .getToken();
            return base().withOauthToken(token).withNamespace(namespace).build();
        }
    }

    public KubernetesClient newClient() {
        return new KubernetesClientBuilder().withConfig(adminConfig()).build();
    }

    public static KubernetesClient client(Config config) {
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /**
     * Creates the namespace and its {@code default} ServiceAccount (kube-controller-manager, which does that in a
     * cluster, is not part of this control plane; the ServiceAccount admission plugin rejects pods without it).
     */
    public void ensureNamespace(String namespace) {
        try (KubernetesClient client = newClient()) {
            ensureNamespace(client, namespace);
        }
    }

    private static void ensureNamespace(KubernetesClient client, String namespace) {
        if (client.namespaces().withName(namespace).get() == null) {
            try {
                client.namespaces()
                        .resource(new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(namespace)
                                .endMetadata()
                                .build())
                        .create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
        if (client.serviceAccounts().inNamespace(namespace).withName("default").get() == null) {
            try {
                client.serviceAccounts()
                        .inNamespace(namespace)
                        .resource(new ServiceAccountBuilder()
                                .withNewMetadata()
                                .withName("default")
                                .endMetadata()
                                .build())
                        .create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        }
    }

    /** Writes a kubeconfig with the CA, the server and this config's credentials (certificate or token). */
    public Path writeKubeconfig(Path file, Config config) {
        var user = new StringBuilder();
        if (config.getOauthToken() != null) {
            user.append("    token: ").append(config.getOauthToken()).append('\n');
        } else {
            user.append("    client-certificate-data: ")
                    .append(config.getClientCertData())
                    .append('\n');
            user.append("    client-key-data: ")
                    .append(config.getClientKeyData())
                    .append('\n');
        }
        String yaml = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: hami-test
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: user
                  user:
                %scontexts:
                - name: hami-test
                  context: {cluster: hami-test, user: user, namespace: %s}
                current-context: hami-test
                """.formatted(
                url, b64(ca.certificatePem()), user, config.getNamespace() == null ? "default" : config.getNamespace());
        writeString(file, yaml);
        return file;
    }

    /** Starts kube-scheduler with this configuration; it stops with the control plane or when closed. */
    public KubeSchedulerProcess startKubeScheduler(KubeSchedulerConfig config) {
        var process = KubeSchedulerProcess.start(this, config);
        started.add(process);
        return process;
    }

    /**
     * Kills etcd with SIGKILL, as a crash (no shutdown, no last write flushed by etcd itself): kube-apiserver keeps
     * running, answers {@code /readyz} with the etcd check failing and fails or holds every request that needs etcd
     * until {@link #startEtcd()}. The control plane is shared by the test classes of a JVM, so whoever kills it starts
     * it again.
     */
    public void killEtcd() {
        etcd.kill();
        LOG.info("control plane: etcd killed (SIGKILL)");
    }

    /** Whether etcd runs (false between {@link #killEtcd()} and {@link #startEtcd()}). */
    public boolean etcdRunning() {
        return etcd.isAlive();
    }

    /**
     * Starts etcd again after {@link #killEtcd()}: the same binary, ports and data folder (nothing is lost: a killed
     * process leaves its writes in the page cache even with {@code --unsafe-no-fsync}), its output appended to
     * {@code logs/etcd.log}. kube-apiserver reconnects by itself; this returns once its {@code /readyz} is ok again
     * (within 2 minutes, else it fails with the end of kube-apiserver's log).
     *
     * @return how long it took from starting etcd until {@code /readyz} answered ok
     */
    public Duration startEtcd() {
        long t0 = System.nanoTime();
        etcd.restart();
        awaitReady();
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("control plane: etcd started again, kube-apiserver ready after {} ms", took.toMillis());
        return took;
    }

    /** Whether kube-apiserver's {@code /readyz} answers ok now (every check passes, etcd's among them). */
    public boolean ready() {
        try (KubernetesClient client = newClient()) {
            String answer = client.raw(url + "/readyz");
            return "ok".equals(answer == null ? null : answer.strip());
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "";
        try (KubernetesClient client = newClient()) {
            while (System.nanoTime() < deadline) {
                etcd.checkAlive();
                apiserver.checkAlive();
                try {
                    // /readyz is 200 only when every post-start hook ran: bootstrap RBAC roles, priority classes.
                    String answer = client.raw(url + "/readyz");
                    if ("ok".equals(answer == null ? null : answer.strip())) {
                        return;
                    }
                    last = String.valueOf(answer);
                } catch (KubernetesClientException e) {
                    last = e.getMessage();
                }
                sleep(250);
            }
        }
        throw new IllegalStateException("control plane: kube-apiserver not ready after " + START_TIMEOUT.toSeconds()
                + " s (" + last + "); last lines of " + apiserver.log() + ":\n" + apiserver.tail(30));
    }

    private ConfigBuilder base() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withCaCertData(b64(ca.certificatePem()))
                .withNamespace("default")
                .withRequestRetryBackoffLimit(0)
                .withConnectionTimeout(10_000)
                .withRequestTimeout(30_000);
    }

    Path logDir() {
        return workDir.resolve("logs");
    }

    static int freePort() {
        try (var s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void writeString(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        var all = new ArrayList<>(started);
        java.util.Collections.reverse(all);
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("stopping {}: {}", c, e.toString());
            }
        }
        apiserver.close();
        etcd.close();
        LOG.info("control plane stopped; logs in {}", logDir());
    }
}
