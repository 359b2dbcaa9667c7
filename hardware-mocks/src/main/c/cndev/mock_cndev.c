/*
 * Mock libcndev.so. Device handles are the indexes. Keeps the sMLU profiles and instances a plugin
 * creates, accounts their quota and memory against the card, and writes them to cndev-state.json. Like the
 * driver's, they outlive the process that created them: a new load starts from that file.
 * Built with -DHAMI_MOCK_LEGACY it stands in for a driver without the sMLU calls.
 */
#include "hami_cndev.h"
#include "mock_common.h"

#include <stdio.h>
#include <string.h>

#define MAX_PROFILES 16
#define MAX_INSTANCES 64
#define STATE_FILE "cndev-state.json"

typedef struct {
    int id;
    uint32_t quota;
    uint64_t memory;   /* bytes */
} profile;

typedef struct {
    int id;
    int profile_id;
    char name[CNDEV_MLUINSTANCE_PROFILE_NAME_BUFFER_SIZE];
} instance;

typedef struct {
    profile profiles[MAX_PROFILES];
    int nprofiles;
    int next_profile_id;
    instance instances[MAX_INSTANCES];
    int ninstances;
    int next_instance_id;
} smlu_state;

static smlu_state smlu[MOCK_MAX_DEVICES];
static int init_count;

static const mock_defaults DEFAULTS = {.pci_device_id = 0x0370, .card_type = 23 /* MLU370 */, .compute_units = 0};

#define ENTER(fn)                                                  \
    pthread_mutex_lock(&mock_mutex);                               \
    cndevRet_t rc = (cndevRet_t) mock_call_fault(fn);              \
    if (rc == CNDEV_SUCCESS && init_count == 0) rc = CNDEV_ERROR_UNINITIALIZED

#define LEAVE                          \
    pthread_mutex_unlock(&mock_mutex); \
    return rc

/* Checks the handle and, for versioned structs, the version the caller set. */
static int device_of(cndevDevice_t device, const int32_t *version, cndevRet_t *rc) {
    if (*rc != CNDEV_SUCCESS) return -1;
    if (device < 0 || device >= mock_cfg.count) {
        *rc = CNDEV_ERROR_INVALID_DEVICE_ID;
        return -1;
    }
    if (mock_lost(device)) {
        *rc = CNDEV_ERROR_IN_PROBLEM;
        return -1;
    }
    if (version != NULL && *version != CNDEV_VERSION_5 && *version != CNDEV_VERSION_6) {
        *rc = CNDEV_ERROR_UNSUPPORTED_API_VERSION;
        return -1;
    }
    return device;
}

static profile *find_profile(int device, int id) {
    for (int p = 0; p < smlu[device].nprofiles; p++) {
        if (smlu[device].profiles[p].id == id) return &smlu[device].profiles[p];
    }
    return NULL;
}

static void allocated(int device, uint32_t *quota, uint64_t *memory) {
    *quota = 0;
    *memory = 0;
    for (int k = 0; k < smlu[device].ninstances; k++) {
        const profile *p = find_profile(device, smlu[device].instances[k].profile_id);
        *quota += p->quota;
        *memory += p->memory;
    }
}

static void write_state(void) {
    cJSON *root = cJSON_CreateObject();
    cJSON *devs = cJSON_AddArrayToObject(root, "devices");
    for (int d = 0; d < mock_cfg.count; d++) {
        uint32_t quota;
        uint64_t memory;
        allocated(d, &quota, &memory);
        cJSON *dev = cJSON_CreateObject();
        cJSON_AddNumberToObject(dev, "index", d);
        cJSON_AddStringToObject(dev, "uuid", mock_cfg.dev[d].uuid);
        cJSON_AddNumberToObject(dev, "allocatedMluQuota", quota);
        cJSON_AddNumberToObject(dev, "allocatedMemoryBytes", (double) memory);
        cJSON *profiles = cJSON_AddArrayToObject(dev, "profiles");
        for (int p = 0; p < smlu[d].nprofiles; p++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "profileId", smlu[d].profiles[p].id);
            cJSON_AddNumberToObject(o, "mluQuota", smlu[d].profiles[p].quota);
            cJSON_AddNumberToObject(o, "memoryBytes", (double) smlu[d].profiles[p].memory);
            cJSON_AddItemToArray(profiles, o);
        }
        cJSON *instances = cJSON_AddArrayToObject(dev, "instances");
        for (int k = 0; k < smlu[d].ninstances; k++) {
            const instance *in = &smlu[d].instances[k];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "handle", d * 256 + in->id);
            cJSON_AddNumberToObject(o, "instanceId", in->id);
            cJSON_AddNumberToObject(o, "profileId", in->profile_id);
            cJSON_AddStringToObject(o, "name", in->name);
            cJSON_AddItemToArray(instances, o);
        }
        cJSON_AddItemToArray(devs, dev);
    }
    mock_write_state(STATE_FILE, root);
}

