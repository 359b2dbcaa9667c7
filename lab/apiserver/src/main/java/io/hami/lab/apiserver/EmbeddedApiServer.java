package io.hami.lab.apiserver;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An in-process Kubernetes API server on 127.0.0.1 for tests and the lab: fabric8's CRUD mock dispatcher with the
 * gaps that matter to HAMi fixed (see {@link LabDispatcher} and the module README), served by {@link ApiHttpServer}. Plain HTTP, no authentication; the
 * store is in memory and starts empty.
 */
public final class EmbeddedApiServer implements AutoCloseable {

    private static final String NAME = "hami-lab";
    /**
     * fabric8's mock web server classes (the WebSocket side of watches) log through java.util.logging; only warnings
     * are kept. Held in a field because java.util.logging keeps loggers only weakly.
     */
    @SuppressWarnings("UnusedVariable") // held, never read: see above
    private static final java.util.logging.Logger MOCK_LOG = quiet("io.fabric8.mockwebserver");

    private static java.util.logging.Logger quiet(String name) {
        var logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }

    private final ApiHttpServer server;
    private final Faults faults;
    private final RequestCounts requests;

    private EmbeddedApiServer(ApiHttpServer server, Faults faults, RequestCounts requests) {
        this.server = server;
        this.faults = faults;
        this.requests = requests;
    }

    /** Starts a server on an ephemeral port of 127.0.0.1. */
    public static EmbeddedApiServer start() {
        return start(0);
    }

    /** Starts a server on {@code port} of 127.0.0.1 (0: an ephemeral port). */
    public static EmbeddedApiServer start(int port) {
        Faults faults = new Faults();
        RequestCounts requests = new RequestCounts();
        ApiHttpServer server = ApiHttpServer.start(loopback(), port, new LabDispatcher(faults, requests));
        return new EmbeddedApiServer(server, faults, requests);
    }

    /** {@code http://127.0.0.1:PORT} */
    public String url() {
        return "http://127.0.0.1:" + server.port();
    }

    /** The port the server listens on. */
    public int port() {
        return server.port();
    }

    /**
     * A fresh client configuration for this server: namespace {@code default}, nothing read from the environment or
     * {@code ~/.kube}, fabric8's defaults otherwise (including its retries of 5xx answers, which hide injected 500s
     * unless {@code requestRetryBackoffLimit} is set to 0).
     */
    public Config clientConfig() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url())
                .withNamespace("default")
                .withHttp2Disable(true)
                .build();
    }

    /** A new fabric8 client for {@link #clientConfig()}; the caller closes it. */
    public KubernetesClient newClient() {
        return new KubernetesClientBuilder().withConfig(clientConfig()).build();
    }

    /** Writes a kubeconfig for this server (usable by kubectl and client-go/Python clients) and returns its path. */
    public Path writeKubeconfig(Path file) {
        String kubeconfig = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: %1$s
                    namespace: default
                current-context: %1$s
                users:
                - name: %1$s
                  user: {}
                """.formatted(NAME, url());
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return Files.writeString(file, kubeconfig);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }

    /** Fault injection for this server. */
    public Faults faults() {
        return faults;
    }

    /** The requests answered so far, by verb and resource. */
    public RequestCounts requests() {
        return requests;
    }

    /** Stops the server; open watches are closed. */
    @Override
    public void close() {
        server.close();
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new IllegalStateException("127.0.0.1 is always a valid address", e);
        }
    }
}
