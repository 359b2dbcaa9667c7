package io.hami.deploy.image;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An OCI image archive as the build wrote it, read the way a container runtime reads it: {@code index.json}, the
 * manifest it names, the config and the layers, applied in order (with the system's {@code tar}) to {@code root}.
 *
 * @param reference the index's {@code org.opencontainers.image.ref.name}
 * @param config the image config's {@code config} object (Entrypoint, Env, User, Labels)
 * @param root the unpacked root filesystem
 * @param archiveBytes the archive's size
 * @param layerBytes each layer's size uncompressed (its tar stream), in order
 */
public record OciImage(String reference, JsonNode config, Path root, long archiveBytes, List<Long> layerBytes) {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Where the build writes image {@code name} under the repository {@code root}. */
    public static Path archive(Path root, String name) {
        return root.resolve("deploy/target/images").resolve(name + ".tar");
    }

    /** Unpacks {@code archive} under {@code dir} ({@code dir/oci}: the layout, {@code dir/root}: the file system). */
    public static OciImage unpack(Path archive, Path dir) throws IOException, InterruptedException {
        Path layout = Files.createDirectories(dir.resolve("oci"));
        Path root = Files.createDirectories(dir.resolve("root"));
        tar("-xf", archive.toString(), "-C", layout.toString());
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        JsonNode entry = index.path("manifests").get(0);
        JsonNode manifest =
                JSON.readTree(blob(layout, entry.path("digest").asString()).toFile());
        JsonNode config = JSON.readTree(
                blob(layout, manifest.path("config").path("digest").asString()).toFile());
        var sizes = new ArrayList<Long>();
        for (JsonNode layer : manifest.path("layers")) {
            Path blob = blob(layout, layer.path("digest").asString());
            sizes.add(uncompressedSize(blob));
            // As root, tar keeps the layers' owners and modes, as a container runtime does.
            tar("--warning=no-unknown-keyword", "-xzf", blob.toString(), "-C", root.toString());
        }
        return new OciImage(
                entry.path("annotations")
                        .path("org.opencontainers.image.ref.name")
                        .asString(),
                config.path("config"),
                root,
                Files.size(archive),
                List.copyOf(sizes));
    }

    private static Path blob(Path layout, String digest) {
        return layout.resolve("blobs").resolve(digest.replace(':', '/'));
    }

    private static long uncompressedSize(Path blob) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(blob))) {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }

    private static void tar(String... args) throws IOException, InterruptedException {
        var command = new ArrayList<>(List.of("tar"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
    }

    public long uncompressedBytes() {
        return layerBytes.stream().mapToLong(Long::longValue).sum();
    }

    public List<String> entrypoint() {
        return config.path("Entrypoint").valueStream().map(JsonNode::asString).toList();
    }

    public Map<String, String> environment() {
        var env = new LinkedHashMap<String, String>();
        for (JsonNode e : config.path("Env")) {
            String text = e.asString();
            int eq = text.indexOf('=');
            env.put(text.substring(0, eq), text.substring(eq + 1));
        }
        return env;
    }

    /** The config's {@code Labels}. */
    public Map<String, String> labels() {
        var labels = new LinkedHashMap<String, String>();
        config.path("Labels")
                .properties()
                .forEach(e -> labels.put(e.getKey(), e.getValue().asString()));
        return labels;
    }

    /** The config's {@code User}, empty for root. */
    public String user() {
        return config.path("User").asString("");
    }
}
