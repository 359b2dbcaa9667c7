package io.hami.scheduler.http;

import java.io.IOException;
import java.io.Reader;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the certificate and key from two PEM files and re-reads them when either file changes, so a
 * rotated certificate (cert-manager, a Secret update) is used without a restart. A broken new pair is
 * logged and the previous one kept.
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadingKeyManager.class);
    private static final String ALIAS = "hami";

    private final Path certFile;
    private final Path keyFile;
    private volatile X509ExtendedKeyManager current;
    private volatile FileTime certTime;
    private volatile FileTime keyTime;

    /** @throws GeneralSecurityException or IOException when the initial pair cannot be loaded */
    public ReloadingKeyManager(Path certFile, Path keyFile) throws GeneralSecurityException, IOException {
        this.certFile = certFile;
        this.keyFile = keyFile;
        load();
    }

    private synchronized void load() throws GeneralSecurityException, IOException {
        FileTime ct = Files.getLastModifiedTime(certFile);
        FileTime kt = Files.getLastModifiedTime(keyFile);
        List<X509Certificate> chain = readChain(certFile);
        PrivateKey key = readKey(keyFile);
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(ALIAS, key, new char[0], chain.toArray(new X509Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, new char[0]);
        current = (X509ExtendedKeyManager) kmf.getKeyManagers()[0];
        certTime = ct;
        keyTime = kt;
    }

    private X509ExtendedKeyManager delegate() {
        try {
            if (!Files.getLastModifiedTime(certFile).equals(certTime)
                    || !Files.getLastModifiedTime(keyFile).equals(keyTime)) {
                load();
                LOG.info("reloaded TLS certificate {} and key {}", certFile, keyFile);
            }
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            LOG.warn(
                    "TLS certificate {} or key {} changed but cannot be loaded, keeping the previous pair: {}",
                    certFile,
                    keyFile,
                    e.toString());
        }
        return current;
    }

    static List<X509Certificate> readChain(Path file) throws GeneralSecurityException, IOException {
        var factory = CertificateFactory.getInstance("X.509");
        var chain = new ArrayList<X509Certificate>();
        try (var in = Files.newInputStream(file)) {
            for (var c : factory.generateCertificates(in)) {
                chain.add((X509Certificate) c);
            }
        }
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("no certificate in " + file);
        }
        return chain;
    }

    /** PKCS#8, PKCS#1 (RSA) and SEC1 (EC) PEM keys, as certificate tools write them. */
    static PrivateKey readKey(Path file) throws IOException, GeneralSecurityException {
        try (Reader r = Files.newBufferedReader(file);
                PEMParser parser = new PEMParser(r)) {
            Object o = parser.readObject();
            // Bouncy Castle reads every form; its PKCS#8 re-encoding names the EC curve where the JDK looks for it.
            var converter = new JcaPEMKeyConverter().setProvider(new BouncyCastleProvider());
            PrivateKey key = switch (o) {
                case PEMKeyPair pair -> converter.getPrivateKey(pair.getPrivateKeyInfo());
                case PrivateKeyInfo info -> converter.getPrivateKey(info);
                case null -> throw new GeneralSecurityException("no PEM private key in " + file);
                default ->
                    throw new GeneralSecurityException("unsupported key in " + file + ": "
                            + o.getClass().getSimpleName() + " (want an unencrypted PKCS#8, RSA or EC private key)");
            };
            String algorithm =
                    key.getAlgorithm().equals("ECDSA") ? "EC" : key.getAlgorithm(); // Bouncy Castle's name for EC
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(key.getEncoded()));
        }
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return delegate().getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return delegate().chooseClientAlias(keyType, issuers, socket);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return delegate().getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return delegate().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return delegate().chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return current.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return current.getPrivateKey(alias);
    }
}
