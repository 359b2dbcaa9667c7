package io.hami.e2e.support;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.ExtenderJson;
import io.hami.scheduler.extender.FilterResult;
import io.hami.scheduler.extender.HostPriority;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The extender's HTTPS endpoints called the way kube-scheduler calls them: the extender/v1 JSON shapes (Go field
 * names), over TLS verified against the cluster's CA. For tests that drive filter and bind themselves.
 */
public final class ExtenderClient {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final HttpClient http;
    private final String baseUrl;

    public ExtenderClient(String baseUrl, String caPem) {
        this.baseUrl = baseUrl;
        this.http = HttpClient.newBuilder()
                .sslContext(trusting(caPem))
                .connectTimeout(Patience.seconds(5))
                .build();
    }

    public static ExtenderClient of(HamiScheduler scheduler, String caPem) {
        return new ExtenderClient(scheduler.url(), caPem);
    }

    public FilterResult filter(Pod pod, List<String> nodeNames) {
        return read(post("/filter", JSON.asJson(new ExtenderArgs(pod, null, nodeNames))), FilterResult.class);
    }

    public List<HostPriority> prioritize(Pod pod, List<String> nodeNames) {
        return Arrays.asList(
                read(post("/prioritize", JSON.asJson(new ExtenderArgs(pod, null, nodeNames))), HostPriority[].class));
    }

    /** kube-scheduler's ExtenderBindingArgs for this pod; the answer's Error is empty when bound. */
    public BindingResult bind(Pod pod, String node) {
        var m = pod.getMetadata();
        return read(
                post("/bind", JSON.asJson(new BindingArgs(m.getName(), m.getNamespace(), m.getUid(), node))),
                BindingResult.class);
    }

    /** The raw answer body of a POST; fails on any status but 200. */
    public String post(String path, String body) {
        try {
            var r = http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + path))
                            .timeout(Patience.seconds(30))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("POST " + path + " answered " + r.statusCode() + ": " + r.body());
            }
            return r.body();
        } catch (IOException e) {
            throw new UncheckedIOException("POST " + baseUrl + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static <T> T read(String body, Class<T> type) {
        try {
            return ExtenderJson.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), type);
        } catch (ExtenderJson.BadBodyException e) {
            throw new IllegalStateException(
                    "unreadable " + type.getSimpleName() + ": " + e.getMessage() + ": " + body, e);
        }
    }

    /** TLS that trusts exactly this CA, with host name verification (the certificate names 127.0.0.1). */
    static SSLContext trusting(String caPem) {
        try {
            var ca = CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII)));
            var store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry("ca", ca);
            var tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            var ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a TLS context for the cluster CA", e);
        }
    }
}
