package io.hami.kube.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * A kubeconfig's client certificate and key, read as kubectl reads them (Go's {@code tls.X509KeyPair}): the first
 * private key block of the PEM text, PKCS#1 RSA ({@code RSA PRIVATE KEY}), SEC1 EC ({@code EC PRIVATE KEY}, also
 * after an {@code EC PARAMETERS} block as {@code openssl ecparam -genkey} writes it) or PKCS#8 ({@code PRIVATE
 * KEY}). BouncyCastle parses them: fabric8 guesses the algorithm from the PEM header alone, so a PKCS#8 EC key (what
 * kubeadm and our control plane write) was read as RSA and failed with "Invalid DER: object is not integer".
 * Every failure is an {@link IllegalArgumentException} saying what is wrong with the text.
 */
final class ClientKeys {
    private static final byte[] PROBE = "hami-java client key check".getBytes(StandardCharsets.US_ASCII);

    private ClientKeys() {}

    /** The private key of {@code pem}. */
    static PrivateKey privateKey(String pem) {
        var converter = new JcaPEMKeyConverter();
        try (var parser = new PEMParser(new StringReader(pem))) {
            for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
                switch (block) {
                    case PEMKeyPair pair -> {
                        return supported(converter.getPrivateKey(pair.getPrivateKeyInfo()));
                    }
                    case PrivateKeyInfo info -> {
                        return supported(converter.getPrivateKey(info));
                    }
                    case PEMEncryptedKeyPair _, PKCS8EncryptedPrivateKeyInfo _ ->
                        throw new IllegalArgumentException(
                                "the private key is encrypted; kubectl and hami read only unencrypted keys");
                    default -> {
                        // EC PARAMETERS, a certificate or another block before the key: skipped, as Go does.
                    }
                }
            }
        } catch (PEMException e) {
            throw new IllegalArgumentException("not a readable private key: " + innermost(e), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("not readable PEM: " + innermost(e), e);
        }
        throw new IllegalArgumentException(
                "no private key in it (expected a PEM block -----BEGIN RSA PRIVATE KEY-----, "
                        + "-----BEGIN EC PRIVATE KEY----- or -----BEGIN PRIVATE KEY-----)");
    }

    private static PrivateKey supported(PrivateKey key) {
        if (!key.getAlgorithm().equals("RSA") && !key.getAlgorithm().equals("EC")) {
            throw new IllegalArgumentException(unsupported(key));
        }
        return key;
    }

    /** The certificates of {@code pem}, the client's own first. */
    static List<X509Certificate> certificates(String pem) {
        try {
            var certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("no certificate in it (expected -----BEGIN CERTIFICATE-----)");
            }
            return certificates.stream().map(X509Certificate.class::cast).toList();
        } catch (CertificateException e) {
            throw new IllegalArgumentException("not a readable PEM certificate: " + innermost(e), e);
        }
    }

    /**
     * Whether {@code key} belongs to {@code certificate}: a signature made with the key verifies with the
     * certificate's public key (kubectl refuses a mismatched pair with "private key does not match public key").
     */
    static boolean matches(PrivateKey key, X509Certificate certificate) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> throw new IllegalArgumentException(unsupported(key));
        };
        try {
            var signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(PROBE);
            byte[] signature = signer.sign();
            var verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(PROBE);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            // A key of one algorithm and a certificate of another (an RSA key, an EC certificate) lands here.
            return false;
        }
    }

    /** What fabric8 reads without guessing: PKCS#8 PEM, base64 as a kubeconfig's {@code client-key-data}. */
    static String pkcs8Data(PrivateKey key) {
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'})
                        .encodeToString(supported(key).getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    private static String unsupported(PrivateKey key) {
        return "a " + key.getAlgorithm() + " key; the Kubernetes client (fabric8) signs only with RSA and EC keys";
    }

    private static String innermost(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }
}
