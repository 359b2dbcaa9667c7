/*
 * Mock libhydmi.so.1 (Hygon vDCU management). There is no init call: devices.json is read on the first
 * call, as the real library opens /dev/mkfd on first use. Virtual devices a plugin creates are accounted
 * against their card's compute units and memory and written to hydmi-state.json. Like the driver's, they
 * outlive the process that created them: a new load starts from that file.
 */
#include "hami_hydmi.h"
#include "mock_common.h"

#include <stdio.h>
#include <string.h>

#define MAX_VDEV_PER_DEVICE 4
#define MAX_VDEVS (MAX_VDEV_PER_DEVICE * MOCK_MAX_DEVICES)
#define STATE_FILE "hydmi-state.json"

typedef struct {
    int used;
    int device;
    int cus;
    int memory_mib;
} vdev;

static vdev vdevs[MAX_VDEVS];
static int loaded;

static const mock_defaults DEFAULTS = {.pci_device_id = 0x62b7, .card_type = 0, .compute_units = 120};

static void write_state(void) {
    cJSON *root = cJSON_CreateObject();
    cJSON *devs = cJSON_AddArrayToObject(root, "devices");
    for (int d = 0; d < mock_cfg.count; d++) {
        int cus = 0;
        long long mib = 0;
        for (int v = 0; v < MAX_VDEVS; v++) {
            if (vdevs[v].used && vdevs[v].device == d) {
                cus += vdevs[v].cus;
                mib += vdevs[v].memory_mib;
            }
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", d);
        cJSON_AddStringToObject(o, "uuid", mock_cfg.dev[d].uuid);
        cJSON_AddNumberToObject(o, "allocatedComputeUnits", cus);
        cJSON_AddNumberToObject(o, "allocatedMemoryMiB", (double) mib);
        cJSON_AddItemToArray(devs, o);
    }
    cJSON *list = cJSON_AddArrayToObject(root, "virtualDevices");
    for (int v = 0; v < MAX_VDEVS; v++) {
        if (!vdevs[v].used) continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", v);
        cJSON_AddNumberToObject(o, "device", vdevs[v].device);
        cJSON_AddNumberToObject(o, "computeUnits", vdevs[v].cus);
        cJSON_AddNumberToObject(o, "memoryMiB", vdevs[v].memory_mib);
        cJSON_AddItemToArray(list, o);
    }
    mock_write_state(STATE_FILE, root);
}

/* Virtual devices live in the driver, so a restarted plugin finds those its predecessor created. */
static void restore_state(void) {
    cJSON *state = mock_read_state(STATE_FILE);
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(state, "virtualDevices")) {
        int id = (int) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "id"));
        int device = (int) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "device"));
        if (id < 0 || id >= MAX_VDEVS || device < 0 || device >= mock_cfg.count) continue;
        vdevs[id].used = 1;
        vdevs[id].device = device;
        vdevs[id].cus = (int) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "computeUnits"));
        vdevs[id].memory_mib = (int) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "memoryMiB"));
    }
    cJSON_Delete(state);
}

/* Counts the call, then loads devices on first use; an initError in the control file fails every call until then. */
static dmiStatus enter(const char *fn) {
    pthread_mutex_lock(&mock_mutex);
    dmiStatus rc = (dmiStatus) mock_call_fault(fn);
    if (rc == DMI_STATUS_SUCCESS && !loaded) {
        rc = (dmiStatus) mock_init_fault();
        if (rc == DMI_STATUS_SUCCESS && mock_load_devices(&DEFAULTS) != 0) rc = DMI_STATUS_OPEN_MKFD_FAILED;
        if (rc == DMI_STATUS_SUCCESS) {
            loaded = 1;
            restore_state();
            write_state();
        }
    }
    return rc;
}

#define ENTER(fn) dmiStatus rc = enter(fn)
#define LEAVE                          \
    pthread_mutex_unlock(&mock_mutex); \
    return rc

/* A lost card's sysfs node is gone. */
static int device_of(int device_id, dmiStatus *rc) {
    if (*rc != DMI_STATUS_SUCCESS) return -1;
    if (device_id < 0 || device_id >= mock_cfg.count) {
        *rc = DMI_STATUS_INVALID_ARGUMENTS;
        return -1;
    }
    if (mock_lost(device_id)) {
        *rc = DMI_STATUS_SYS_NODE_NOT_EXIST;
        return -1;
    }
    return device_id;
}

static void allocated(int device, int *cus, uint64_t *bytes, int *count) {
    *cus = 0;
    *bytes = 0;
    *count = 0;
    for (int v = 0; v < MAX_VDEVS; v++) {
        if (vdevs[v].used && vdevs[v].device == device) {
            *cus += vdevs[v].cus;
            *bytes += (uint64_t) vdevs[v].memory_mib << 20;
            (*count)++;
        }
    }
}

