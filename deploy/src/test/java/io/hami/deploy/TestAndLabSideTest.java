package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link TestAndLabSide} on the repository's POMs, without images (ImagesTest uses it on the built ones). */
class TestAndLabSideTest {
    private static final Path REPOSITORY = Manifests.MODULE.getParent();

    @Test
    void everySideModuleIsAFolderWithAPom() {
        assertThat(TestAndLabSide.SIDE_MODULES)
                .as("TestAndLabSide.SIDE_MODULES (a moved module leaves a stale path here)")
                .allMatch(m -> Files.isRegularFile(REPOSITORY.resolve(m).resolve("pom.xml")));
    }

    @Test
    void theSideModulesAreForbiddenAndTheVendorsAreNot() throws Exception {
        var forbidden = TestAndLabSide.forbiddenArtifacts(REPOSITORY);
        assertThat(forbidden)
                .contains("hami-fake-vendor", "hami-fake-vendor-node", "hami-lab", "hami-hardware-mocks")
                .doesNotContain("hami-backend-nvidia", "hami-node-nvidia", "hami-protocol", "hami-plugin");
        assertThat(TestAndLabSide.isForbidden("hami-fake-vendor-node-0.1.0-SNAPSHOT-tests.jar", forbidden))
                .isTrue();
        assertThat(TestAndLabSide.isForbidden("hami-node-hygon-0.1.0-SNAPSHOT.jar", forbidden))
                .isFalse();
    }
}
