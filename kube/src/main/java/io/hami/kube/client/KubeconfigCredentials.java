package io.hami.kube.client;

import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.ExecConfig;
import io.fabric8.kubernetes.api.model.ExecEnvVar;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Loads a kubeconfig file as kubectl does, on top of fabric8's loader, and fails with the file, the user entry and
 * what is wrong instead of fabric8's "An error has occurred." at the first request. What fabric8 misses:
 *
 * <ul>
 *   <li>the client key: fabric8 reads a PKCS#8 key as RSA whatever it holds, so an EC key fails; {@link ClientKeys}
 *       reads every form, checks that it belongs to the certificate, and hands fabric8 PKCS#8 with its algorithm;
 *   <li>{@code exec}: fabric8 runs the plugin, but on failure logs a warning and goes on without credentials (every
 *       request then fails with 401/403); here a plugin that gave nothing is run once more to say why;
 *   <li>{@code tokenFile}: fabric8 ignores it; here the file is read, and re-read for each token like client-go.
 * </ul>
 */
final class KubeconfigCredentials {
    /** kubectl waits for an exec plugin without a limit; a diagnosis should not hang on an interactive one. */
    private static final long EXEC_WAIT_SECONDS = 30;

    private KubeconfigCredentials() {}

    static Config load(Path file) throws IOException {
        if (!Files.isReadable(file)) {
            throw new IOException("kubeconfig " + file + " does not exist or is not readable");
        }
        io.fabric8.kubernetes.api.model.Config model;
        Config config;
        try {
            // fabric8's own parser (internal package, public API): the same reading of the YAML that Config uses.
            model = KubeConfigUtils.parseConfig(file.toFile());
            config = Config.fromKubeconfig(null, file.toFile());
        } catch (RuntimeException e) {
            throw new IOException("kubeconfig " + file + " is not a readable kubeconfig: " + describe(e), e);
        }
        if (config.getCurrentContext() == null || config.getCurrentContext().getContext() == null) {
            throw new IOException("kubeconfig " + file + " has no current-context naming one of its contexts");
        }
        String user = config.getCurrentContext().getContext().getUser();
        String where = "kubeconfig " + file + ", user " + user;
        AuthInfo auth = model.getUsers() == null
                ? null
                : model.getUsers().stream()
                        .filter(u -> Objects.equals(u.getName(), user))
                        .map(NamedAuthInfo::getUser)
                        .filter(Objects::nonNull)
                        .findFirst()
                        .orElse(null);
        Path dir = file.toAbsolutePath().getParent();
        if (auth != null && auth.getExec() != null && !hasCredentials(config)) {
            throw new IOException(where + ": exec plugin " + auth.getExec().getCommand() + " gave no credentials: "
                    + whyExecFailed(auth.getExec(), dir));
        }
        if (auth != null && auth.getTokenFile() != null && !hasCredentials(config)) {
            Path tokenFile = dir.resolve(auth.getTokenFile());
            readToken(tokenFile, where);
            config.setOauthTokenProvider(() -> {
                try {
                    return readToken(tokenFile, where);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        clientKey(config, where);
        return config;
    }

    private static boolean hasCredentials(Config config) {
        return config.getOauthToken() != null
                || config.getAutoOAuthToken() != null
                || config.getClientCertData() != null
                || config.getClientCertFile() != null
                || config.getUsername() != null;
    }

    private static String readToken(Path tokenFile, String where) throws IOException {
        try {
            return Files.readString(tokenFile).strip();
        } catch (IOException e) {
            throw new IOException(where + ": tokenFile " + tokenFile + " does not exist or is not readable", e);
        }
    }

    /**
     * Replaces the client key fabric8 would read by its PKCS#8 form and algorithm, after checking that it is a key,
     * that there is a certificate, and that the two belong together.
     */
    static void clientKey(Config config, String where) throws IOException {
        boolean hasKey = config.getClientKeyData() != null || config.getClientKeyFile() != null;
        boolean hasCert = config.getClientCertData() != null || config.getClientCertFile() != null;
        if (!hasKey && !hasCert) {
            return;
        }
        if (hasKey != hasCert) {
            throw new IOException(
                    where + ": has a client " + (hasKey ? "key but no certificate" : "certificate but no key"));
        }
        String keySource = source("client-key", config.getClientKeyData(), config.getClientKeyFile());
        String certSource = source("client-certificate", config.getClientCertData(), config.getClientCertFile());
        var key = parse(
                where,
                keySource,
                () -> ClientKeys.privateKey(
                        text(where, keySource, config.getClientKeyData(), config.getClientKeyFile())));
        var certificates = parse(
                where,
                certSource,
                () -> ClientKeys.certificates(
                        text(where, certSource, config.getClientCertData(), config.getClientCertFile())));
        if (!ClientKeys.matches(key, certificates.getFirst())) {
            throw new IOException(where + ": " + keySource + " (" + key.getAlgorithm() + ") does not belong to "
                    + certSource + " (" + certificates.getFirst().getSubjectX500Principal() + ")");
        }
        config.setClientKeyData(ClientKeys.pkcs8Data(key));
        config.setClientKeyFile(null);
        config.setClientKeyAlgo(key.getAlgorithm());
    }

    private interface Parse<T> {
        T get() throws IOException;
    }

    private static <T> T parse(String where, String source, Parse<T> parse) throws IOException {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new IOException(where + ": " + source + ": " + e.getMessage(), e);
        }
    }

    private static String source(String field, String data, String file) {
        return data != null ? field + "-data" : field + " " + file;
    }

    /** The PEM text of a {@code *-data} field (base64) or of the file it names. */
    private static String text(String where, String source, String data, String file) throws IOException {
        if (data != null) {
            try {
                // Strict, as Go's JSON decoding of []byte: the MIME decoder would skip what is not base64.
                return new String(Base64.getDecoder().decode(data.replaceAll("\\s", "")), StandardCharsets.US_ASCII);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not base64 (" + e.getMessage() + ")", e);
            }
        }
        try {
            return Files.readString(Path.of(file), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IOException(where + ": " + source + " does not exist or is not readable", e);
        }
    }

    /**
     * Runs the exec plugin once more, as kubectl would, to say why it gave nothing: it cannot be started, it failed
     * (its exit code and last stderr line), it hangs, or what it printed is no credential.
     */
    static String whyExecFailed(ExecConfig exec, Path kubeconfigDir) {
        var command = new ArrayList<String>();
        // kubectl: a command with a path separator is relative to the kubeconfig's folder, a bare name is on PATH.
        command.add(
                exec.getCommand().contains("/")
                        ? kubeconfigDir.resolve(exec.getCommand()).normalize().toString()
                        : exec.getCommand());
        command.addAll(exec.getArgs() == null ? List.of() : exec.getArgs());
        Path stdout;
        Path stderr;
        try {
            stdout = Files.createTempFile("hami-exec", ".out");
            stderr = Files.createTempFile("hami-exec", ".err");
        } catch (IOException e) {
            return "cannot run it: " + e.getMessage();
        }
        // Output to files, not pipes: a plugin that hangs with its stdout open must not hang this diagnosis too.
        var builder = new ProcessBuilder(command)
                .redirectInput(Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        for (ExecEnvVar env : exec.getEnv() == null ? List.<ExecEnvVar>of() : exec.getEnv()) {
            builder.environment().put(env.getName(), env.getValue());
        }
        try {
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                return "cannot run it: " + e.getMessage()
                        + (exec.getInstallHint() == null
                                ? ""
                                : " (" + exec.getInstallHint().strip() + ")");
            }
            if (!process.waitFor(EXEC_WAIT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "it did not finish within " + EXEC_WAIT_SECONDS + " s";
            }
            String errors = Files.readString(stderr, StandardCharsets.UTF_8).strip();
            if (process.exitValue() != 0) {
                return "it exited with " + process.exitValue() + (errors.isEmpty() ? "" : ": " + lastLine(errors));
            }
            return "its output is no ExecCredential with status.token or status.clientCertificateData ("
                    + Files.size(stdout) + " bytes on stdout"
                    + (errors.isEmpty() ? "" : ", stderr: " + lastLine(errors))
                    + ")";
        } catch (IOException e) {
            return "reading its output failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for it";
        } finally {
            try {
                Files.deleteIfExists(stdout);
                Files.deleteIfExists(stderr);
            } catch (IOException e) {
                // Temporary files; nothing to tell the operator about.
            }
        }
    }

    private static String lastLine(String text) {
        return text.substring(text.lastIndexOf('\n') + 1).strip();
    }

    private static String describe(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        // SnakeYAML's messages span lines: what failed and where ("in reader, line 3, column 1:"), each followed by
        // the source line and a caret indented by four spaces, which mean nothing on one line.
        return message.lines()
                .filter(l -> !l.startsWith("    ") && !l.isBlank())
                .map(String::strip)
                .collect(java.util.stream.Collectors.joining(" "));
    }
}
