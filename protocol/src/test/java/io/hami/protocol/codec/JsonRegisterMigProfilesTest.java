package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.MigPlacement;
import io.hami.protocol.device.MigProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The register's {@code migProfiles} (docs/mig-design.md §1.2), with upstream's vectors (§2). */
class JsonRegisterMigProfilesTest {

    private static DeviceInfo mig(List<MigProfile> profiles) {
        return new DeviceInfo("GPU-0", 0, 7, 40960, 100, "NVIDIA-A100-SXM4-40GB", 0, "mig", true, profiles);
    }

    /** Upstream {@code devices_test.go :: TestMigProfileUsesCompactWireFormat} (instanceCount 7 is not written). */
    @Test
    void profileUsesUpstreamsCompactWireFormat() {
        var profile = new MigProfile("1g.5gb", 4864, 15, 1, List.of(new MigPlacement(6, 1)));
        assertThat(JsonRegisterCodec.encode(List.of(mig(List.of(profile)))))
                .isEqualTo("[{\"id\":\"GPU-0\",\"count\":7,\"devmem\":40960,\"devcore\":100,"
                        + "\"type\":\"NVIDIA-A100-SXM4-40GB\",\"mode\":\"mig\",\"migProfiles\":["
                        + "{\"name\":\"1g.5gb\",\"memoryMB\":4864,\"core\":15,\"sliceCount\":1,\"placements\":[{\"start\":6,\"size\":1}]}"
                        + "],\"health\":true}]");
    }

    /** Upstream {@code nvidia/device_test.go :: TestGetNodeDevices_MigProfilesFromNode}: unknown keys ignored. */
    @Test
    void upstreamsRegisterReadsTheProfileAndIgnoresUnknownKeys() throws Exception {
        String upstream =
                "[{\"id\":\"GPU-0\",\"count\":7,\"devmem\":40960,\"devcore\":100,\"type\":\"NVIDIA-A100-SXM4-40GB\","
                        + "\"numa\":0,\"health\":true,\"mode\":\"mig\",\"migProfiles\":[{\"name\":\"1g.5gb\",\"memoryMB\":5120,"
                        + "\"core\":14,\"sliceCount\":1,\"instanceCount\":7,\"multiprocessorCount\":14,"
                        + "\"placements\":[{\"start\":6,\"size\":1}]}]}]";
        List<DeviceInfo> devices = JsonRegisterCodec.decode(upstream);
        assertThat(devices)
                .containsExactly(mig(List.of(new MigProfile("1g.5gb", 5120, 14, 1, List.of(new MigPlacement(6, 1))))));
    }

    @Test
    void anEmptyProfileListIsLeftOutAndANilPlacementListIsNull() throws Exception {
        assertThat(JsonRegisterCodec.encode(List.of(mig(List.of())))).doesNotContain("migProfiles");
        String nil = JsonRegisterCodec.encode(List.of(mig(List.of(new MigProfile("", 0, 0, 0, null)))));
        assertThat(nil)
                .contains(
                        "\"migProfiles\":[{\"name\":\"\",\"memoryMB\":0,\"core\":0,\"sliceCount\":0,\"placements\":null}]");
        assertThat(JsonRegisterCodec.decode(nil).get(0).migProfiles().get(0).placements())
                .isNull();
        String empty = JsonRegisterCodec.encode(List.of(mig(List.of(new MigProfile("x", 1, 2, 3, List.of())))));
        assertThat(empty).contains("\"placements\":[]");
        assertThat(JsonRegisterCodec.decode(empty).get(0).migProfiles().get(0).placements())
                .isEmpty();
    }

    @Test
    void uint32ExtremesRoundTrip() throws Exception {
        var profile = new MigProfile(
                "7g.80gb",
                Integer.MAX_VALUE,
                100,
                MigPlacement.MAX_UINT32,
                List.of(new MigPlacement(MigPlacement.MAX_UINT32, MigPlacement.MAX_UINT32)));
        String json = JsonRegisterCodec.encode(List.of(mig(List.of(profile))));
        assertThat(json)
                .contains("\"sliceCount\":4294967295,\"placements\":[{\"start\":4294967295,\"size\":4294967295}]");
        assertThat(JsonRegisterCodec.decode(json).get(0).migProfiles()).containsExactly(profile);
    }

