package io.hami.plugin.register;

/** What the register loop and the handshake responder report about their Node patches (the metrics record it). */
public interface NodeWriteObserver {
    /** Records nothing. */
    NodeWriteObserver NONE = new NodeWriteObserver() {
        @Override
        public void registerWritten(boolean written) {}

        @Override
        public void handshakeAnswered(boolean answered) {}
    };

    /** One patch of the register annotation: written, or failed (retried after the short wait). */
    void registerWritten(boolean written);

    /** One answer to a {@code Requesting_} handshake: written, or failed (answered on a later poll). */
    void handshakeAnswered(boolean answered);
}
