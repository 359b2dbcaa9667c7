package io.hami.kube.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.CertUtils;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;
import java.util.stream.Stream;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubeconfigs as kubectl reads them, with keys and certificates made here in every PEM form kubectl accepts. "fabric8
 * reads it" is what fabric8 itself does when the client connects: {@link CertUtils#createKeyStore} on the config.
 */
class KubeconfigCredentialsTest {
    /** prime256v1, as {@code openssl ecparam -genkey -name prime256v1} writes it before the key. */
    private static final String EC_PARAMETERS =
            "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n";

    @TempDir
    Path dir;

    enum Form {
        /** {@code RSA PRIVATE KEY} or {@code EC PRIVATE KEY}: OpenSSL's traditional forms. */
        PKCS1_OR_SEC1,
        /** {@code PRIVATE KEY}: what kubeadm, cert-manager and our control plane write. */
        PKCS8,
        /** SEC1 after an {@code EC PARAMETERS} block. */
        SEC1_AFTER_PARAMETERS
    }

    static Stream<Arguments> keys() {
        return Stream.of(
                Arguments.of("RSA", Form.PKCS1_OR_SEC1, "-----BEGIN RSA PRIVATE KEY-----"),
                Arguments.of("RSA", Form.PKCS8, "-----BEGIN PRIVATE KEY-----"),
                Arguments.of("EC", Form.PKCS1_OR_SEC1, "-----BEGIN EC PRIVATE KEY-----"),
                Arguments.of("EC", Form.PKCS8, "-----BEGIN PRIVATE KEY-----"),
                Arguments.of("EC", Form.SEC1_AFTER_PARAMETERS, "-----BEGIN EC PARAMETERS-----"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("keys")
    void everyKeyFormKubectlReadsIsReadAndHandedToFabric8(String algorithm, Form form, String header) throws Exception {
        KeyPair pair = keyPair(algorithm);
        String keyPem = keyPem(pair.getPrivate(), form);
        assertThat(keyPem).startsWith(header);

        Config config = KubeconfigCredentials.load(kubeconfig("client-key-data: " + b64(keyPem), certData(pair)));

        assertThat(config.getClientKeyAlgo()).isEqualTo(algorithm);
        assertThat(secret(fabric8Key(config))).isEqualTo(secret(pair.getPrivate()));
    }

    @Test
    void aKeyFileBesideTheKubeconfigIsReadToo() throws Exception {
        KeyPair pair = keyPair("EC");
        Files.writeString(dir.resolve("client.key"), keyPem(pair.getPrivate(), Form.PKCS8));

        Config config = KubeconfigCredentials.load(kubeconfig("client-key: client.key", certData(pair)));

        assertThat(secret(fabric8Key(config))).isEqualTo(secret(pair.getPrivate()));
        assertThat(config.getClientKeyFile()).isNull();
    }

    @Test
    void fabric8AloneCannotReadAPkcs8EcKey() throws Exception {
        // The bug this class exists for: without it, the lab's own admin.kubeconfig could not be used.
        KeyPair pair = keyPair("EC");
        Path file = kubeconfig("client-key-data: " + b64(keyPem(pair.getPrivate(), Form.PKCS8)), certData(pair));

        assertThatThrownBy(() -> fabric8Key(Config.fromKubeconfig(null, file.toFile())))
                .hasMessageContaining("Invalid DER");
    }

    @Test
    void aKeyOfAnotherCertificateIsRefusedNamingBoth() throws Exception {
        KeyPair pair = keyPair("EC");
        Path file =
                kubeconfig("client-key-data: " + b64(keyPem(keyPair("EC").getPrivate(), Form.PKCS8)), certData(pair));

        assertThatThrownBy(() -> KubeconfigCredentials.load(file))
                .isInstanceOf(IOException.class)
                .hasMessage("kubeconfig " + file + ", user admin: client-key-data (EC) does not belong to "
                        + "client-certificate-data (CN=admin)");
    }

    @Test
    void brokenKeysSayWhatIsWrongWithWhichFieldOfWhichUser() throws Exception {
        KeyPair pair = keyPair("RSA");
        String prefix = "kubeconfig " + dir.resolve("kubeconfig") + ", user admin: ";

        assertThatThrownBy(() -> KubeconfigCredentials.load(kubeconfig("client-key-data: '%%%'", certData(pair))))
                .hasMessageStartingWith(prefix + "client-key-data: not base64");
        assertThatThrownBy(() ->
                        KubeconfigCredentials.load(kubeconfig("client-key-data: " + b64("hello"), certData(pair))))
                .hasMessage(prefix + "client-key-data: no private key in it (expected a PEM block -----BEGIN RSA "
                        + "PRIVATE KEY-----, -----BEGIN EC PRIVATE KEY----- or -----BEGIN PRIVATE KEY-----)");
        assertThatThrownBy(() -> KubeconfigCredentials.load(kubeconfig(
                        "client-key-data: " + b64("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
                        certData(pair))))
                .hasMessageStartingWith(prefix + "client-key-data: not a readable private key");
        assertThatThrownBy(() -> KubeconfigCredentials.load(kubeconfig("client-key: missing.key", certData(pair))))
                .hasMessage(prefix + "client-key " + dir.resolve("missing.key") + " does not exist or is not readable");
        assertThatThrownBy(() -> KubeconfigCredentials.load(kubeconfig(
                        "client-key-data: " + b64(keyPem(pair.getPrivate(), Form.PKCS8)),
                        "client-certificate-data: " + b64("not a certificate"))))
                .hasMessageStartingWith(prefix + "client-certificate-data: ");
        assertThatThrownBy(() -> KubeconfigCredentials.load(
                        kubeconfig("client-key-data: " + b64(keyPem(pair.getPrivate(), Form.PKCS8)), "")))
                .hasMessage(prefix + "has a client key but no certificate");
    }

    @Test
    void anEd25519KeyIsNamedAsWhatTheClientCannotUse() throws Exception {
        var ed = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Path file = kubeconfig("client-key-data: " + b64(keyPem(ed.getPrivate(), Form.PKCS8)), certData(ed));

        assertThatThrownBy(() -> KubeconfigCredentials.load(file))
                .hasMessageContaining("user admin: client-key-data: a EdDSA key; the Kubernetes client (fabric8) "
                        + "signs only with RSA and EC keys");
    }

    @Test
    void anExecPluginThatFailsIsNamedWithItsExitCodeAndLastErrorLine() throws Exception {
        Path file = kubeconfig("""
                exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: sh
                      args: ["-c", "echo starting >&2; echo 'token expired, run: login' >&2; exit 3"]
                      interactiveMode: Never""", "");

        assertThatThrownBy(() -> KubeconfigCredentials.load(file))
                .hasMessage(
                        "kubeconfig " + file + ", user admin: exec plugin sh gave no credentials: it exited with 3: "
                                + "token expired, run: login");
    }

    @Test
    void anExecPluginThatCannotRunIsNamedWithItsInstallHint() throws Exception {
        Path file = kubeconfig("""
                exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: ./no-such-plugin
                      installHint: install no-such-plugin first
                      interactiveMode: Never""", "");

        assertThatThrownBy(() -> KubeconfigCredentials.load(file))
                .hasMessageStartingWith("kubeconfig " + file + ", user admin: exec plugin ./no-such-plugin gave no "
                        + "credentials: cannot run it: ")
                .hasMessageContaining(dir.resolve("no-such-plugin").toString())
                .hasMessageEndingWith("(install no-such-plugin first)");
    }

    @Test
    void anExecPluginThatPrintsATokenIsUsed() throws Exception {
        Path file = kubeconfig("""
                exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: sh
                      args: ["-c", "echo '{\\"apiVersion\\":\\"client.authentication.k8s.io/v1\\",\\"kind\\":\\"ExecCredential\\",\\"status\\":{\\"token\\":\\"t0k\\"}}'"]
                      interactiveMode: Never""", "");

        assertThat(KubeconfigCredentials.load(file).getAutoOAuthToken()).isEqualTo("t0k");
    }

    @Test
    void aTokenFileIsReadForEachTokenAndAMissingOneIsNamed() throws Exception {
        Files.writeString(dir.resolve("token"), "first\n");
        Config config = KubeconfigCredentials.load(kubeconfig("tokenFile: token", ""));
        assertThat(config.getOauthTokenProvider().getToken()).isEqualTo("first");
        Files.writeString(dir.resolve("token"), "rotated\n");
        assertThat(config.getOauthTokenProvider().getToken()).isEqualTo("rotated");

        Path missing = kubeconfig("tokenFile: /nonexistent/token", "");
        assertThatThrownBy(() -> KubeconfigCredentials.load(missing))
                .hasMessage("kubeconfig " + missing
                        + ", user admin: tokenFile /nonexistent/token does not exist or is not readable");
    }

    @Test
    void aFileThatIsNoKubeconfigSaysWhereItBreaks() throws Exception {
        Path file = Files.writeString(dir.resolve("kubeconfig"), "apiVersion: v1\nclusters: [ {name: c\n");

        assertThatThrownBy(() -> KubeconfigCredentials.load(file))
                .hasMessageStartingWith("kubeconfig " + file + " is not a readable kubeconfig: ")
                .hasMessageContaining("line 3, column 1")
                .hasMessageNotContaining("^");
        assertThatThrownBy(() -> KubeconfigCredentials.load(dir.resolve("nothing")))
                .hasMessage("kubeconfig " + dir.resolve("nothing") + " does not exist or is not readable");
    }

    private Path kubeconfig(String keyLine, String certLine) throws IOException {
        String yaml = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}
                contexts:
                - name: x
                  context: {cluster: c, user: admin}
                current-context: x
                users:
                - name: admin
                  user:
                    %s
                    %s
                """.formatted(keyLine, certLine);
        return Files.writeString(dir.resolve("kubeconfig"), yaml);
    }

    private static PrivateKey fabric8Key(Config config) throws Exception {
        KeyStore store = CertUtils.createKeyStore(
                config.getClientCertData(),
                config.getClientCertFile(),
                config.getClientKeyData(),
                config.getClientKeyFile(),
                config.getClientKeyAlgo(),
                "changeit",
                null,
                "changeit");
        String alias = store.aliases().nextElement();
        return (PrivateKey) store.getKey(alias, "changeit".toCharArray());
    }

    /** The secret of a key, whatever else its encoding holds (SEC1 may carry the public point, PKCS#8 not). */
    private static BigInteger secret(PrivateKey key) {
        return switch (key) {
            case ECPrivateKey ec -> ec.getS();
            case RSAPrivateKey rsa -> rsa.getPrivateExponent();
            default -> throw new AssertionError(key.getAlgorithm());
        };
    }

    static KeyPair keyPair(String algorithm) throws GeneralSecurityException {
        var generator = KeyPairGenerator.getInstance(algorithm);
        if (algorithm.equals("EC")) {
            generator.initialize(new ECGenParameterSpec("secp256r1"));
        } else {
            generator.initialize(2048);
        }
        return generator.generateKeyPair();
    }

    static String keyPem(PrivateKey key, Form form) {
        return switch (form) {
            case PKCS1_OR_SEC1 -> traditional(key);
            case SEC1_AFTER_PARAMETERS -> EC_PARAMETERS + traditional(key);
            case PKCS8 ->
                "-----BEGIN PRIVATE KEY-----\n"
                        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded())
                        + "\n-----END PRIVATE KEY-----\n";
        };
    }

    /**
     * OpenSSL's traditional form: PKCS#1 for RSA (what JcaPEMWriter writes), SEC1 with the curve for EC as {@code
     * openssl ecparam -genkey} writes it (the JDK's PKCS#8 leaves the curve out of the inner SEC1 structure, so
     * JcaPEMWriter's EC output is no key OpenSSL or Go would read alone).
     */
    private static String traditional(PrivateKey key) {
        if (!key.getAlgorithm().equals("EC")) {
            return pem(key);
        }
        try {
            var info = PrivateKeyInfo.getInstance(key.getEncoded());
            var inner = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
            var sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(
                    256,
                    inner.getKey(),
                    inner.getPublicKey(),
                    info.getPrivateKeyAlgorithm().getParameters());
            return pem(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String certData(KeyPair pair) throws Exception {
        var now = Instant.now();
        var name = new X500Name("CN=admin");
        String signature = switch (pair.getPrivate().getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> "Ed25519";
        };
        var holder = new JcaX509v3CertificateBuilder(
                        name,
                        BigInteger.ONE,
                        Date.from(now.minus(1, ChronoUnit.HOURS)),
                        Date.from(now.plus(1, ChronoUnit.DAYS)),
                        name,
                        pair.getPublic())
                .build(new JcaContentSignerBuilder(signature).build(pair.getPrivate()));
        return "client-certificate-data: " + b64(pem(new JcaX509CertificateConverter().getCertificate(holder)));
    }

    private static String pem(Object o) {
        var out = new StringWriter();
        try (var w = new JcaPEMWriter(out)) {
            w.writeObject(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.US_ASCII));
    }
}