static const char *status_text(dmiStatus status) {
    switch (status) {
    case DMI_STATUS_SUCCESS: return "Success";
    case DMI_STATUS_ERROR: return "General error";
    case DMI_STATUS_NO_MEMORY: return "Out of memory";
    case DMI_STATUS_OPEN_MKFD_FAILED: return "Failed to open /dev/mkfd";
    case DMI_STATUS_MKFD_ALREADY_OPENED: return "/dev/mkfd is already opened";
    case DMI_STATUS_SYS_NODE_NOT_EXIST: return "System node does not exist";
    case DMI_STATUS_NOT_SUPPORTED: return "Not supported";
    case DMI_STATUS_MKFD_NOT_OPENED: return "/dev/mkfd is not opened";
    case DMI_STATUS_CREATE_VDEV_FAILED: return "Failed to create virtual device";
    case DMI_STATUS_DESTROY_VDEV_FAILED: return "Failed to destroy virtual device";
    case DMI_STATUS_INVALID_ARGUMENTS: return "Invalid arguments";
    case DMI_STATUS_OUT_OF_RESOURCES: return "Out of resources";
    case DMI_STATUS_QUERY_VDEV_INFO_FAILED: return "Failed to query virtual device info";
    case DMI_STATUS_ERROR_NOT_INITIALIZED: return "Not initialized";
    case DMI_STATUS_DEVICE_NOT_SUPPORT: return "Device does not support virtualization";
    case DMI_STATUS_VDEV_NOT_EXIST: return "Virtual device does not exist";
    case DMI_STATUS_INIT_DEVICE_FAILED: return "Failed to initialize device";
    case DMI_STATUS_DEVICE_BUSY: return "Device is busy";
    case DMI_STATUS_FILE_ERROR: return "File error";
    case DMI_STATUS_PERMISSION: return "Permission denied";
    case DMI_STATUS_INTERNAL_EXCEPTION: return "Internal exception";
    case DMI_STATUS_INPUT_OUT_OF_BOUNDS: return "Input out of bounds";
    case DMI_STATUS_SMI_INIT_ERROR: return "SMI initialization error";
    case DMI_STATUS_NOT_FOUND: return "Not found";
    case DMI_STATUS_INSUFFICIENT_SIZE: return "Insufficient size";
    case DMI_STATUS_INTERRUPT: return "Interrupted";
    case DMI_STATUS_UNEXPECTED_SIZE: return "Unexpected size";
    case DMI_STATUS_NO_DATA: return "No data";
    case DMI_STATUS_UNEXPECTED_DATA: return "Unexpected data";
    case DMI_STATUS_SMI_BUSY: return "SMI busy";
    case DMI_STATUS_REFCOUNT_OVERFLOW: return "Reference count overflow";
    case DMI_STATUS_NOT_YET_IMPLEMENTED: return "Not yet implemented";
    default: return "Unknown error";
    }
}

MOCK_EXPORT dmiStatus dmiGetStatusString(dmiStatus status, const char **status_string) {
    if (status_string == NULL) return DMI_STATUS_INVALID_ARGUMENTS;
    *status_string = status_text(status);
    return DMI_STATUS_SUCCESS;
}

MOCK_EXPORT dmiStatus dmiGetDeviceCount(int *count) {
    ENTER("dmiGetDeviceCount");
    if (rc == DMI_STATUS_SUCCESS && count == NULL) rc = DMI_STATUS_INVALID_ARGUMENTS;
    if (rc == DMI_STATUS_SUCCESS) *count = mock_cfg.count;
    LEAVE;
}

MOCK_EXPORT dmiStatus dmiGetDeviceInfo(int device_id, dmiDeviceInfo *device_info) {
    ENTER("dmiGetDeviceInfo");
    int d = device_of(device_id, &rc);
    if (d >= 0 && device_info == NULL) rc = DMI_STATUS_INVALID_ARGUMENTS;
    if (rc == DMI_STATUS_SUCCESS) {
        int cus, count;
        uint64_t bytes;
        allocated(d, &cus, &bytes, &count);
        memset(device_info, 0, sizeof *device_info);
        snprintf(device_info->name, sizeof device_info->name, "%s", mock_cfg.dev[d].name);
        device_info->compute_unit_count = mock_cfg.dev[d].compute_units;
        device_info->global_mem_size = mock_cfg.dev[d].memory_mib << 20;
        device_info->usage_mem_size = bytes;
        device_info->device_id = d;
    }
    LEAVE;
}

MOCK_EXPORT dmiStatus dmiGetDeviceRemainingInfo(int device_id, size_t *cus, size_t *memories) {
    ENTER("dmiGetDeviceRemainingInfo");
    int d = device_of(device_id, &rc);
    if (d >= 0 && (cus == NULL || memories == NULL)) rc = DMI_STATUS_INVALID_ARGUMENTS;
    if (rc == DMI_STATUS_SUCCESS) {
        int used_cus, count;
        uint64_t used_bytes;
        allocated(d, &used_cus, &used_bytes, &count);
        *cus = (size_t) (mock_cfg.dev[d].compute_units - used_cus);
        *memories = (mock_cfg.dev[d].memory_mib << 20) - used_bytes;
    }
    LEAVE;
}

