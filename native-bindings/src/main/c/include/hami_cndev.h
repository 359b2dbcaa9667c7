/*
 * hami-java's own declaration of the Cambricon CNDev subset it uses (libcndev.so).
 * Prototypes, enum values, constants and struct layouts are facts of the CNDev ABI
 * (docs/upstream.md#native-cndev, sMLU calls as in cndev.h 6.x).
 * The vendor header's __int32_t etc. are the LP64 <stdint.h> types used here.
 */
#ifndef HAMI_CNDEV_H
#define HAMI_CNDEV_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CNDEV_VERSION_5 5
#define CNDEV_VERSION_6 6
#define CNDEV_UUID_SIZE 37
#define CNDEV_MLUINSTANCE_PROFILE_NAME_BUFFER_SIZE 100
#define CNDEV_MLUINSTANCE_DEVICE_NODE_NAME_BUFFER_SIZE 100

typedef int32_t cndevDevice_t;      /* an int handle, not a pointer */
typedef int32_t cndevMluInstance_t;

typedef enum {
    CNDEV_SUCCESS = 0,
    CNDEV_ERROR_NO_DRIVER = 1,
    CNDEV_ERROR_LOW_DRIVER_VERSION = 2,
    CNDEV_ERROR_UNSUPPORTED_API_VERSION = 3,
    CNDEV_ERROR_UNINITIALIZED = 4,
    CNDEV_ERROR_INVALID_ARGUMENT = 5,
    CNDEV_ERROR_INVALID_DEVICE_ID = 6,
    CNDEV_ERROR_UNKNOWN = 7,
    CNDEV_ERROR_MALLOC = 8,
    CNDEV_ERROR_INSUFFICIENT_SPACE = 9,
    CNDEV_ERROR_NOT_SUPPORTED = 10,
    CNDEV_ERROR_INVALID_LINK = 11,
    CNDEV_ERROR_NO_DEVICES = 12,
    CNDEV_ERROR_NO_PERMISSION = 13,
    CNDEV_ERROR_NOT_FOUND = 14,
    CNDEV_ERROR_IN_USE = 15,
    CNDEV_ERROR_DUPLICATE = 16,
    CNDEV_ERROR_TIMEOUT = 17,
    CNDEV_ERROR_IN_PROBLEM = 18
} cndevRet_t;

typedef enum {
    CNDEV_HEALTH_STATE_DEVICE_IN_PROBLEM = 0,
    CNDEV_HEALTH_STATE_DEVICE_GOOD = 1
} cndevHealthStateEnum_t;

typedef enum {
    CNDEV_HEALTH_STATE_DRIVER_EARLY_INITED = 0,
    CNDEV_HEALTH_STATE_DRIVER_BRING_UP = 1,
    CNDEV_HEALTH_STATE_DRIVER_BOOTING = 2,
    CNDEV_HEALTH_STATE_DRIVER_LATEINIT = 3,
    CNDEV_HEALTH_STATE_DRIVER_RUNNING = 4,
    CNDEV_HEALTH_STATE_DRIVER_BOOT_ERROR = 5,
    CNDEV_HEALTH_STATE_DRIVER_RESET = 6,
    CNDEV_HEALTH_STATE_DRIVER_RESET_ERROR = 7,
    CNDEV_HEALTH_STATE_DRIVER_UNKNOWN = 8
} cndevDriverHealthStateEnum_t;

typedef enum {
    CNDEV_SMLU_MAX = 0,
    CNDEV_SMLU_USAGE = 1,
    CNDEV_SMLU_ITEM_COUNT
} cndevSMluItemEnum_t;

typedef struct {
    int32_t version;
    uint32_t number;
} cndevCardInfo_t;

typedef struct {
    int32_t version;
    uint8_t uuid[CNDEV_UUID_SIZE];   /* not NUL-terminated */
    uint64_t ncsUUID64;
} cndevUUID_t;

typedef struct {                     /* all MB; no version field */
    int64_t physicalMemoryTotal;
    int64_t physicalMemoryUsed;
    int64_t reservedMemory;
    int64_t virtualMemoryTotal;
    int64_t virtualMemoryUsed;
    uint64_t globalMemory;
    uint64_t reserved[16];
} cndevMemoryInfoV2_t;

typedef struct {                     /* no version field */
    uint32_t subsystemId;
    uint32_t deviceId;
    uint16_t vendor;
    uint16_t subsystemVendor;
    uint32_t domain;
    uint32_t bus;
    uint32_t device;
    uint32_t function;
    uint16_t moduleId;
    uint16_t slotId;
    uint32_t reserved[8];
} cndevPCIeInfoV2_t;

