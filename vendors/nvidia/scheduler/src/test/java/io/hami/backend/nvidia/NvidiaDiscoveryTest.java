package io.hami.backend.nvidia;

import static io.hami.protocol.codec.ProtocolExamples.CURRENT_NVIDIA_REGISTER;
import static io.hami.protocol.codec.ProtocolExamples.CURRENT_NVIDIA_REGISTER_DEVICES;
import static io.hami.protocol.codec.ProtocolExamples.OLDER_NVIDIA_REGISTER_COLON;
import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.spi.Discovery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/upstream.md#discovery: the JSON register annotation. */
class NvidiaDiscoveryTest {
    private final NvidiaBackend backend = new NvidiaBackend(NvidiaConfig.DEFAULTS);

    @Test
    void theProtocolDocExampleIsFound() {
        var node = node("gpu-1", Map.of("hami.io/node-nvidia-register", CURRENT_NVIDIA_REGISTER));
        assertThat(backend.discover(node)).isEqualTo(new Discovery.Found(CURRENT_NVIDIA_REGISTER_DEVICES));
    }

    @Test
    void aNodeWithoutTheAnnotationHasNoNvidiaDevices() {
        assertThat(backend.discover(node("cpu-1", Map.of())))
                .isEqualTo(new Discovery.Absent("no annotation hami.io/node-nvidia-register on node cpu-1"));
    }

    @Test
    void anEmptyArrayOrNullHasNoDevices() {
        assertThat(backend.discover(node("n", Map.of("hami.io/node-nvidia-register", "[]"))))
                .isInstanceOf(Discovery.Absent.class);
        assertThat(backend.discover(node("n", Map.of("hami.io/node-nvidia-register", "null"))))
                .isInstanceOf(Discovery.Absent.class);
    }

    @Test
    void theOlderColonFormIsInvalidForNvidia() {
        var result = backend.discover(node("n", Map.of("hami.io/node-nvidia-register", OLDER_NVIDIA_REGISTER_COLON)));
        assertThat(result).isInstanceOf(Discovery.Invalid.class);
        assertThat(((Discovery.Invalid) result).reason()).startsWith("hami.io/node-nvidia-register on node n: ");
    }

    @Test
    void devicesWhoseTypeLacksNvidiaAreNotNvidias() {
        String register = "[{\"id\":\"GPU-a\",\"count\":10,\"devmem\":1000,\"devcore\":100,\"type\":\"Tesla T4\","
                + "\"health\":true},{\"id\":\"GPU-b\",\"index\":1,\"count\":10,\"devmem\":1000,\"devcore\":100,"
                + "\"type\":\"nvidia-a100\",\"health\":true}]";
        var result = (Discovery.Found) backend.discover(node("n", Map.of("hami.io/node-nvidia-register", register)));
        assertThat(result.devices()).extracting(d -> d.id()).isEqualTo(List.of("GPU-b"));
    }
}
