package io.hami.nativebind.nvml;

/**
 * One event from an event set. For an XID event ({@link #isXid()}) {@code eventData} is the XID number.
 * The instance ids are 0xFFFFFFFF unless the event belongs to a MIG instance.
 */
public record NvmlEvent(
        int deviceIndex, String uuid, long eventType, long eventData, int gpuInstanceId, int computeInstanceId) {

    public boolean isXid() {
        return (eventType & Nvml.EVENT_XID_CRITICAL_ERROR) != 0;
    }
}
