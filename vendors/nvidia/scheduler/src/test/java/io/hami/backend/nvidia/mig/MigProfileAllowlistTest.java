package io.hami.backend.nvidia.mig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.backend.nvidia.mig.MigProfileAllowlist.Entry;
import io.hami.protocol.config.DeviceConfigException;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** {@code nvidia.migProfileAllowlist} and the legacy {@code knownMigGeometries} (docs/mig-design.md §1.1, §5.2). */
class MigProfileAllowlistTest {
    private static final YAMLMapper YAML = YAMLMapper.builder().build();
    private static final String WHERE = "device config f.yaml: key nvidia.";

    private static JsonNode yaml(String text) {
        return YAML.readTree(text);
    }

    private static MigProfileAllowlist read(String yaml) throws DeviceConfigException {
        return MigProfileAllowlist.read(yaml(yaml), WHERE + "migProfileAllowlist");
    }

    /** Upstream's {@code TestValidateMigProfileAllowlist}. */
    @Test
    void upstreamsValidAndInvalidAllowlists() throws Exception {
        assertThat(read("[{models: [A100], profiles: [1g.5gb, 2g.10gb]}]").entries())
                .containsExactly(new Entry(List.of("A100"), List.of("1g.5gb", "2g.10gb")));
        assertThatThrownBy(() -> read("[{models: [A100]}]"))
                .isInstanceOf(DeviceConfigException.class)
                .hasMessage("device config f.yaml: key nvidia.migProfileAllowlist[0]: "
                        + "a MIG profile allowlist entry needs models and profiles");
    }

    @Test
    void anEntryWithoutModelsIsRefusedByItsPosition() {
        assertThatThrownBy(() -> read("[{models: [A30], profiles: [1g.6gb]}, {models: [], profiles: [1g.5gb]}]"))
                .hasMessageContaining("nvidia.migProfileAllowlist[1]: a MIG profile allowlist entry needs");
    }

    /** The name rule of {@code ValidateMigProfileAllowlist}: {@code <at least 2 characters ending in g>.<anything>}. */
    @Test
    void profileNamesNeedSlicesBeforeTheDot() throws Exception {
        for (String good : List.of("1g.5gb", "7g.141gb", "10g.x", "1g.", "xg.5gb", "1g.5.gb")) {
            assertThat(MigProfileAllowlist.validProfileName(good)).as(good).isTrue();
        }
        for (String bad : List.of("g.5", "1x.5gb", "7g", "", ".5gb", "1G.5gb")) {
            assertThat(MigProfileAllowlist.validProfileName(bad)).as(bad).isFalse();
        }
        assertThatThrownBy(() -> read("[{models: [A100], profiles: [1g.5gb, 7g]}]"))
                .hasMessage("device config f.yaml: key nvidia.migProfileAllowlist[0].profiles[1]: invalid MIG profile "
                        + "\"7g\" (want <n>g.<memory>, for example 1g.5gb)");
    }

    /** Upstream chart 2.10.0's default list ({@code charts/hami/templates/scheduler/device-configmap.yaml}). */
    @Test
    void upstreamChartsDefaultListIsValid() throws Exception {
        var allowlist = read("""
                - models: [ "A30" ]
                  profiles: [ "1g.6gb", "2g.12gb", "4g.24gb" ]
                - models: [ "A100-SXM4-40GB", "A100-40GB-PCIe", "A100-PCIE-40GB"]
                  profiles: [ "1g.5gb", "2g.10gb", "3g.20gb", "7g.40gb" ]
                - models: [ "A100-SXM4-80GB", "A100-80GB-PCIe", "A100-PCIE-80GB"]
                  profiles: [ "1g.10gb", "2g.20gb", "3g.40gb", "7g.79gb" ]
                - models: [ "H100-PCIE-80GB", "H100-SXM5-80GB"]
                  profiles: [ "1g.10gb", "2g.20gb", "3g.40gb", "7g.80gb" ]
                - models: [ "H100-PCIE-94GB", "H100-SXM5-94GB"]
                  profiles: [ "1g.12gb", "2g.24gb", "3g.47gb", "7g.94gb" ]
                - models: [ "H20", "H100 on GH200"]
                  profiles: [ "1g.12gb", "2g.24gb", "3g.48gb", "7g.96gb" ]
                - models: [ "H200 NVL", "H200-SXM5"]
                  profiles: [ "1g.18gb", "2g.35gb", "3g.71gb", "7g.141gb" ]
                - models: [ "B200" ]
                  profiles: [ "1g.23gb", "2g.45gb", "3g.90gb", "7g.180gb" ]
                - models: [ "RTX PRO 6000 Blackwell Server Edition" ]
                  profiles: [ "1g.24gb", "2g.48gb", "4g.96gb" ]
                """);
        assertThat(allowlist.entries()).hasSize(9);
        assertThat(allowlist.entries().get(5))
                .isEqualTo(new Entry(
                        List.of("H20", "H100 on GH200"), List.of("1g.12gb", "2g.24gb", "3g.48gb", "7g.96gb")));
        assertThat(allowlist.entries().get(8).models()).containsExactly("RTX PRO 6000 Blackwell Server Edition");
    }

