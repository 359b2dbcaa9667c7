package io.hami.plugin;

/** The plugin cannot start (no vendor library, no devices, no API server); the message says what to fix. */
public final class PluginStartException extends Exception {
    public PluginStartException(String message, Throwable cause) {
        super(message, cause);
    }

    public PluginStartException(String message) {
        super(message);
    }
}