/* Profiles and instances live in the driver, so a restarted plugin finds those its predecessor created. */
static void restore_state(void) {
    cJSON *state = mock_read_state(STATE_FILE);
    const cJSON *dev;
    cJSON_ArrayForEach(dev, cJSON_GetObjectItemCaseSensitive(state, "devices")) {
        int d = (int) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(dev, "index"));
        if (d < 0 || d >= mock_cfg.count) continue;
        smlu_state *s = &smlu[d];
        const cJSON *o;
        cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(dev, "profiles")) {
            if (s->nprofiles == MAX_PROFILES) break;
            profile *p = &s->profiles[s->nprofiles++];
            p->id = (int) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "profileId"));
            p->quota = (uint32_t) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "mluQuota"));
            p->memory = (uint64_t) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "memoryBytes"));
            if (p->id >= s->next_profile_id) s->next_profile_id = p->id + 1;
        }
        cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(dev, "instances")) {
            instance in = {.id = (int) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "instanceId")),
                           .profile_id = (int) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "profileId"))};
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "name"));
            if (s->ninstances == MAX_INSTANCES || find_profile(d, in.profile_id) == NULL) continue;
            snprintf(in.name, sizeof in.name, "%s", name ? name : "");
            s->instances[s->ninstances++] = in;
            if (in.id >= s->next_instance_id) s->next_instance_id = in.id + 1;
        }
    }
    cJSON_Delete(state);
}

