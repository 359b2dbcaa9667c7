package io.hami.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;

class CertificateAuthorityTest {
    private final CertificateAuthority ca = CertificateAuthority.create("test-ca");

    @Test
    void servingCertificatesNameTheirHostsAndIpsAndChainToTheCa() throws Exception {
        var issued = ca.serving("hami-scheduler", List.of("hami-scheduler", "127.0.0.1", "::1"));
        X509Certificate cert = parse(issued.certificatePem());
        cert.verify(parse(ca.certificatePem()).getPublicKey());
        assertThat(cert.getSubjectAlternativeNames().stream()
                        .map(san -> (Object) san.get(1))
                        .toList())
                .containsExactly("hami-scheduler", "127.0.0.1", "0:0:0:0:0:0:0:1");
        assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(issued.privateKeyPem()).startsWith("-----BEGIN PRIVATE KEY-----");
    }

    @Test
    void clientCertificatesCarryTheUserAsCnAndGroupsAsO() throws Exception {
        X509Certificate cert =
                parse(ca.client("system:kube-scheduler", List.of("g1", "g2")).certificatePem());
        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=system:kube-scheduler,O=g2,O=g1");
        assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
        assertThat(cert.getBasicConstraints()).isEqualTo(-1);
    }

    private static X509Certificate parse(String pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)));
    }
}
