package io.hami.scheduler.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.FilterResult;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The extender serves HTTPS from PEM files and picks up a rotated certificate without a restart. */
class TlsReloadTest {

    static X509Certificate selfSigned(KeyPair keys, String cn) throws Exception {
        var name = new X500Name("CN=" + cn);
        var now = Instant.now();
        var builder = new JcaX509v3CertificateBuilder(
                name,
                BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minusSeconds(60)),
                Date.from(now.plusSeconds(3600)),
                name,
                keys.getPublic());
        String alg = keys.getPrivate().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder(alg).build(keys.getPrivate())));
    }

    static void writePem(Path file, Object o) throws Exception {
        var out = new StringWriter();
        try (var w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        }
        Files.writeString(file, out.toString());
    }

    /** The subject of the certificate the server presents. */
    static String servedSubject(InetSocketAddress address) throws Exception {
        var trustAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {trustAll}, null);
        var conn = (HttpsURLConnection) new java.net.URI("https://127.0.0.1:" + address.getPort() + "/healthz")
                .toURL()
                .openConnection();
        conn.setSSLSocketFactory(ctx.getSocketFactory());
        conn.setHostnameVerifier((h, s) -> true);
        assertThat(conn.getResponseCode()).isEqualTo(200);
        String subject = ((X509Certificate) conn.getServerCertificates()[0])
                .getSubjectX500Principal()
                .getName();
        conn.disconnect();
        return subject;
    }

    @Test
    void servesTheCurrentPairAndReloadsItWhenTheFilesChange(@TempDir Path dir) throws Exception {
        var gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(256);
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        KeyPair first = gen.generateKeyPair();
        writePem(cert, selfSigned(first, "first"));
        writePem(key, new JcaPKCS8Generator(first.getPrivate(), null)); // "PRIVATE KEY", as cert-manager writes
        var routes = new SchedulerHttpServer.Routes(
                a -> FilterResult.error("x"),
                a -> List.of(),
                a -> BindingResult.OK,
                ex -> ex.sendResponseHeaders(404, -1),
                () -> true);
        try (var server = SchedulerHttpServer.start(new InetSocketAddress("127.0.0.1", 0), cert, key, routes)) {
            assertThat(servedSubject(server.address())).isEqualTo("CN=first");

            var rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(2048);
            KeyPair second = rsa.generateKeyPair();
            writePem(cert, selfSigned(second, "second"));
            writePem(key, second.getPrivate()); // "RSA PRIVATE KEY" (PKCS#1), as openssl genrsa writes
            var later = FileTime.from(Instant.now().plusSeconds(5));
            Files.setLastModifiedTime(cert, later);
            Files.setLastModifiedTime(key, later);
            assertThat(servedSubject(server.address())).isEqualTo("CN=second");

            // A broken rotation keeps serving the last good pair.
            Files.writeString(key, "not a key");
            Files.setLastModifiedTime(key, FileTime.from(Instant.now().plusSeconds(10)));
            assertThat(servedSubject(server.address())).isEqualTo("CN=second");
        }
    }

    @Test
    void aKeyFileWithoutAKeyIsAClearStartupError(@TempDir Path dir) throws Exception {
        var gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(256);
        KeyPair keys = gen.generateKeyPair();
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        writePem(cert, selfSigned(keys, "x"));
        Files.writeString(key, "");
        assertThatThrownBy(() -> new ReloadingKeyManager(cert, key))
                .hasMessageContaining("no PEM private key in " + key);
    }
}