    @Test
    void nullMembersAndKeysInAnyCaseReadAsGoReadsThem() throws Exception {
        assertThat(JsonRegisterCodec.decode("[{\"MIGPROFILES\":[null,{\"Name\":\"a\",\"MEMORYmb\":null,\"PLACEMENTS\":"
                                + "[null,{\"START\":2,\"Size\":null}]}]}]")
                        .get(0)
                        .migProfiles())
                .containsExactly(
                        new MigProfile("", 0, 0, 0, null),
                        new MigProfile("a", 0, 0, 0, List.of(new MigPlacement(0, 0), new MigPlacement(2, 0))));
        assertThat(JsonRegisterCodec.decode("[{\"migProfiles\":null}]").get(0).migProfiles())
                .isEmpty();
    }

    /**
     * Go decodes a repeated list into the elements the previous one left, so their fields merge. (Keys are spelled
     * differently: Jackson's tree keeps one value per exact key.)
     */
    @Test
    void aRepeatedProfileListReusesThePreviousElementsAsGoDoes() throws Exception {
        assertThat(JsonRegisterCodec.decode(
                                "[{\"migProfiles\":[{\"name\":\"a\",\"core\":5},{\"name\":\"b\",\"core\":6}],"
                                        + "\"MigProfiles\":[{\"name\":\"c\"}],\"MIGPROFILES\":[null,{\"memoryMB\":7}]}]")
                        .get(0)
                        .migProfiles())
                .containsExactly(new MigProfile("c", 0, 5, 0, null), new MigProfile("b", 7, 6, 0, null));
        // [] starts a new list: nothing of the old one is reused
        assertThat(JsonRegisterCodec.decode(
                                "[{\"migProfiles\":[{\"name\":\"a\",\"core\":5}],\"MigProfiles\":[],\"MIGPROFILES\":[{}]}]")
                        .get(0)
                        .migProfiles())
                .containsExactly(new MigProfile("", 0, 0, 0, null));
    }

    @Test
    void wrongShapesAndNumbersAreErrorsNamingTheField() {
        JsonRegisterCodecFuzzTest.rejected(
                "[{\"migProfiles\":{}}]", "invalid migProfiles field in device 0: {} (want a list)");
        JsonRegisterCodecFuzzTest.rejected(
                "[{\"migProfiles\":[5]}]", "MIG profile 0 of device 0 must be a JSON object, got number");
        JsonRegisterCodecFuzzTest.rejected(
                "[{\"migProfiles\":[{\"name\":1}]}]", "invalid name field in MIG profile 0 of device 0: 1");
        JsonRegisterCodecFuzzTest.rejected(
                "[{\"migProfiles\":[{\"memoryMB\":-1}]}]",
                "invalid memoryMB field",
                "want a whole number from 0 to 2147483647");
        JsonRegisterCodecFuzzTest.rejected("[{\"migProfiles\":[{\"core\":2147483648}]}]", "invalid core field");
        JsonRegisterCodecFuzzTest.rejected(
                "[{\"migProfiles\":[{\"sliceCount\":4294967296}]}]", "want a whole number from 0 to 4294967295");
        JsonRegisterCodecFuzzTest.rejected("[{\"migProfiles\":[{\"sliceCount\":1.5}]}]", "invalid sliceCount field");
        JsonRegisterCodecFuzzTest.rejected(
                "[{\"migProfiles\":[{\"placements\":{}}]}]", "invalid placements field in MIG profile 0 of device 0");
        JsonRegisterCodecFuzzTest.rejected(
                "[{\"migProfiles\":[{},{\"placements\":[[]]}]}]",
                "MIG placement 0 of MIG profile 1 of device 0 must be");
        JsonRegisterCodecFuzzTest.rejected(
                "[{},{\"migProfiles\":[{\"placements\":[{\"start\":-1}]}]}]",
                "invalid start field in MIG placement 0 of MIG profile 0 of device 1: -1");
        JsonRegisterCodecFuzzTest.rejected(
                "[{\"migProfiles\":[{\"placements\":[{\"size\":\"1\"}]}]}]", "invalid size field");
    }

    @Test
    void withHealthKeepsTheProfiles() {
        var d = mig(List.of(new MigProfile("1g.5gb", 4864, 15, 1, List.of(new MigPlacement(6, 1)))));
        assertThat(d.withHealth(false).migProfiles()).isEqualTo(d.migProfiles());
    }
}
