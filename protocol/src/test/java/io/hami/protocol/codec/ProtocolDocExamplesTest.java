package io.hami.protocol.codec;

import static io.hami.protocol.codec.ProtocolExamples.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.PodDevices;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every example of the protocol documents (docs/upstream.md#protocol-documents) and of docs/upstream.md's protocol
 * sections (docs/upstream.md#colon-form to docs/upstream.md#node-lock) decodes and re-encodes as specified.
 */
class ProtocolDocExamplesTest {

    @Nested
    @DisplayName("current protocol document (docs/upstream.md#protocol-documents)")
    class Current {
        @Test
        void nvidiaRegisterJsonDecodes() throws Exception {
            assertThat(JsonRegisterCodec.decode(CURRENT_NVIDIA_REGISTER)).isEqualTo(CURRENT_NVIDIA_REGISTER_DEVICES);
        }

        @Test
        void nvidiaRegisterJsonReencodesByteForByte() throws Exception {
            assertThat(JsonRegisterCodec.encode(JsonRegisterCodec.decode(CURRENT_NVIDIA_REGISTER)))
                    .isEqualTo(CURRENT_NVIDIA_REGISTER);
            assertThat(JsonRegisterCodec.encode(CURRENT_NVIDIA_REGISTER_DEVICES))
                    .isEqualTo(CURRENT_NVIDIA_REGISTER);
        }

        @Test
        void nvidiaRegisterJsonIsWrittenSortedByIndex() {
            var reversed = List.of(CURRENT_NVIDIA_REGISTER_DEVICES.get(1), CURRENT_NVIDIA_REGISTER_DEVICES.get(0));
            assertThat(JsonRegisterCodec.encode(reversed)).isEqualTo(CURRENT_NVIDIA_REGISTER);
        }

        @Test
        void handshakeDecodesAndReencodes() throws Exception {
            assertThat(HandshakeCodec.decode(CURRENT_HANDSHAKE)).isEqualTo(CURRENT_HANDSHAKE_VALUE);
            assertThat(HandshakeCodec.encode(CURRENT_HANDSHAKE_VALUE)).isEqualTo(CURRENT_HANDSHAKE);
        }

        @Test
        void reportedHandshakeIsTheSameLayout() throws Exception {
            var reported = new Handshake(Handshake.State.Reported, LocalDateTime.of(2024, 1, 23, 4, 30, 4));
            assertThat(HandshakeCodec.decode("Reported_2024-01-23 04:30:04")).isEqualTo(reported);
            assertThat(HandshakeCodec.encode(reported)).isEqualTo("Reported_2024-01-23 04:30:04");
        }

        @Test
        void podDevicesDecodeToOneContainerAndReencode() throws Exception {
            PodDevices decoded = PodDevicesCodec.decode(CURRENT_POD_DEVICES);
            assertThat(decoded).isEqualTo(CURRENT_POD_DEVICES_VALUE);
            assertThat(decoded.containers())
                    .hasSize(1); // design D2 (docs/design.md#d2): the final ';' does not open a second container
            assertThat(PodDevicesCodec.encode(decoded)).isEqualTo(CURRENT_POD_DEVICES);
        }

        @Test
        void consumedPodDevicesAreOneEmptyContainer() throws Exception {
            PodDevices decoded = PodDevicesCodec.decode(CURRENT_POD_DEVICES_CONSUMED);
            assertThat(decoded).isEqualTo(CURRENT_POD_DEVICES_CONSUMED_VALUE);
            assertThat(decoded.isEmpty()).isTrue();
            assertThat(PodDevicesCodec.encode(decoded)).isEqualTo(CURRENT_POD_DEVICES_CONSUMED);
        }

        @Test
        void consumingTheOnlyEntryGivesTheDocumentedValue() throws Exception {
            PodDevices allocated = PodDevicesCodec.decode(CURRENT_POD_DEVICES);
            assertThat(PodDevicesCodec.encode(allocated.consume(allocated.firstNonEmpty())))
                    .isEqualTo(CURRENT_POD_DEVICES_CONSUMED);
        }

        @Test
        void bindTimeDecodesAndReencodes() throws Exception {
            assertThat(UnixTimeCodec.decode(CURRENT_BIND_TIME)).isEqualTo(CURRENT_BIND_TIME_VALUE);
            assertThat(UnixTimeCodec.encode(CURRENT_BIND_TIME_VALUE)).isEqualTo(CURRENT_BIND_TIME);
        }

        @Test
        void legacyColonEntryFormatHasSevenFields() throws Exception {
            // "{Device UUID},{device split count},{device memory limit},{device core limit},{device type},
            //  {device numa},{healthy}", one entry ended by ':'.
            var devices = LegacyRegisterCodec.decode("GPU-x,4,16384,100,NVIDIA-A10,1,true:");
            assertThat(devices).singleElement().satisfies(d -> {
                assertThat(d.id()).isEqualTo("GPU-x");
                assertThat(d.count()).isEqualTo(4);
                assertThat(d.devmem()).isEqualTo(16384);
                assertThat(d.devcore()).isEqualTo(100);
                assertThat(d.type()).isEqualTo("NVIDIA-A10");
                assertThat(d.numa()).isEqualTo(1);
                assertThat(d.health()).isTrue();
            });
        }
    }

    @Nested
    @DisplayName("older protocol document (docs/upstream.md#protocol-documents)")
    class Older {
        @Test
        void nvidiaColonRegisterDecodesAsSevenFieldDevices() throws Exception {
            assertThat(LegacyRegisterCodec.decode(OLDER_NVIDIA_REGISTER_COLON))
                    .isEqualTo(OLDER_NVIDIA_REGISTER_COLON_DEVICES);
        }

        @Test
        void nvidiaColonRegisterReencodesWithNineFields() throws Exception {
            assertThat(LegacyRegisterCodec.encode(LegacyRegisterCodec.decode(OLDER_NVIDIA_REGISTER_COLON)))
                    .isEqualTo(OLDER_NVIDIA_REGISTER_COLON_REENCODED);
            assertThat(LegacyRegisterCodec.decode(OLDER_NVIDIA_REGISTER_COLON_REENCODED))
                    .isEqualTo(OLDER_NVIDIA_REGISTER_COLON_DEVICES);
        }

        @Test
        void nvidiaColonRegisterIsNotJson() {
            // docs/upstream.md#doc-disagreements (#21): as an NVIDIA (JSON) value the colon form is invalid.
            assertThatThrownBy(() -> JsonRegisterCodec.decode(OLDER_NVIDIA_REGISTER_COLON))
                    .isInstanceOf(AnnotationFormatException.class);
        }

        @Test
        void mluRegisterIsRejectedBecauseItsSecondEntryHasFiveFields() {
            assertThatThrownBy(() -> LegacyRegisterCodec.decode(OLDER_MLU_REGISTER))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("field count 5")
                    .hasMessageContaining("\"" + OLDER_MLU_REGISTER_BAD_ENTRY + "\"");
        }

        @Test
        void mluRegisterFirstEntryAloneIsValid() throws Exception {
            assertThat(LegacyRegisterCodec.decode(OLDER_MLU_REGISTER_FIRST_ENTRY))
                    .containsExactly(OLDER_MLU_REGISTER_FIRST_DEVICE);
            assertThat(LegacyRegisterCodec.encode(List.of(OLDER_MLU_REGISTER_FIRST_DEVICE)))
                    .isEqualTo(
                            "MLU-45013011-2257-0000-0000-000000000000,10,23308,0,MLU-MLU370-X4,0,false,0,hami-core:");
        }

        @Test
        void goDefaultTimeFormatHandshakeIsATypedError() {
            assertThatThrownBy(() -> HandshakeCodec.decode(OLDER_HANDSHAKE_NVIDIA))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("Reported 2024-01-23 04:30:04");
        }

        @Test
        void dottedDateHandshakeIsATypedError() {
            assertThatThrownBy(() -> HandshakeCodec.decode(OLDER_HANDSHAKE_MLU))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("2024.01.10 04:06:57");
        }

        @Test
        void twoContainerPodDevicesDecodeAndReencode() throws Exception {
            PodDevices decoded = PodDevicesCodec.decode(OLDER_POD_DEVICES_TWO_CONTAINERS);
            assertThat(decoded).isEqualTo(OLDER_POD_DEVICES_TWO_CONTAINERS_VALUE);
            assertThat(PodDevicesCodec.encode(decoded)).isEqualTo(OLDER_POD_DEVICES_TWO_CONTAINERS);
        }

        @Test
        void twoContainerPodIsConsumedOneEntryAtATime() throws Exception {
            // design D2/D4 (docs/design.md#d4): entry i stays container i; a consumed pod reads one ';' per container.
            PodDevices pd = PodDevicesCodec.decode(OLDER_POD_DEVICES_TWO_CONTAINERS);
            String once = PodDevicesCodec.encode(pd.consume(pd.firstNonEmpty()));
            assertThat(once).isEqualTo(";GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448,NVIDIA,5000,0:;");
            PodDevices after = PodDevicesCodec.decode(once);
            assertThat(after.firstNonEmpty()).isEqualTo(1);
            assertThat(PodDevicesCodec.encode(after.consume(1))).isEqualTo(";;");
        }

        @Test
        void vgpuTimeDecodesAndReencodes() throws Exception {
            assertThat(UnixTimeCodec.decode(OLDER_VGPU_TIME)).isEqualTo(OLDER_VGPU_TIME_VALUE);
            assertThat(UnixTimeCodec.encode(OLDER_VGPU_TIME_VALUE)).isEqualTo(OLDER_VGPU_TIME);
        }
    }

    @Nested
    @DisplayName("docs/upstream.md#colon-form")
    class ReferenceColon {
        @Test
        void nineFieldDeviceDecodesAndReencodesByteForByte() throws Exception {
            assertThat(LegacyRegisterCodec.decode(REF_COLON_DEVICE)).containsExactly(REF_COLON_DEVICE_VALUE);
            assertThat(LegacyRegisterCodec.encode(List.of(REF_COLON_DEVICE_VALUE)))
                    .isEqualTo(REF_COLON_DEVICE);
        }

        @ParameterizedTest
        @FieldSource("io.hami.protocol.codec.ProtocolExamples#REF_COLON_NO_SEPARATOR")
        void valueWithoutSeparatorIsAnError(String value) {
            assertThatThrownBy(() -> LegacyRegisterCodec.decode(value))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("separator");
        }

        @ParameterizedTest
        @FieldSource("io.hami.protocol.codec.ProtocolExamples#REF_COLON_EMPTY")
        void onlySeparatorsIsNoDevices(String value) throws Exception {
            assertThat(LegacyRegisterCodec.decode(value)).isEmpty();
        }

        @Test
        void emptyFieldsCount() {
            assertThatThrownBy(() -> LegacyRegisterCodec.decode(REF_COLON_TWO_FIELDS))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("field count 2");
        }

        @Test
        void emptyModeIsWrittenAsAnEmptyLastField() throws Exception {
            var device = new DeviceInfo("GPU-1", 2, 10, 7680, 100, "NVIDIA-Tesla P4", 0, "", false);
            String encoded = LegacyRegisterCodec.encode(List.of(device));
            assertThat(encoded).isEqualTo("GPU-1,10,7680,100,NVIDIA-Tesla P4,0,false,2,:");
            assertThat(LegacyRegisterCodec.decode(encoded)).containsExactly(device);
        }

        @Test
        void firstBadFieldIsNamed() {
            assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,notanint,1,1,T,0,true:"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("count")
                    .hasMessageContaining("\"notanint\"");
            assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,true:GPU-2,1,12x,1,T,0,true:"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("memory")
                    .hasMessageContaining("\"12x\"");
            assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,x,T,0,true:"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("core")
                    .hasMessageContaining("\"x\"");
            assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,yes:"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("health")
                    .hasMessageContaining("\"yes\"");
            assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,1,T,n,true:"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("numa")
                    .hasMessageContaining("\"n\"");
            assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,true,i,hami-core:"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("index")
                    .hasMessageContaining("\"i\"");
            assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,true,-1,hami-core:"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("index")
                    .hasMessageContaining("from 0 to 2147483647");
        }
    }

    @Nested
    @DisplayName("docs/upstream.md#json-register")
    class ReferenceJson {
        @Test
        void migProfilesAreReadAndWrittenAndInstanceCountIsDropped() throws Exception {
            assertThat(JsonRegisterCodec.decode(REF_NVIDIA_REGISTER_WITH_MIG))
                    .containsExactly(REF_NVIDIA_REGISTER_WITH_MIG_DEVICE);
            assertThat(JsonRegisterCodec.encode(List.of(REF_NVIDIA_REGISTER_WITH_MIG_DEVICE)))
                    .isEqualTo(REF_NVIDIA_REGISTER_WITH_MIG_REENCODED);
        }

        @Test
        void emptyListIsBrackets() throws Exception {
            assertThat(JsonRegisterCodec.encode(List.of())).isEqualTo(REF_NVIDIA_REGISTER_EMPTY);
            assertThat(JsonRegisterCodec.decode(REF_NVIDIA_REGISTER_EMPTY)).isEmpty();
        }

        @Test
        void nullIsAnEmptyList() throws Exception {
            assertThat(JsonRegisterCodec.decode(REF_NVIDIA_REGISTER_NULL)).isEmpty();
        }

        @Test
        void healthFalseIsOmitted() {
            var sick = CURRENT_NVIDIA_REGISTER_DEVICES.get(0).withHealth(false);
            assertThat(JsonRegisterCodec.encode(List.of(sick)))
                    .isEqualTo(
                            "[{\"id\":\"GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec\",\"count\":10,\"devmem\":32768,\"devcore\":100,"
                                    + "\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"numa\":1,\"mode\":\"hami-core\"}]");
        }

        @Test
        void htmlCharactersAreEscapedLikeGo() {
            var device = new DeviceInfo("GPU-<a>&b", 0, 0, 0, 0, "", 0, "", false);
            assertThat(JsonRegisterCodec.encode(List.of(device)))
                    .isEqualTo("[{\"id\":\"GPU-\\u003ca\\u003e\\u0026b\"}]");
        }
    }

    @Nested
    @DisplayName("docs/upstream.md#pod-device-strings (as fixed by design D2)")
    class ReferencePods {
        @Test
        void oneContainer() throws Exception {
            var value = new PodDevices(List.of(List.of(REF_POD_DEVICE_A)));
            assertThat(PodDevicesCodec.encode(value)).isEqualTo(REF_POD_ONE_CONTAINER);
            assertThat(PodDevicesCodec.decode(REF_POD_ONE_CONTAINER)).isEqualTo(value);
        }

        @Test
        void paddedContainersKeepTheirPositions() throws Exception {
            var value = new PodDevices(List.of(List.of(), List.of(REF_POD_DEVICE_A), List.of()));
            assertThat(PodDevicesCodec.encode(value)).isEqualTo(REF_POD_PADDED);
            assertThat(PodDevicesCodec.decode(REF_POD_PADDED)).isEqualTo(value);
        }

        @Test
        void noContainersIsTheEmptyString() throws Exception {
            assertThat(PodDevicesCodec.encode(PodDevices.NONE)).isEqualTo(REF_POD_NO_CONTAINERS);
            assertThat(PodDevicesCodec.decode(REF_POD_NO_CONTAINERS).containers())
                    .isEmpty();
        }

        @Test
        void twoDevicesInOneContainer() throws Exception {
            var value = new PodDevices(List.of(List.of(REF_POD_DEVICE_A, REF_POD_DEVICE_C)));
            assertThat(PodDevicesCodec.encode(value)).isEqualTo(REF_POD_TWO_DEVICES);
            assertThat(PodDevicesCodec.decode(REF_POD_TWO_DEVICES)).isEqualTo(value);
        }

        @Test
        void negativeInt32FieldsAreRefused() {
            // MEM and CORES are int32 printed with %d, but no writer grants a negative amount, and reading one
            // would lower the usage the scheduler counts (issue 16).
            assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA,-1,-2147483648:;"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("memory")
                    .hasMessageContaining("\"-1\"");
        }

        @Test
        void aDeviceWithFewerThanFourFieldsIsAnError() {
            assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA,1000:;"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("\"GPU-a,NVIDIA,1000\"");
        }

        @Test
        void memoryAndCoresAreInt32() {
            assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA,2147483648,0:;"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("memory")
                    .hasMessageContaining("\"2147483648\"");
            assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA,1,x:;"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("core")
                    .hasMessageContaining("\"x\"");
        }
    }

    @Nested
    @DisplayName("docs/upstream.md#node-lock")
    class ReferenceLock {
        @Test
        void lockDecodesAndReencodesByteForByte() throws Exception {
            assertThat(NodeLockCodec.decode(REF_NODE_LOCK)).isEqualTo(REF_NODE_LOCK_VALUE);
            assertThat(NodeLockCodec.encode(REF_NODE_LOCK_VALUE)).isEqualTo(REF_NODE_LOCK);
        }

        @Test
        void lockIsHeldByItsPod() throws Exception {
            NodeLock lock = NodeLockCodec.decode(REF_NODE_LOCK);
            assertThat(lock.isLegacy()).isFalse();
            assertThat(lock.isHeldBy("ns", "pod-a")).isTrue();
            assertThat(lock.isHeldBy("ns", "pod-b")).isFalse();
        }

        @Test
        void legacyTimeOnlyLockDecodes() throws Exception {
            NodeLock lock = NodeLockCodec.decode(REF_NODE_LOCK_LEGACY);
            assertThat(lock.time().toInstant()).isEqualTo(REF_NODE_LOCK_LEGACY_INSTANT);
            assertThat(lock.namespace()).isEmpty();
            assertThat(lock.name()).isEmpty();
            assertThat(lock.isLegacy()).isTrue();
        }

        @Test
        void offsetTimeWithHolderDecodes() throws Exception {
            NodeLock lock = NodeLockCodec.decode(REF_NODE_LOCK_LEGACY + ",ns,pod-a");
            assertThat(lock.time().toInstant()).isEqualTo(REF_NODE_LOCK_LEGACY_INSTANT);
            assertThat(lock.isHeldBy("ns", "pod-a")).isTrue();
        }

        @Test
        void lockTimeIsWrittenInUtc() throws Exception {
            // design D5 (docs/design.md#d5): "<RFC3339 UTC time>,<namespace>,<pod name>".
            NodeLock lock = NodeLockCodec.decode(REF_NODE_LOCK_LEGACY + ",ns,pod-a");
            assertThat(NodeLockCodec.encode(lock)).isEqualTo("2026-07-03T07:35:10Z,ns,pod-a");
        }

        @Test
        void notATimeIsAnError() {
            assertThatThrownBy(() -> NodeLockCodec.decode(REF_NODE_LOCK_INVALID))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("\"lock\"");
        }

        @Test
        void anythingButThreePartsIsAnError() {
            assertThatThrownBy(() -> NodeLockCodec.decode("2026-08-01T06:00:00Z,pod-a"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("expected 3 parts, got 2");
            assertThatThrownBy(() -> NodeLockCodec.decode("2026-08-01T06:00:00Z,ns,pod,a"))
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("expected 3 parts, got 4");
        }
    }
}