MOCK_EXPORT dmiStatus dmiGetMaxVDeviceCount(int *count) {
    ENTER("dmiGetMaxVDeviceCount");
    if (rc == DMI_STATUS_SUCCESS && count == NULL) rc = DMI_STATUS_INVALID_ARGUMENTS;
    if (rc == DMI_STATUS_SUCCESS) *count = MAX_VDEV_PER_DEVICE;
    LEAVE;
}

MOCK_EXPORT dmiStatus dmiGetVDeviceCount(int *count) {
    ENTER("dmiGetVDeviceCount");
    if (rc == DMI_STATUS_SUCCESS && count == NULL) rc = DMI_STATUS_INVALID_ARGUMENTS;
    if (rc == DMI_STATUS_SUCCESS) {
        *count = 0;
        for (int v = 0; v < MAX_VDEVS; v++) *count += vdevs[v].used;
    }
    LEAVE;
}

MOCK_EXPORT dmiStatus dmiGetVDeviceInfo(int vdevice_id, dmiDeviceInfo *device_info) {
    ENTER("dmiGetVDeviceInfo");
    if (rc == DMI_STATUS_SUCCESS && device_info == NULL) rc = DMI_STATUS_INVALID_ARGUMENTS;
    if (rc == DMI_STATUS_SUCCESS && (vdevice_id < 0 || vdevice_id >= MAX_VDEVS || !vdevs[vdevice_id].used)) rc = DMI_STATUS_VDEV_NOT_EXIST;
    if (rc == DMI_STATUS_SUCCESS) device_of(vdevs[vdevice_id].device, &rc);
    if (rc == DMI_STATUS_SUCCESS) {
        const vdev *v = &vdevs[vdevice_id];
        memset(device_info, 0, sizeof *device_info);
        snprintf(device_info->name, sizeof device_info->name, "vdev%d", vdevice_id);
        device_info->compute_unit_count = v->cus;
        device_info->global_mem_size = (size_t) v->memory_mib << 20;
        device_info->device_id = v->device;
    }
    LEAVE;
}

/* All or nothing: each new virtual device takes the lowest free id. */
MOCK_EXPORT dmiStatus dmiCreateVDevices(int device_id, int vdev_count, int *vdev_cus, int *vdev_mem_size) {
    ENTER("dmiCreateVDevices");
    int d = device_of(device_id, &rc);
    if (d >= 0 && (vdev_count <= 0 || vdev_cus == NULL || vdev_mem_size == NULL)) rc = DMI_STATUS_INVALID_ARGUMENTS;
    int want_cus = 0;
    long long want_mib = 0;
    for (int k = 0; rc == DMI_STATUS_SUCCESS && k < vdev_count; k++) {
        if (vdev_cus[k] <= 0 || vdev_mem_size[k] <= 0) rc = DMI_STATUS_INVALID_ARGUMENTS;
        want_cus += vdev_cus[k];
        want_mib += vdev_mem_size[k];
    }
    if (rc == DMI_STATUS_SUCCESS) {
        int cus, count;
        uint64_t bytes;
        allocated(d, &cus, &bytes, &count);
        if (count + vdev_count > MAX_VDEV_PER_DEVICE || cus + want_cus > mock_cfg.dev[d].compute_units ||
            bytes + ((uint64_t) want_mib << 20) > (mock_cfg.dev[d].memory_mib << 20)) {
            rc = DMI_STATUS_OUT_OF_RESOURCES;
        }
    }
    for (int k = 0, v = 0; rc == DMI_STATUS_SUCCESS && k < vdev_count; k++) {
        while (vdevs[v].used) v++;
        vdevs[v] = (vdev) {.used = 1, .device = d, .cus = vdev_cus[k], .memory_mib = vdev_mem_size[k]};
    }
    if (rc == DMI_STATUS_SUCCESS) write_state();
    LEAVE;
}

MOCK_EXPORT dmiStatus dmiDestroyVDevices(int device_id) {
    ENTER("dmiDestroyVDevices");
    int d = device_of(device_id, &rc);
    int destroyed = 0;
    for (int v = 0; d >= 0 && v < MAX_VDEVS; v++) {
        if (vdevs[v].used && vdevs[v].device == d) {
            vdevs[v].used = 0;
            destroyed++;
        }
    }
    if (rc == DMI_STATUS_SUCCESS && destroyed == 0) rc = DMI_STATUS_VDEV_NOT_EXIST;
    if (destroyed > 0) write_state();
    LEAVE;
}

MOCK_EXPORT dmiStatus dmiDestroySingleVDevice(int vdevice_id) {
    ENTER("dmiDestroySingleVDevice");
    if (rc == DMI_STATUS_SUCCESS && (vdevice_id < 0 || vdevice_id >= MAX_VDEVS || !vdevs[vdevice_id].used)) rc = DMI_STATUS_VDEV_NOT_EXIST;
    if (rc == DMI_STATUS_SUCCESS) device_of(vdevs[vdevice_id].device, &rc);
    if (rc == DMI_STATUS_SUCCESS) {
        vdevs[vdevice_id].used = 0;
        write_state();
    }
    LEAVE;
}
