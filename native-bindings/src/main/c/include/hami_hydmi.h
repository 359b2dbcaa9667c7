/*
 * hami-java's own declaration of the Hygon DCU Management Interface subset it uses (libhydmi.so.1):
 * physical device info and virtual device (vDCU) create/destroy. Prototypes, enum values and the struct
 * layout are facts of the ABI (docs/upstream.md#native-hydmi). Devices are indexes.
 */
#ifndef HAMI_HYDMI_H
#define HAMI_HYDMI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    DMI_STATUS_SUCCESS = 0,
    DMI_STATUS_ERROR = 1,
    DMI_STATUS_NO_MEMORY = 2,
    DMI_STATUS_OPEN_MKFD_FAILED = 3,
    DMI_STATUS_MKFD_ALREADY_OPENED = 4,
    DMI_STATUS_SYS_NODE_NOT_EXIST = 5,
    DMI_STATUS_NOT_SUPPORTED = 6,
    DMI_STATUS_MKFD_NOT_OPENED = 7,
    DMI_STATUS_CREATE_VDEV_FAILED = 8,
    DMI_STATUS_DESTROY_VDEV_FAILED = 9,
    DMI_STATUS_INVALID_ARGUMENTS = 10,
    DMI_STATUS_OUT_OF_RESOURCES = 11,
    DMI_STATUS_QUERY_VDEV_INFO_FAILED = 12,
    DMI_STATUS_ERROR_NOT_INITIALIZED = 13,
    DMI_STATUS_DEVICE_NOT_SUPPORT = 14,
    DMI_STATUS_VDEV_NOT_EXIST = 15,
    DMI_STATUS_INIT_DEVICE_FAILED = 16,
    DMI_STATUS_DEVICE_BUSY = 17,
    DMI_STATUS_FILE_ERROR = 18,
    DMI_STATUS_PERMISSION = 19,
    DMI_STATUS_INTERNAL_EXCEPTION = 20,
    DMI_STATUS_INPUT_OUT_OF_BOUNDS = 21,
    DMI_STATUS_SMI_INIT_ERROR = 22,
    DMI_STATUS_NOT_FOUND = 23,
    DMI_STATUS_INSUFFICIENT_SIZE = 24,
    DMI_STATUS_INTERRUPT = 25,
    DMI_STATUS_UNEXPECTED_SIZE = 26,
    DMI_STATUS_NO_DATA = 27,
    DMI_STATUS_UNEXPECTED_DATA = 28,
    DMI_STATUS_SMI_BUSY = 29,
    DMI_STATUS_REFCOUNT_OVERFLOW = 30,
    DMI_STATUS_NOT_YET_IMPLEMENTED = 31,
    DMI_STATUS_UNKNOWN_ERROR = 32
} dmiStatus;

#define DMI_NAME_SIZE (256)

typedef struct {
    char name[DMI_NAME_SIZE];
    int compute_unit_count;
    size_t global_mem_size;      /* bytes */
    size_t usage_mem_size;       /* bytes */
    uint64_t container_id;       /* virtual devices only */
    int device_id;               /* physical card index */
} dmiDeviceInfo;

dmiStatus dmiGetDeviceCount(int *count);
dmiStatus dmiGetDeviceInfo(int device_id, dmiDeviceInfo *device_info);
dmiStatus dmiGetDeviceRemainingInfo(int device_id, size_t *cus, size_t *memories);
dmiStatus dmiGetStatusString(dmiStatus status, const char **status_string);
dmiStatus dmiGetMaxVDeviceCount(int *count);
dmiStatus dmiGetVDeviceCount(int *count);
dmiStatus dmiGetVDeviceInfo(int vdevice_id, dmiDeviceInfo *device_info);
/* vdev_mem_size entries are MiB */
dmiStatus dmiCreateVDevices(int device_id, int vdev_count, int *vdev_cus, int *vdev_mem_size);
dmiStatus dmiDestroyVDevices(int device_id);
dmiStatus dmiDestroySingleVDevice(int vdevice_id);

#ifdef __cplusplus
}
#endif
#endif