typedef struct {
    int32_t version;
    int32_t nodeId;
} cndevNUMANodeId_t;

typedef struct {
    int32_t version;
    int32_t health;                               /* 1 healthy, 0 sick */
    cndevHealthStateEnum_t deviceState;
    cndevDriverHealthStateEnum_t driverState;
} cndevCardHealthState_t;

typedef struct {
    int32_t version;
    uint32_t mluQuota;                            /* percent of the card */
    uint64_t memorySize;                          /* bytes */
} cndevSMluSet_t;

typedef struct {
    int32_t version;
    int32_t count;
    int32_t profileId[128];
} cndevSMluProfileIdInfo_t;

typedef struct {
    int32_t version;
    int32_t profileId;
    char name[CNDEV_MLUINSTANCE_PROFILE_NAME_BUFFER_SIZE];
    uint32_t totalCapacity;
    uint32_t remainCapacity;
    uint32_t mluQuota[CNDEV_SMLU_ITEM_COUNT];
    uint64_t memorySize[CNDEV_SMLU_ITEM_COUNT];
} cndevSMluProfileInfo_t;

typedef struct {
    int32_t version;
    int32_t profileId;
    int32_t instanceId;
    uint8_t uuid[CNDEV_UUID_SIZE];
    int32_t domain;
    int32_t bus;
    int32_t device;
    int32_t function;
    char profileName[CNDEV_MLUINSTANCE_PROFILE_NAME_BUFFER_SIZE];
    char instanceName[CNDEV_MLUINSTANCE_PROFILE_NAME_BUFFER_SIZE];
    char devNodeName[CNDEV_MLUINSTANCE_DEVICE_NODE_NAME_BUFFER_SIZE];
    uint32_t mluQuota[CNDEV_SMLU_ITEM_COUNT];
    uint64_t memorySize[CNDEV_SMLU_ITEM_COUNT];
    uint32_t reserved[128];
} cndevSMluInfo_t;

cndevRet_t cndevInit(int32_t reserved);
cndevRet_t cndevRelease(void);
const char *cndevGetErrorString(cndevRet_t errorId);
cndevRet_t cndevGetDriverVersion(uint32_t *majorVersion, uint32_t *minorVersion, uint32_t *buildVersion);
cndevRet_t cndevGetDeviceCount(cndevCardInfo_t *cardNum);
cndevRet_t cndevGetDeviceHandleByIndex(int32_t index, cndevDevice_t *handle);
cndevRet_t cndevDeviceGetMinorNumber(uint32_t *minor, cndevDevice_t device);
cndevRet_t cndevGetUUID(cndevUUID_t *uuidInfo, cndevDevice_t device);
const char *cndevGetCardNameStringByDevId(cndevDevice_t device);
cndevRet_t cndevGetMemoryUsageV2(cndevMemoryInfoV2_t *memInfo, cndevDevice_t device);
cndevRet_t cndevGetPCIeInfoV2(cndevPCIeInfoV2_t *deviceInfo, cndevDevice_t device);
cndevRet_t cndevGetNUMANodeIdByDevId(cndevNUMANodeId_t *numaNodeId, cndevDevice_t device);
cndevRet_t cndevGetCardHealthState(cndevCardHealthState_t *cardHealthState, cndevDevice_t device);
cndevRet_t cndevCreateSMluProfileInfo(cndevSMluSet_t *profileInfo, int *profileId, cndevDevice_t device);
cndevRet_t cndevDestroySMluProfileInfo(int profileId, cndevDevice_t device);
cndevRet_t cndevGetSMluProfileIdInfo(cndevSMluProfileIdInfo_t *profileId, cndevDevice_t device);
cndevRet_t cndevGetSMluProfileInfo(cndevSMluProfileInfo_t *profileInfo, int profile, cndevDevice_t device);
cndevRet_t cndevCreateSMluInstanceByProfileId(cndevMluInstance_t *miHandle, unsigned int profileId, cndevDevice_t device, char *name);
cndevRet_t cndevDestroySMluInstanceByHandle(cndevMluInstance_t miHandle);
cndevRet_t cndevGetSMluInstanceInfo(cndevSMluInfo_t *smluInfo, cndevMluInstance_t miHandle);
cndevRet_t cndevGetAllSMluInstanceInfo(int *count, cndevSMluInfo_t *smluInfo, cndevDevice_t device);

#ifdef __cplusplus
}
#endif
#endif
