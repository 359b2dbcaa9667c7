package io.hami.controlplane;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for one control plane: serving certificates for kube-apiserver and our
 * extender/webhook, client certificates whose CN and O are the user and groups kube-apiserver authenticates.
 */
public final class CertificateAuthority {
    private static final Duration VALIDITY = Duration.ofDays(7);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A certificate with its key, both PEM. */
    public record Issued(String certificatePem, String privateKeyPem) {
        /** Writes {@code <name>.crt} and {@code <name>.key} into {@code dir}; returns the certificate's path. */
        public Path writeTo(Path dir, String name) {
            try {
                Files.createDirectories(dir);
                Files.writeString(dir.resolve(name + ".key"), privateKeyPem);
                return Files.writeString(dir.resolve(name + ".crt"), certificatePem);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private final KeyPair keys;
    private final X500Name name;
    private final X509Certificate certificate;

    private CertificateAuthority(KeyPair keys, X500Name name, X509Certificate certificate) {
        this.keys = keys;
        this.name = name;
        this.certificate = certificate;
    }

    public static CertificateAuthority create(String commonName) {
        KeyPair keys = newKeyPair();
        var name = new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.CN, commonName)
                .build();
        var builder = builder(name, name, keys);
        try {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new CertificateAuthority(keys, name, sign(builder, keys));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String certificatePem() {
        return pem(certificate);
    }

    /** A server certificate for these DNS names and IP addresses. */
    public Issued serving(String commonName, List<String> hosts) {
        var names = new ArrayList<GeneralName>();
        for (String h : hosts) {
            names.add(
                    isIpLiteral(h)
                            ? new GeneralName(GeneralName.iPAddress, h)
                            : new GeneralName(GeneralName.dNSName, h));
        }
        return issue(
                commonName,
                List.of(),
                KeyPurposeId.id_kp_serverAuth,
                new GeneralNames(names.toArray(GeneralName[]::new)));
    }

    /** A client certificate: kube-apiserver reads the CN as the user name and each O as a group. */
    public Issued client(String user, List<String> groups) {
        return issue(user, groups, KeyPurposeId.id_kp_clientAuth, null);
    }

    private Issued issue(String commonName, List<String> organisations, KeyPurposeId purpose, GeneralNames sans) {
        KeyPair leaf = newKeyPair();
        var subject = new X500NameBuilder(BCStyle.INSTANCE);
        organisations.forEach(o -> subject.addRDN(BCStyle.O, o));
        subject.addRDN(BCStyle.CN, commonName);
        var builder = builder(name, subject.build(), leaf);
        try {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(
                    Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            if (sans != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, sans);
            }
            return new Issued(pem(sign(builder, keys)), pem(leaf.getPrivate()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A key pair for signing service-account tokens: the public key in place of a certificate. */
    public static Issued serviceAccountSigningKey() {
        KeyPair pair = newKeyPair();
        return new Issued(pem(pair.getPublic()), pem(pair.getPrivate()));
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(
                issuer,
                new BigInteger(64, RANDOM).abs().add(BigInteger.ONE),
                Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(VALIDITY)),
                subject,
                keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) {
        try {
            var signed = builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate()));
            return new JcaX509CertificateConverter().getCertificate(signed);
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a certificate: " + e.getMessage(), e);
        }
    }

    private static KeyPair newKeyPair() {
        try {
            var gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            return gen.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no EC P-256 key generator in this JDK", e);
        }
    }

    private static boolean isIpLiteral(String host) {
        if (!host.matches("[0-9.]+|[0-9a-fA-F:]+") || !host.contains(".") && !host.contains(":")) {
            return false;
        }
        try {
            InetAddress.ofLiteral(host);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String pem(PrivateKey key) {
        try {
            return pem(new JcaPKCS8Generator(key, null).generate());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
}
