package io.hami.protocol.codec;

import io.hami.protocol.device.DeviceInfo;
import java.util.List;

/**
 * How one vendor's node register annotation is written and read, encoder and decoder side by side. A vendor's
 * keys carry it, and every writer and reader (the plugin's register loop, the scheduler, {@code hami annotation},
 * the lab) calls it instead of choosing a codec by name. A vendor with a new format supplies its own.
 */
public interface RegisterCodec {

    /** The annotation value of {@code devices}. */
    String encode(List<DeviceInfo> devices);

    /** The devices of an annotation value; a malformed value is an error, never a partial list. */
    List<DeviceInfo> decode(String value) throws AnnotationFormatException;

    /** A JSON array with Go's key order and omitempty: {@link JsonRegisterCodec}. */
    RegisterCodec JSON = new RegisterCodec() {
        @Override
        public String encode(List<DeviceInfo> devices) {
            return JsonRegisterCodec.encode(devices);
        }

        @Override
        public List<DeviceInfo> decode(String value) throws AnnotationFormatException {
            return JsonRegisterCodec.decode(value);
        }

        @Override
        public String toString() {
            return "RegisterCodec.JSON";
        }
    };

    /** The colon form, 9 fields written, 7 or 9 read: {@link LegacyRegisterCodec}. */
    RegisterCodec COLON = new RegisterCodec() {
        @Override
        public String encode(List<DeviceInfo> devices) {
            return LegacyRegisterCodec.encode(devices);
        }

        @Override
        public List<DeviceInfo> decode(String value) throws AnnotationFormatException {
            return LegacyRegisterCodec.decode(value);
        }

        @Override
        public String toString() {
            return "RegisterCodec.COLON";
        }
    };
}
