package io.hami.protocol.spi;

import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.device.DeviceInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class NodeDiscoveryTest {
    private static final String KEY = "example.io/register";

    private static DeviceInfo typed(String id, String type) {
        return new DeviceInfo(id, 0, 10, 1000, 100, type, 0, "", true);
    }

    @Nested
    class Register {
        private final NodeDiscovery.RegisterDecoder twoDevices =
                value -> List.of(typed("a", "NVIDIA-A100"), typed("b", "Tesla T4"));

        @Test
        void keepsOnlyDevicesWhoseTypeContainsTheVendorInAnyCase() {
            var result = NodeDiscovery.fromRegister(node("n1", Map.of(KEY, "x")), KEY, twoDevices, "nvidia");
            assertThat(result).isEqualTo(new Discovery.Found(List.of(typed("a", "NVIDIA-A100"))));
        }

        @Test
        void aMissingAnnotationIsAbsent() {
            var result = NodeDiscovery.fromRegister(node("n1", Map.of()), KEY, twoDevices, "NVIDIA");
            assertThat(result).isEqualTo(new Discovery.Absent("no annotation example.io/register on node n1"));
        }

        @Test
        void anEmptyListIsAbsent() {
            var result = NodeDiscovery.fromRegister(node("n1", Map.of(KEY, "[]")), KEY, value -> List.of(), "NVIDIA");
            assertThat(result).isEqualTo(new Discovery.Absent("example.io/register on node n1 lists no device"));
        }

        @Test
        void onlyForeignTypesAreAbsentAndNamed() {
            NodeDiscovery.RegisterDecoder foreign = value -> List.of(typed("b", "Tesla T4"));
            var result = NodeDiscovery.fromRegister(node("n1", Map.of(KEY, "x")), KEY, foreign, "NVIDIA");
            assertThat(result)
                    .isEqualTo(
                            new Discovery.Absent(
                                    "example.io/register on node n1 lists no device whose type contains NVIDIA, only [Tesla T4]"));
        }

        @Test
        void aDecodeErrorIsInvalidWithTheDecoderMessage() {
            NodeDiscovery.RegisterDecoder failing = value -> {
                throw new AnnotationFormatException("invalid memory field in device 2: \"12x\"");
            };
            var result = NodeDiscovery.fromRegister(node("n1", Map.of(KEY, "x")), KEY, failing, "NVIDIA");
            assertThat(result)
                    .isEqualTo(new Discovery.Invalid(
                            "example.io/register on node n1: invalid memory field in device 2: \"12x\""));
        }
    }

    @Nested
    class Capacity {
        private final NodeDiscovery.CapacityLayout layout =
                new NodeDiscovery.CapacityLayout("x/cores", "x/memory", 100, 256, "x-dev", "X");

        private static io.fabric8.kubernetes.api.model.Node withCapacity(Map<String, String> capacity) {
            return node("n1", Map.of(), capacity, Map.of());
        }

        @Test
        void onePerHundredCoresRoundedUpWithAnEqualMemoryShare() {
            var result = NodeDiscovery.fromCapacity(withCapacity(Map.of("x/cores", "250", "x/memory", "120")), layout);
            // 120 units * 256 MiB * 100 / 250 cores
            int devmem = 120 * 256 * 100 / 250;
            assertThat(result)
                    .isEqualTo(new Discovery.Found(List.of(
                            new DeviceInfo("n1-x-dev-0", 0, 100, devmem, 100, "X", 0, "", true),
                            new DeviceInfo("n1-x-dev-1", 1, 100, devmem, 100, "X", 0, "", true),
                            new DeviceInfo("n1-x-dev-2", 2, 100, devmem, 100, "X", 0, "", true))));
        }

        @Test
        void memoryIsTruncatedToInt32LikeGo() {
            long units = 100_000_000L;
            var result = (Discovery.Found) NodeDiscovery.fromCapacity(
                    withCapacity(Map.of("x/cores", "100", "x/memory", Long.toString(units))), layout);
            assertThat(result.devices().getFirst().devmem()).isEqualTo((int) (units * 256 * 100 / 100));
        }

        @Test
        void noMemoryCapacityGivesZeroMemory() {
            var result = (Discovery.Found) NodeDiscovery.fromCapacity(withCapacity(Map.of("x/cores", "100")), layout);
            assertThat(result.devices())
                    .singleElement()
                    .extracting(DeviceInfo::devmem)
                    .isEqualTo(0);
        }

        @Test
        void missingOrZeroCoresAreAbsent() {
            assertThat(NodeDiscovery.fromCapacity(withCapacity(Map.of("x/memory", "8")), layout))
                    .isEqualTo(new Discovery.Absent("node n1 has no capacity x/cores"));
            assertThat(NodeDiscovery.fromCapacity(withCapacity(Map.of("x/cores", "0")), layout))
                    .isInstanceOf(Discovery.Absent.class);
        }

        @Test
        void aFractionalCapacityIsInvalid() {
            assertThat(NodeDiscovery.fromCapacity(withCapacity(Map.of("x/cores", "1.5")), layout))
                    .isEqualTo(new Discovery.Invalid("node n1: capacity x/cores is not an integer: 1.5"));
        }

        @Test
        void aHugeCapacityIsInvalidInsteadOfAllocatingMillionsOfDevices() {
            var result = NodeDiscovery.fromCapacity(withCapacity(Map.of("x/cores", "1e12")), layout);
            assertThat(result).isInstanceOf(Discovery.Invalid.class);
            assertThat(((Discovery.Invalid) result).reason()).contains("more than 1024");
        }
    }
}
