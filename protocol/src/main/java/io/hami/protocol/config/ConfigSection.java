package io.hami.protocol.config;

/**
 * One vendor's section of the device config: its record, its defaults and its parser. A vendor's
 * {@link io.hami.protocol.spi.DeviceBackendFactory} returns it, so the loader reads the sections of the vendors on
 * the class path and names none of them.
 *
 * @param <T> the vendor's record
 */
public interface ConfigSection<T> {

    /** The key of the section at the top of the file, as in upstream's {@code device-config.yaml}. */
    String name();

    /** The values used for every key the file leaves out, and for the whole section when it is absent. */
    T defaults();

    /**
     * Reads the section. Keys the parser did not ask for are reported by the loader as unknown, with their path.
     */
    T read(ConfigReader section) throws DeviceConfigException;
}
