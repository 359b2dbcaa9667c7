package io.hami.protocol.config;

/** A device config file that cannot be used; the message names the file and the key. */
public final class DeviceConfigException extends Exception {
    public DeviceConfigException(String message) {
        super(message);
    }
}