MOCK_EXPORT cndevRet_t cndevInit(int32_t reserved) {
    (void) reserved;
    pthread_mutex_lock(&mock_mutex);
    cndevRet_t rc = (cndevRet_t) mock_init_fault();
    if (rc == CNDEV_SUCCESS) rc = (cndevRet_t) mock_call_fault("cndevInit");
    if (rc == CNDEV_SUCCESS && init_count == 0) {
        if (mock_load_devices(&DEFAULTS) != 0) rc = CNDEV_ERROR_NO_DRIVER;
        memset(smlu, 0, sizeof smlu);
        for (int d = 0; d < MOCK_MAX_DEVICES; d++) smlu[d].next_profile_id = smlu[d].next_instance_id = 1;
        if (rc == CNDEV_SUCCESS) {
            restore_state();
            write_state();
        }
    }
    if (rc == CNDEV_SUCCESS) init_count++;
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevRelease(void) {
    pthread_mutex_lock(&mock_mutex);
    cndevRet_t rc = (cndevRet_t) mock_call_fault("cndevRelease");
    if (rc == CNDEV_SUCCESS && init_count > 0) init_count--;
    LEAVE;
}

MOCK_EXPORT const char *cndevGetErrorString(cndevRet_t errorId) {
    switch (errorId) {
    case CNDEV_SUCCESS: return "Success";
    case CNDEV_ERROR_NO_DRIVER: return "No driver";
    case CNDEV_ERROR_LOW_DRIVER_VERSION: return "Driver version is too low";
    case CNDEV_ERROR_UNSUPPORTED_API_VERSION: return "API version is not supported";
    case CNDEV_ERROR_UNINITIALIZED: return "CNDev is not initialized";
    case CNDEV_ERROR_INVALID_ARGUMENT: return "Invalid argument";
    case CNDEV_ERROR_INVALID_DEVICE_ID: return "Invalid device ID";
    case CNDEV_ERROR_UNKNOWN: return "Unknown error";
    case CNDEV_ERROR_MALLOC: return "Failed to allocate memory";
    case CNDEV_ERROR_INSUFFICIENT_SPACE: return "Insufficient space";
    case CNDEV_ERROR_NOT_SUPPORTED: return "Not supported";
    case CNDEV_ERROR_INVALID_LINK: return "Invalid link";
    case CNDEV_ERROR_NO_DEVICES: return "No MLU devices found";
    case CNDEV_ERROR_NO_PERMISSION: return "No permission";
    case CNDEV_ERROR_NOT_FOUND: return "Not found";
    case CNDEV_ERROR_IN_USE: return "Resource in use";
    case CNDEV_ERROR_DUPLICATE: return "Duplicate";
    case CNDEV_ERROR_TIMEOUT: return "Timeout";
    case CNDEV_ERROR_IN_PROBLEM: return "Device in problem";
    default: return "Cndev_ERROR not found!";
    }
}

MOCK_EXPORT cndevRet_t cndevGetDriverVersion(uint32_t *majorVersion, uint32_t *minorVersion, uint32_t *buildVersion) {
    ENTER("cndevGetDriverVersion");
    if (rc == CNDEV_SUCCESS && (majorVersion == NULL || minorVersion == NULL || buildVersion == NULL)) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    if (rc == CNDEV_SUCCESS) {
        *majorVersion = *minorVersion = *buildVersion = 0;
        sscanf(mock_cfg.driver_version, "%u.%u.%u", majorVersion, minorVersion, buildVersion);
    }
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevGetDeviceCount(cndevCardInfo_t *cardNum) {
    ENTER("cndevGetDeviceCount");
    if (rc == CNDEV_SUCCESS && cardNum == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    if (rc == CNDEV_SUCCESS && cardNum->version != CNDEV_VERSION_5 && cardNum->version != CNDEV_VERSION_6) rc = CNDEV_ERROR_UNSUPPORTED_API_VERSION;
    if (rc == CNDEV_SUCCESS) cardNum->number = (uint32_t) mock_cfg.count;
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevGetDeviceHandleByIndex(int32_t index, cndevDevice_t *handle) {
    ENTER("cndevGetDeviceHandleByIndex");
    if (rc == CNDEV_SUCCESS && handle == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    if (device_of(index, NULL, &rc) >= 0) *handle = index;
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevDeviceGetMinorNumber(uint32_t *minor, cndevDevice_t device) {
    ENTER("cndevDeviceGetMinorNumber");
    if (rc == CNDEV_SUCCESS && minor == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, NULL, &rc);
    if (d >= 0) *minor = mock_cfg.dev[d].minor;
    LEAVE;
}

/* The UUID bytes carry no terminating NUL when they fill the array, as documented for the real library. */
MOCK_EXPORT cndevRet_t cndevGetUUID(cndevUUID_t *uuidInfo, cndevDevice_t device) {
    ENTER("cndevGetUUID");
    if (rc == CNDEV_SUCCESS && uuidInfo == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, uuidInfo ? &uuidInfo->version : NULL, &rc);
    if (d >= 0) {
        memset(uuidInfo->uuid, 0, sizeof uuidInfo->uuid);
        size_t n = strlen(mock_cfg.dev[d].uuid);
        memcpy(uuidInfo->uuid, mock_cfg.dev[d].uuid, n < CNDEV_UUID_SIZE ? n : CNDEV_UUID_SIZE);
        uuidInfo->ncsUUID64 = mock_cfg.dev[d].unique_id;
    }
    LEAVE;
}

/* Returns a string, so it cannot report faults: an unknown device gives "Unknown", as the real one does. */
MOCK_EXPORT const char *cndevGetCardNameStringByDevId(cndevDevice_t device) {
    pthread_mutex_lock(&mock_mutex);
    const char *name = device >= 0 && device < mock_cfg.count ? mock_cfg.dev[device].name : "Unknown";
    pthread_mutex_unlock(&mock_mutex);
    return name;
}

MOCK_EXPORT cndevRet_t cndevGetMemoryUsageV2(cndevMemoryInfoV2_t *memInfo, cndevDevice_t device) {
    ENTER("cndevGetMemoryUsageV2");
    if (rc == CNDEV_SUCCESS && memInfo == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, NULL, &rc);
    if (d >= 0) {
        const mock_device *dev = &mock_cfg.dev[d];
        memset(memInfo, 0, sizeof *memInfo);
        memInfo->physicalMemoryTotal = (int64_t) dev->memory_mib;
        memInfo->physicalMemoryUsed = (int64_t) dev->used_mib;
        memInfo->virtualMemoryTotal = (int64_t) dev->memory_mib;
        memInfo->virtualMemoryUsed = (int64_t) dev->used_mib;
        memInfo->globalMemory = dev->memory_mib;
    }
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevGetPCIeInfoV2(cndevPCIeInfoV2_t *deviceInfo, cndevDevice_t device) {
    ENTER("cndevGetPCIeInfoV2");
    if (rc == CNDEV_SUCCESS && deviceInfo == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, NULL, &rc);
    if (d >= 0) {
        const mock_device *dev = &mock_cfg.dev[d];
        memset(deviceInfo, 0, sizeof *deviceInfo);
        deviceInfo->vendor = 0xcabc;
        deviceInfo->deviceId = dev->pci_device_id;
        deviceInfo->subsystemId = dev->pci_subsystem_id;
        deviceInfo->domain = dev->domain;
        deviceInfo->bus = dev->bus;
        deviceInfo->device = dev->device;
        deviceInfo->function = dev->function;
        deviceInfo->slotId = (uint16_t) d;
    }
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevGetNUMANodeIdByDevId(cndevNUMANodeId_t *numaNodeId, cndevDevice_t device) {
    ENTER("cndevGetNUMANodeIdByDevId");
    if (rc == CNDEV_SUCCESS && numaNodeId == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, numaNodeId ? &numaNodeId->version : NULL, &rc);
    if (d >= 0) numaNodeId->nodeId = mock_cfg.dev[d].numa_node;
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevGetCardHealthState(cndevCardHealthState_t *cardHealthState, cndevDevice_t device) {
    ENTER("cndevGetCardHealthState");
    if (rc == CNDEV_SUCCESS && cardHealthState == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, cardHealthState ? &cardHealthState->version : NULL, &rc);
    if (d >= 0) {
        mock_control_refresh(0);
        int healthy = mock_healthy(d);
        cardHealthState->health = healthy;
        cardHealthState->deviceState = healthy ? CNDEV_HEALTH_STATE_DEVICE_GOOD : CNDEV_HEALTH_STATE_DEVICE_IN_PROBLEM;
        cardHealthState->driverState = CNDEV_HEALTH_STATE_DRIVER_RUNNING;
    }
    LEAVE;
}

#ifndef HAMI_MOCK_LEGACY
static uint64_t memory_bytes(int device) {
    return mock_cfg.dev[device].memory_mib << 20;
}

/* How many more instances of a profile fit, given quota and memory already allocated. */
static uint32_t fits(int device, const profile *p, uint32_t quota_used, uint64_t memory_used) {
    uint32_t by_quota = (100 - quota_used) / p->quota;
    uint64_t by_memory = (memory_bytes(device) - memory_used) / p->memory;
    return by_memory < by_quota ? (uint32_t) by_memory : by_quota;
}

MOCK_EXPORT cndevRet_t cndevCreateSMluProfileInfo(cndevSMluSet_t *profileInfo, int *profileId, cndevDevice_t device) {
    ENTER("cndevCreateSMluProfileInfo");
    if (rc == CNDEV_SUCCESS && (profileInfo == NULL || profileId == NULL)) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, profileInfo ? &profileInfo->version : NULL, &rc);
    if (d >= 0) {
        smlu_state *s = &smlu[d];
        if (profileInfo->mluQuota == 0 || profileInfo->mluQuota > 100 || profileInfo->memorySize == 0 ||
            profileInfo->memorySize > memory_bytes(d)) {
            rc = CNDEV_ERROR_INVALID_ARGUMENT;
        } else if (s->nprofiles == MAX_PROFILES) {
            rc = CNDEV_ERROR_INSUFFICIENT_SPACE;
        }
        for (int p = 0; rc == CNDEV_SUCCESS && p < s->nprofiles; p++) {
            if (s->profiles[p].quota == profileInfo->mluQuota && s->profiles[p].memory == profileInfo->memorySize) rc = CNDEV_ERROR_DUPLICATE;
        }
        if (rc == CNDEV_SUCCESS) {
            profile *p = &s->profiles[s->nprofiles++];
            p->id = s->next_profile_id++;
            p->quota = profileInfo->mluQuota;
            p->memory = profileInfo->memorySize;
            *profileId = p->id;
            write_state();
        }
    }
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevDestroySMluProfileInfo(int profileId, cndevDevice_t device) {
    ENTER("cndevDestroySMluProfileInfo");
    int d = device_of(device, NULL, &rc);
    if (d >= 0) {
        smlu_state *s = &smlu[d];
        profile *p = find_profile(d, profileId);
        if (p == NULL) rc = CNDEV_ERROR_NOT_FOUND;
        for (int k = 0; rc == CNDEV_SUCCESS && k < s->ninstances; k++) {
            if (s->instances[k].profile_id == profileId) rc = CNDEV_ERROR_IN_USE;
        }
        if (rc == CNDEV_SUCCESS) {
            *p = s->profiles[--s->nprofiles];
            write_state();
        }
    }
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevGetSMluProfileIdInfo(cndevSMluProfileIdInfo_t *profileId, cndevDevice_t device) {
    ENTER("cndevGetSMluProfileIdInfo");
    if (rc == CNDEV_SUCCESS && profileId == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, profileId ? &profileId->version : NULL, &rc);
    if (d >= 0) {
        profileId->count = smlu[d].nprofiles;
        for (int p = 0; p < smlu[d].nprofiles; p++) profileId->profileId[p] = smlu[d].profiles[p].id;
    }
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevGetSMluProfileInfo(cndevSMluProfileInfo_t *profileInfo, int profileId, cndevDevice_t device) {
    ENTER("cndevGetSMluProfileInfo");
    if (rc == CNDEV_SUCCESS && profileInfo == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, profileInfo ? &profileInfo->version : NULL, &rc);
    const profile *p = d >= 0 ? find_profile(d, profileId) : NULL;
    if (d >= 0 && p == NULL) rc = CNDEV_ERROR_NOT_FOUND;
    if (rc == CNDEV_SUCCESS) {
        uint32_t quota;
        uint64_t memory;
        allocated(d, &quota, &memory);
        profileInfo->profileId = p->id;
        snprintf(profileInfo->name, sizeof profileInfo->name, "%uc.%lluGiB", p->quota, (unsigned long long) (p->memory >> 30));
        profileInfo->totalCapacity = fits(d, p, 0, 0);
        profileInfo->remainCapacity = fits(d, p, quota, memory);
        profileInfo->mluQuota[CNDEV_SMLU_MAX] = p->quota;
        profileInfo->mluQuota[CNDEV_SMLU_USAGE] = 0;
        profileInfo->memorySize[CNDEV_SMLU_MAX] = p->memory;
        profileInfo->memorySize[CNDEV_SMLU_USAGE] = 0;
    }
    LEAVE;
}

MOCK_EXPORT cndevRet_t cndevCreateSMluInstanceByProfileId(cndevMluInstance_t *miHandle, unsigned int profileId, cndevDevice_t device, char *name) {
    ENTER("cndevCreateSMluInstanceByProfileId");
    if (rc == CNDEV_SUCCESS && miHandle == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, NULL, &rc);
    const profile *p = d >= 0 ? find_profile(d, (int) profileId) : NULL;
    if (d >= 0 && p == NULL) rc = CNDEV_ERROR_NOT_FOUND;
    if (rc == CNDEV_SUCCESS) {
        smlu_state *s = &smlu[d];
        uint32_t quota;
        uint64_t memory;
        allocated(d, &quota, &memory);
        if (s->ninstances == MAX_INSTANCES || fits(d, p, quota, memory) == 0) rc = CNDEV_ERROR_INSUFFICIENT_SPACE;
        for (int k = 0; rc == CNDEV_SUCCESS && name != NULL && *name && k < s->ninstances; k++) {
            if (strcmp(s->instances[k].name, name) == 0) rc = CNDEV_ERROR_DUPLICATE;
        }
        if (rc == CNDEV_SUCCESS) {
            instance *in = &s->instances[s->ninstances++];
            in->id = s->next_instance_id++;
            in->profile_id = p->id;
            if (name != NULL && *name) snprintf(in->name, sizeof in->name, "%s", name);
            else snprintf(in->name, sizeof in->name, "smlu-%d-%d", d, in->id);
            *miHandle = d * 256 + in->id;
            write_state();
        }
    }
    LEAVE;
}

/* Handles are device * 256 + instance id. */
static instance *find_instance(cndevMluInstance_t handle, int *device, cndevRet_t *rc) {
    int d = device_of(handle / 256, NULL, rc);
    if (d < 0) return NULL;
    for (int k = 0; k < smlu[d].ninstances; k++) {
        if (smlu[d].instances[k].id == handle % 256) {
            *device = d;
            return &smlu[d].instances[k];
        }
    }
    *rc = CNDEV_ERROR_NOT_FOUND;
    return NULL;
}

MOCK_EXPORT cndevRet_t cndevDestroySMluInstanceByHandle(cndevMluInstance_t miHandle) {
    ENTER("cndevDestroySMluInstanceByHandle");
    int d = -1;
    instance *in = rc == CNDEV_SUCCESS ? find_instance(miHandle, &d, &rc) : NULL;
    if (in != NULL) {
        *in = smlu[d].instances[--smlu[d].ninstances];
        write_state();
    }
    LEAVE;
}

static void fill_info(cndevSMluInfo_t *info, int d, const instance *in) {
    const profile *p = find_profile(d, in->profile_id);
    const mock_device *dev = &mock_cfg.dev[d];
    int32_t version = info->version;
    memset(info, 0, sizeof *info);
    info->version = version;
    info->profileId = in->profile_id;
    info->instanceId = in->id;
    char uuid[CNDEV_UUID_SIZE + 1];
    snprintf(uuid, sizeof uuid, "%.28s-smlu%03d", dev->uuid, in->id);
    memcpy(info->uuid, uuid, strlen(uuid));
    info->domain = (int32_t) dev->domain;
    info->bus = (int32_t) dev->bus;
    info->device = (int32_t) dev->device;
    info->function = (int32_t) dev->function;
    snprintf(info->profileName, sizeof info->profileName, "%uc.%lluGiB", p->quota, (unsigned long long) (p->memory >> 30));
    snprintf(info->instanceName, sizeof info->instanceName, "%s", in->name);
    snprintf(info->devNodeName, sizeof info->devNodeName, "/dev/cambricon-caps/cap_dev%d_mi%d", d, in->id);
    info->mluQuota[CNDEV_SMLU_MAX] = p->quota;
    info->memorySize[CNDEV_SMLU_MAX] = p->memory;
}

MOCK_EXPORT cndevRet_t cndevGetSMluInstanceInfo(cndevSMluInfo_t *smluInfo, cndevMluInstance_t miHandle) {
    ENTER("cndevGetSMluInstanceInfo");
    if (rc == CNDEV_SUCCESS && smluInfo == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    if (rc == CNDEV_SUCCESS && smluInfo->version != CNDEV_VERSION_5 && smluInfo->version != CNDEV_VERSION_6) rc = CNDEV_ERROR_UNSUPPORTED_API_VERSION;
    int d = -1;
    const instance *in = rc == CNDEV_SUCCESS ? find_instance(miHandle, &d, &rc) : NULL;
    if (in != NULL) fill_info(smluInfo, d, in);
    LEAVE;
}

/* *count is the capacity of smluInfo on entry and the number of instances on return. */
MOCK_EXPORT cndevRet_t cndevGetAllSMluInstanceInfo(int *count, cndevSMluInfo_t *smluInfo, cndevDevice_t device) {
    ENTER("cndevGetAllSMluInstanceInfo");
    if (rc == CNDEV_SUCCESS && count == NULL) rc = CNDEV_ERROR_INVALID_ARGUMENT;
    int d = device_of(device, NULL, &rc);
    if (d >= 0) {
        int n = smlu[d].ninstances;
        if (*count < n || (n > 0 && smluInfo == NULL)) {
            rc = CNDEV_ERROR_INSUFFICIENT_SPACE;
        } else if (n > 0 && smluInfo[0].version != CNDEV_VERSION_5 && smluInfo[0].version != CNDEV_VERSION_6) {
            rc = CNDEV_ERROR_UNSUPPORTED_API_VERSION;
        }
        for (int k = 0; rc == CNDEV_SUCCESS && k < n; k++) {
            smluInfo[k].version = smluInfo[0].version;
            fill_info(&smluInfo[k], d, &smlu[d].instances[k]);
        }
        *count = n;
    }
    LEAVE;
}
#endif
