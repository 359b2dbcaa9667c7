package io.hami.scheduler.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The body is read from the request stream within its limit, then parsed. */
class ExtenderJsonTest {
    private static final String ARGS = "{\"pod\":{\"metadata\":{\"name\":\"p\"}},\"nodenames\":[\"a\",\"b\"]}";

    /** {@code json} padded with trailing spaces to exactly {@code size} bytes. */
    private static InputStream padded(String json, int size) {
        byte[] body = new byte[size];
        java.util.Arrays.fill(body, (byte) ' ');
        byte[] text = json.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(text, 0, body, 0, text.length);
        return new ByteArrayInputStream(body);
    }

    @Test
    void aBodyOfExactlyTheLimitIsReadAndOneByteMoreIsRefused() throws Exception {
        var args = ExtenderJson.read(padded(ARGS, ExtenderJson.MAX_BODY), ExtenderArgs.class);
        assertThat(args.pod().getMetadata().getName()).isEqualTo("p");
        assertThat(args.nodeNames()).containsExactly("a", "b");

        var over = padded(ARGS, ExtenderJson.MAX_BODY + 1);
        assertThatThrownBy(() -> ExtenderJson.read(over, ExtenderArgs.class))
                .isInstanceOfSatisfying(ExtenderJson.BadBodyException.class, e -> {
                    assertThat(e.status()).isEqualTo(413);
                    assertThat(e.getMessage()).isEqualTo("request body exceeds 4194304 bytes");
                });
        assertThat(over.read()).as("the rest of an oversized body is drained").isEqualTo(-1);
    }

    @Test
    void emptyBlankAndUnreadableBodiesAreTold400() {
        assertThatThrownBy(() -> ExtenderJson.read(new ByteArrayInputStream(new byte[0]), ExtenderArgs.class))
                .hasMessage("please send a request body (a JSON ExtenderArgs)")
                .isInstanceOfSatisfying(
                        ExtenderJson.BadBodyException.class,
                        e -> assertThat(e.status()).isEqualTo(400));
        assertThatThrownBy(() -> ExtenderJson.read(
                        new ByteArrayInputStream("  \n".getBytes(StandardCharsets.UTF_8)), ExtenderArgs.class))
                .hasMessageStartingWith("malformed ExtenderArgs: ");
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw new IOException("connection reset");
            }
        };
        assertThatThrownBy(() -> ExtenderJson.read(broken, ExtenderArgs.class))
                .hasMessage("could not read the request body: connection reset")
                .isInstanceOfSatisfying(
                        ExtenderJson.BadBodyException.class,
                        e -> assertThat(e.status()).isEqualTo(400));
    }

    @Test
    void aBodyArrivingInSmallPiecesIsReadWhole() throws Exception {
        byte[] body = ARGS.getBytes(StandardCharsets.UTF_8);
        var trickle = new ByteArrayInputStream(body) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 3));
            }
        };
        assertThat(ExtenderJson.read(trickle, ExtenderArgs.class).nodeNames()).containsExactly("a", "b");
    }
}