    @Test
    void wrongShapesAreRefusedWithTheirPath() {
        assertThatThrownBy(() -> read("{models: [A100]}")).hasMessageContaining("migProfileAllowlist: want a list");
        assertThatThrownBy(() -> read("[A100]")).hasMessageContaining("migProfileAllowlist[0]: want a mapping");
        assertThatThrownBy(() -> read("[{models: A100, profiles: [1g.5gb]}]"))
                .hasMessageContaining("migProfileAllowlist[0].models: want a list, got \"A100\"");
        assertThatThrownBy(() -> read("[{models: [A100], profiles: [[1g.5gb]]}]"))
                .hasMessageContaining("migProfileAllowlist[0].profiles[0]: want a string, got a list");
        assertThatThrownBy(() -> read("[{models: [A100], profiles: [1g.5gb], geometries: []}]"))
                .hasMessageContaining("migProfileAllowlist[0]: unknown key geometries");
    }

    /** docs/develop/dynamic-mig.md's legacy example, converted by the migration guide's rule (design choice 2). */
    @Test
    void legacyGeometriesGiveTheUnionOfTheirProfilesWithAWarning() throws Exception {
        var resolved = MigProfileAllowlist.resolve(null, yaml("""
                        - models: ["A100-SXM4-40GB"]
                          allowedGeometries:
                            - - {name: 1g.5gb, memory: 5120, count: 7}
                            - - {name: 2g.10gb, memory: 10240, count: 3}
                              - {name: 1g.5gb, memory: 5120, count: 1}
                        - models: ["A30"]
                          allowedGeometries:
                            - - {name: 4g.24gb, memory: 24576, count: 1, core: 100}
                        """), WHERE);
        assertThat(resolved.allowlist().entries())
                .containsExactly(
                        new Entry(List.of("A100-SXM4-40GB"), List.of("1g.5gb", "2g.10gb")),
                        new Entry(List.of("A30"), List.of("4g.24gb")));
        assertThat(resolved.warning())
                .hasValueSatisfying(w -> assertThat(w)
                        .startsWith("device config f.yaml: key nvidia.knownMigGeometries (upstream v2.9) is read as")
                        .contains("write migProfileAllowlist instead"));
    }

    @Test
    void anAllowlistWinsOverGeometriesAndNeitherGivesNone() throws Exception {
        var both = MigProfileAllowlist.resolve(
                yaml("[{models: [A30], profiles: [1g.6gb]}]"),
                yaml("[{models: [A100], allowedGeometries: [[{name: 7g.40gb, memory: 40960, count: 1}]]}]"),
                WHERE);
        assertThat(both.allowlist().entries()).containsExactly(new Entry(List.of("A30"), List.of("1g.6gb")));
        assertThat(both.warning()).contains(WHERE + "knownMigGeometries is ignored: migProfileAllowlist is set");
        var neither = MigProfileAllowlist.resolve(null, null, WHERE);
        assertThat(neither.allowlist()).isEqualTo(MigProfileAllowlist.NONE);
        assertThat(neither.warning()).isEmpty();
    }

    @Test
    void invalidGeometriesAreRefusedLikeAnInvalidAllowlist() {
        assertThatThrownBy(() -> MigProfileAllowlist.resolve(
                        null,
                        yaml("[{models: [A100], allowedGeometries: [[{name: 7g, memory: 1, count: 1}]]}]"),
                        WHERE))
                .hasMessageContaining("knownMigGeometries[0].profiles[0]: invalid MIG profile \"7g\"");
        assertThatThrownBy(() -> MigProfileAllowlist.resolve(
                        null, yaml("[{models: [A100], allowedGeometries: [[{memory: 1}]]}]"), WHERE))
                .hasMessageContaining("knownMigGeometries[0].allowedGeometries[0][0].name: want a string");
        assertThatThrownBy(() -> MigProfileAllowlist.resolve(null, yaml("[{models: [A100]}]"), WHERE))
                .hasMessageContaining("knownMigGeometries[0]: a MIG profile allowlist entry needs models and profiles");
    }
}
