package io.hami.nativebind.nvml;

import io.hami.nativebind.nvml.raw.nvml_h;

/** {@code nvmlIntNvLinkDeviceType_t}: what the far end of an NVLink is. */
public enum NvmlNvLinkDeviceType {
    GPU(nvml_h.NVML_NVLINK_DEVICE_TYPE_GPU()),
    IBMNPU(nvml_h.NVML_NVLINK_DEVICE_TYPE_IBMNPU()),
    SWITCH(nvml_h.NVML_NVLINK_DEVICE_TYPE_SWITCH()),
    /** NVML's own UNKNOWN, and any value this binding does not know. */
    UNKNOWN(nvml_h.NVML_NVLINK_DEVICE_TYPE_UNKNOWN());

    private final int code;

    NvmlNvLinkDeviceType(int code) {
        this.code = code;
    }

    /** The C enum value. */
    public int code() {
        return code;
    }

    public static NvmlNvLinkDeviceType of(int code) {
        for (NvmlNvLinkDeviceType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        return UNKNOWN;
    }
}
