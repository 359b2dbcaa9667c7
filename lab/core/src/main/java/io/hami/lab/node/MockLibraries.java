package io.hami.lab.node;

import io.hami.lab.scenario.Vendor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The C mock libraries of {@code hardware-mocks}, bundled in this module's jar at build time. Each node gets its
 * own copies (real files, not links: the dynamic loader loads one copy per path), so that each copy reads the
 * {@code devices.json} next to it and nodes share no device state.
 */
public final class MockLibraries {
    private static final String BUNDLED = "/io/hami/lab/mocks/";

    private MockLibraries() {}

    /** Copies {@code vendor}'s libraries into {@code dir}, under their SONAMEs, where its plugin loads them. */
    public static void copyTo(Vendor vendor, Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String file : vendor.libraries()) {
            String resource = BUNDLED + vendor.yamlName() + "/" + file;
            try (InputStream in = MockLibraries.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IOException("the " + vendor.yamlName() + " mock library " + file
                            + " is not bundled in the lab (" + resource
                            + "); build hardware-mocks first: ./mvnw -q -pl hardware-mocks,lab/core -am install");
                }
                Files.copy(in, dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Copies {@code hami-workload}, hardware-mocks' stand-in for the CUDA processes of a container under HAMi-core,
     * into {@code dir} as an executable.
     */
    public static Path workloadTool(Path dir) throws IOException {
        String resource = BUNDLED + "hamicore/hami-workload";
        Files.createDirectories(dir);
        Path tool = dir.resolve("hami-workload");
        try (InputStream in = MockLibraries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("hami-workload is not bundled in the lab (" + resource
                        + "); build hardware-mocks first: ./mvnw -q -pl hardware-mocks,lab/core -am install");
            }
            Files.copy(in, tool, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        return tool;
    }
}
