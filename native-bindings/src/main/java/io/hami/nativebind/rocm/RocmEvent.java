package io.hami.nativebind.rocm;

/** One event notification; {@code type} is an {@code rsmi_evt_notification_type_t} (see {@link RocmSmi}). */
public record RocmEvent(int deviceIndex, int type, String message) {}
