package io.hami.controlplane;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/** A running kube-scheduler of the pinned release, configured by a {@link KubeSchedulerConfig}. */
public final class KubeSchedulerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static int count;

    private final ManagedProcess process;
    private final Path configFile;

    private KubeSchedulerProcess(ManagedProcess process, Path configFile) {
        this.process = process;
        this.configFile = configFile;
    }

    static KubeSchedulerProcess start(KubeControlPlane plane, KubeSchedulerConfig config) {
        int n;
        synchronized (KubeSchedulerProcess.class) {
            n = ++count;
        }
        Path dir = plane.workDir().resolve("kube-scheduler-" + n);
        var identity =
                config.identity() != null ? config.identity() : plane.userConfig("system:kube-scheduler", List.of());
        Path kubeconfig = plane.writeKubeconfig(dir.resolve("kubeconfig"), identity);
        Path configFile = dir.resolve("config.yaml");
        KubeControlPlane.writeString(configFile, config.render(kubeconfig));
        int port = KubeControlPlane.freePort();
        var command = new java.util.ArrayList<String>();
        if (config.hostname() != null) {
            // Its own UTS namespace: the host name in its Lease identity is this one, as a pod's is its name.
            command.addAll(
                    List.of("unshare", "--uts", "sh", "-c", "hostname \"$0\" && exec \"$@\"", config.hostname()));
        }
        command.addAll(List.of(
                plane.binaries().kubeScheduler().toString(),
                "--config",
                configFile.toString(),
                "--bind-address",
                "127.0.0.1",
                "--secure-port",
                String.valueOf(port),
                "--cert-dir",
                dir.resolve("serving").toString(),
                "--v=2"));
        var process =
                ManagedProcess.start("kube-scheduler", command, plane.logDir().resolve("kube-scheduler-" + n + ".log"));
        var scheduler = new KubeSchedulerProcess(process, configFile);
        try {
            scheduler.awaitHealthy(port);
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
        return scheduler;
    }

    public Path log() {
        return process.log();
    }

    public Path configFile() {
        return configFile;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, as a node failure or an OOM kill ends it: no Lease released, no request finished. */
    public void kill() {
        process.kill();
    }

    private void awaitHealthy(int port) {
        HttpClient http = HttpClient.newBuilder()
                .sslContext(trustAll())
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            process.checkAlive();
            try {
                var r = http.send(
                        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/healthz"))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
            } catch (java.io.IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            KubeControlPlane.sleep(200);
        }
        throw new IllegalStateException("control plane: kube-scheduler not healthy after " + START_TIMEOUT.toSeconds()
                + " s (" + last + "); last lines of " + process.log() + ":\n" + process.tail(30));
    }

    /** Its serving certificate is self-signed by kube-scheduler; this only asks a local process whether it is up. */
    private static SSLContext trustAll() {
        try {
            var ctx = SSLContext.getInstance("TLS");
            ctx.init(
                    null,
                    new TrustManager[] {
                        new X509TrustManager() {
                            @Override
                            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

                            @Override
                            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

                            @Override
                            public X509Certificate[] getAcceptedIssuers() {
                                return new X509Certificate[0];
                            }
                        }
                    },
                    null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.close();
    }
}
