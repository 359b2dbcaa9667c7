package io.hami.plugin.register;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cards of a register value left by an earlier run, marked unhealthy while the library cannot be used. */
class RegisterWithdrawalTest {
    private static final DeviceInfo GPU0 =
            new DeviceInfo("GPU-0", 0, 10, 16384, 100, "NVIDIA-Tesla T4", 0, "hami-core", true);
    private static final DeviceInfo GPU1 =
            new DeviceInfo("GPU-1", 1, 10, 16384, 100, "NVIDIA-Tesla T4", 1, "hami-core", false);

    @Test
    void everyCardIsKeptAndMarkedUnhealthyInEitherEncoding() throws Exception {
        for (RegisterCodec codec : List.of(RegisterCodec.JSON, RegisterCodec.COLON)) {
            String value = codec.encode(List.of(GPU0, GPU1));

            List<DeviceInfo> cards = RegisterWithdrawal.unhealthy(codec, value).orElseThrow();

            assertThat(cards).containsExactly(GPU0.withHealth(false), GPU1);
            assertThat(codec.decode(codec.encode(cards))).containsExactly(GPU0.withHealth(false), GPU1);
        }
    }

    @Test
    void aValueWithoutHealthyCardsNeedsNoWriteAndAnUnreadableOneIsAnError() throws Exception {
        assertThat(RegisterWithdrawal.unhealthy(RegisterCodec.JSON, RegisterCodec.JSON.encode(List.of(GPU1))))
                .isEmpty();
        assertThat(RegisterWithdrawal.unhealthy(RegisterCodec.JSON, "[]")).isEmpty();
        assertThatThrownBy(() -> RegisterWithdrawal.unhealthy(RegisterCodec.JSON, "[{\"index\":-3}]"))
                .isInstanceOf(AnnotationFormatException.class);
    }
}
