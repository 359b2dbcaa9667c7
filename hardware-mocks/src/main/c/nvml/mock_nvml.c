/*
 * Mock libnvidia-ml.so.1. Handles point into a static per-device array, as the real library's do.
 * Built with -DHAMI_MOCK_LEGACY it stands in for an older driver without nvmlDeviceGetMemoryInfo_v2.
 */
#define _GNU_SOURCE /* PATH_MAX, DIR */
#include "hami_nvml.h"
#include "mock_common.h"

#include "hami_shared_region.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct nvmlDevice_st {
    int index;
};

#define MAX_SETS 16

struct nvmlEventSet_st {
    int used;
    unsigned long long mask[MOCK_MAX_DEVICES];
};

static struct nvmlDevice_st devices[MOCK_MAX_DEVICES];
static struct nvmlEventSet_st sets[MAX_SETS];
static int init_count;

static const mock_defaults DEFAULTS = {.pci_device_id = 0x20B010DE, .card_type = 0, .compute_units = 0};
static const unsigned long long SUPPORTED_EVENTS =
    nvmlEventTypeSingleBitEccError | nvmlEventTypeDoubleBitEccError | nvmlEventTypeXidCriticalError;

/* Every entry point: count the call against injected failures, then check initialisation. */
#define ENTER(fn)                                                   \
    pthread_mutex_lock(&mock_mutex);                                \
    nvmlReturn_t rc = (nvmlReturn_t) mock_call_fault(fn);           \
    if (rc == NVML_SUCCESS && init_count == 0) rc = NVML_ERROR_UNINITIALIZED

#define LEAVE                          \
    pthread_mutex_unlock(&mock_mutex); \
    return rc

/* The device behind a handle, or -1 after setting rc; a lost device answers GPU_IS_LOST. */
static int device_of(nvmlDevice_t device, nvmlReturn_t *rc) {
    if (*rc != NVML_SUCCESS) return -1;
    if (device == NULL || device < devices || device >= devices + mock_cfg.count) {
        *rc = NVML_ERROR_INVALID_ARGUMENT;
        return -1;
    }
    int i = (int) (device - devices);
    if (mock_lost(i)) {
        *rc = NVML_ERROR_GPU_IS_LOST;
        return -1;
    }
    return i;
}

MOCK_EXPORT nvmlReturn_t nvmlInit_v2(void) {
    pthread_mutex_lock(&mock_mutex);
    nvmlReturn_t rc = (nvmlReturn_t) mock_init_fault();
    if (rc == NVML_SUCCESS) rc = (nvmlReturn_t) mock_call_fault("nvmlInit_v2");
    if (rc == NVML_SUCCESS && init_count == 0) {
        if (mock_load_devices(&DEFAULTS) != 0) rc = NVML_ERROR_DRIVER_NOT_LOADED;
        for (int i = 0; i < mock_cfg.count; i++) devices[i].index = i;
        memset(sets, 0, sizeof sets);
    }
    if (rc == NVML_SUCCESS) init_count++;
    LEAVE;
}

/* Reference-counted like the real library; a surplus shutdown is not an error. */
MOCK_EXPORT nvmlReturn_t nvmlShutdown(void) {
    pthread_mutex_lock(&mock_mutex);
    nvmlReturn_t rc = (nvmlReturn_t) mock_call_fault("nvmlShutdown");
    if (rc == NVML_SUCCESS && init_count > 0) init_count--;
    LEAVE;
}

MOCK_EXPORT const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case NVML_ERROR_ALREADY_INITIALIZED: return "Already Initialized";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_INSUFFICIENT_POWER: return "Insufficient External Power";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_TIMEOUT: return "Timeout";
    case NVML_ERROR_IRQ_ISSUE: return "Interrupt request issue";
    case NVML_ERROR_LIBRARY_NOT_FOUND: return "NVML Shared Library Not Found";
    case NVML_ERROR_FUNCTION_NOT_FOUND: return "Function Not Found";
    case NVML_ERROR_CORRUPTED_INFOROM: return "Corrupted infoROM";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    case NVML_ERROR_RESET_REQUIRED: return "GPU requires restart";
    case NVML_ERROR_OPERATING_SYSTEM: return "The operating system has blocked the request.";
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH: return "RM has detected an NVML/RM version mismatch.";
    case NVML_ERROR_IN_USE: return "In use by another client";
    case NVML_ERROR_MEMORY: return "Insufficient Memory";
    case NVML_ERROR_NO_DATA: return "No data";
    case NVML_ERROR_VGPU_ECC_NOT_SUPPORTED: return "The requested vgpu operation is not available on target device, because ECC is enabled";
    case NVML_ERROR_INSUFFICIENT_RESOURCES: return "Ran out of critical resources, other than memory";
    case NVML_ERROR_FREQ_NOT_SUPPORTED: return "Ran out of critical resources, other than memory";
    case NVML_ERROR_ARGUMENT_VERSION_MISMATCH: return "Argument version mismatch";
    case NVML_ERROR_DEPRECATED: return "Deprecated";
    case NVML_ERROR_NOT_READY: return "Not ready";
    case NVML_ERROR_GPU_NOT_FOUND: return "GPU not found";
    case NVML_ERROR_INVALID_STATE: return "Invalid state";
    case NVML_ERROR_RESET_TYPE_NOT_SUPPORTED: return "Reset type not supported";
    default: return "Unknown Error";
    }
}

MOCK_EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    ENTER("nvmlSystemGetDriverVersion");
    if (rc == NVML_SUCCESS && mock_copy_string(version, length, mock_cfg.driver_version)) rc = NVML_ERROR_INSUFFICIENT_SIZE;
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion) {
    ENTER("nvmlSystemGetCudaDriverVersion");
    if (rc == NVML_SUCCESS && cudaDriverVersion == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) *cudaDriverVersion = mock_cfg.cuda_driver_version;
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount) {
    ENTER("nvmlDeviceGetCount_v2");
    if (rc == NVML_SUCCESS && deviceCount == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) *deviceCount = (unsigned) mock_cfg.count;
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    ENTER("nvmlDeviceGetHandleByIndex_v2");
    if (rc == NVML_SUCCESS && (device == NULL || index >= (unsigned) mock_cfg.count)) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && mock_lost((int) index)) rc = NVML_ERROR_GPU_IS_LOST;
    if (rc == NVML_SUCCESS) *device = &devices[index];
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index) {
    ENTER("nvmlDeviceGetIndex");
    int i = device_of(device, &rc);
    if (i >= 0 && index == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) *index = (unsigned) i;
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
    ENTER("nvmlDeviceGetUUID");
    int i = device_of(device, &rc);
    if (i >= 0 && mock_copy_string(uuid, length, mock_cfg.dev[i].uuid)) rc = NVML_ERROR_INSUFFICIENT_SIZE;
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    ENTER("nvmlDeviceGetName");
    int i = device_of(device, &rc);
    if (i >= 0 && mock_copy_string(name, length, mock_cfg.dev[i].name)) rc = NVML_ERROR_INSUFFICIENT_SIZE;
    LEAVE;
}

/* What HAMi-core workloads account on one device: memory (`total`) and SM utilisation, summed over slots. */
typedef struct {
    uint64_t used;
    uint64_t sm_util;
} region_usage;

/*
 * Adds what one shared region accounts on the device `uuid`: the sum of `total` and of `sm_util` over its
 * process slots. Regions are read under $HAMI_MOCK_REGIONS, else regions/ next to the device file, as files
 * *.cache in it or one folder below (the plugin's containers/<podUID>_<ctr>/ layout). A real driver sees the
 * same memory and kernels.
 */
static void region_file_usage(const char *path, const char *uuid, region_usage *usage) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t) st.st_size >= sizeof(shared_region_v0_t)) {
        size_t size = (size_t) st.st_size;
        void *base = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
        if (base != MAP_FAILED) {
            const shared_region_t *v1 = base;
            const shared_region_v0_t *v0 = base;
            int is_v0 = size == sizeof(shared_region_v0_t) + 1;
            int is_v1 = !is_v0 && size >= sizeof(shared_region_t) && v1->major_version == 1;
            if (v1->initialized_flag == SHARED_REGION_MAGIC && (is_v0 || is_v1)) {
                uint64_t devices = is_v0 ? v0->device_num : v1->device_num;
                int procs = is_v0 ? v0->proc_num : v1->proc_num;
                for (uint64_t d = 0; d < devices && d < CUDA_DEVICE_MAX_COUNT; d++) {
                    const char *u = is_v0 ? v0->uuids[d] : v1->uuids[d];
                    if (strncmp(u, uuid, SHARED_REGION_UUID_SIZE) != 0) continue;
                    for (int p = 0; p < procs && p < SHARED_REGION_MAX_PROCESS_NUM; p++) {
                        usage->used += is_v0 ? v0->procs[p].used[d].total : v1->procs[p].used[d].total;
                        usage->sm_util += is_v0 ? v0->procs[p].device_util[d].sm_util
                                                : v1->procs[p].device_util[d].sm_util;
                    }
                }
            }
            munmap(base, size);
        }
    }
    close(fd);
}

static void regions_usage(const char *dir, const char *uuid, int depth, region_usage *usage) {
    DIR *d = opendir(dir);
    if (d == NULL) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int) sizeof path) continue;
        size_t n = strlen(e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode) && depth > 0) regions_usage(path, uuid, depth - 1, usage);
        else if (S_ISREG(st.st_mode) && n > 6 && strcmp(e->d_name + n - 6, ".cache") == 0) {
            region_file_usage(path, uuid, usage);
        }
    }
    closedir(d);
}

static region_usage device_regions(const mock_device *d) {
    const char *env = getenv("HAMI_MOCK_REGIONS");
    char dir[PATH_MAX];
    if (env != NULL && *env) snprintf(dir, sizeof dir, "%s", env);
    else snprintf(dir, sizeof dir, "%s/regions", mock_dir());
    region_usage usage = {0, 0};
    regions_usage(dir, d->uuid, 1, &usage);
    return usage;
}

static uint64_t used_bytes(const mock_device *d) {
    uint64_t used = (d->used_mib << 20) + device_regions(d).used;
    uint64_t total = d->memory_mib << 20;
    return used < total ? used : total;
}

/*
 * v1 documents used as reserved + allocated; the mock has no separate reservation. A device with
 * "memoryInfo": false answers NOT_SUPPORTED to both calls, as some GPUs with memory shared with the host do.
 */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
    ENTER("nvmlDeviceGetMemoryInfo");
    int i = device_of(device, &rc);
    if (i >= 0 && memory == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && mock_cfg.dev[i].memory_info_unsupported) rc = NVML_ERROR_NOT_SUPPORTED;
    if (rc == NVML_SUCCESS) {
        const mock_device *d = &mock_cfg.dev[i];
        memory->total = d->memory_mib << 20;
        memory->used = used_bytes(d);
        memory->free = memory->total - memory->used;
    }
    LEAVE;
}

#ifndef HAMI_MOCK_LEGACY
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) {
    ENTER("nvmlDeviceGetMemoryInfo_v2");
    int i = device_of(device, &rc);
    if (i >= 0 && memory == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && memory->version != nvmlMemory_v2) rc = NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    if (rc == NVML_SUCCESS && mock_cfg.dev[i].memory_info_unsupported) rc = NVML_ERROR_NOT_SUPPORTED;
    if (rc == NVML_SUCCESS) {
        const mock_device *d = &mock_cfg.dev[i];
        memory->total = d->memory_mib << 20;
        memory->reserved = 0;
        memory->used = used_bytes(d);
        memory->free = memory->total - memory->used;
    }
    LEAVE;
}
#endif

/* gpu: the device's `utilization` plus the SM utilisation its workloads' regions report, at most 100. */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization) {
    ENTER("nvmlDeviceGetUtilizationRates");
    int i = device_of(device, &rc);
    if (i >= 0 && utilization == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) {
        const mock_device *d = &mock_cfg.dev[i];
        uint64_t gpu = d->utilization + device_regions(d).sm_util;
        utilization->gpu = gpu < 100 ? (unsigned) gpu : 100;
        utilization->memory = d->memory_utilization < 100 ? d->memory_utilization : 100;
    }
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
    ENTER("nvmlDeviceGetPciInfo_v3");
    int i = device_of(device, &rc);
    if (i >= 0 && pci == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) {
        const mock_device *d = &mock_cfg.dev[i];
        memset(pci, 0, sizeof *pci);
        pci->domain = d->domain;
        pci->bus = d->bus;
        pci->device = d->device;
        pci->pciDeviceId = d->pci_device_id;
        pci->pciSubSystemId = d->pci_subsystem_id;
        snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", d->domain, d->bus, d->device);
        snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", d->domain & 0xffff, d->bus, d->device);
    }
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int *minorNumber) {
    ENTER("nvmlDeviceGetMinorNumber");
    int i = device_of(device, &rc);
    if (i >= 0 && minorNumber == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) *minorNumber = mock_cfg.dev[i].minor;
    LEAVE;
}

/* Like the real library off NUMA-node GPUs: a negative numaNode means NOT_SUPPORTED. */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetNumaNodeId(nvmlDevice_t device, unsigned int *node) {
    ENTER("nvmlDeviceGetNumaNodeId");
    int i = device_of(device, &rc);
    if (i >= 0 && node == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && mock_cfg.dev[i].numa_node < 0) rc = NVML_ERROR_NOT_SUPPORTED;
    if (rc == NVML_SUCCESS) *node = (unsigned) mock_cfg.dev[i].numa_node;
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major, int *minor) {
    ENTER("nvmlDeviceGetCudaComputeCapability");
    int i = device_of(device, &rc);
    if (i >= 0 && (major == NULL || minor == NULL)) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) {
        *major = mock_cfg.dev[i].cc_major;
        *minor = mock_cfg.dev[i].cc_minor;
    }
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set) {
    ENTER("nvmlEventSetCreate");
    if (rc == NVML_SUCCESS && set == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) {
        rc = NVML_ERROR_INSUFFICIENT_RESOURCES;
        for (int s = 0; s < MAX_SETS; s++) {
            if (!sets[s].used) {
                memset(&sets[s], 0, sizeof sets[s]);
                sets[s].used = 1;
                *set = &sets[s];
                rc = NVML_SUCCESS;
                break;
            }
        }
    }
    LEAVE;
}

static int valid_set(nvmlEventSet_t set) {
    return set != NULL && set >= sets && set < sets + MAX_SETS && set->used;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t device, unsigned long long *eventTypes) {
    ENTER("nvmlDeviceGetSupportedEventTypes");
    int i = device_of(device, &rc);
    if (i >= 0 && eventTypes == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) *eventTypes = SUPPORTED_EVENTS;
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long eventTypes, nvmlEventSet_t set) {
    ENTER("nvmlDeviceRegisterEvents");
    int i = device_of(device, &rc);
    if (i >= 0 && !valid_set(set)) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && (eventTypes & ~SUPPORTED_EVENTS) != 0) rc = NVML_ERROR_NOT_SUPPORTED;
    if (rc == NVML_SUCCESS) set->mask[i] |= eventTypes;
    LEAVE;
}

/* Returns at once when an event is pending, GPU_IS_LOST when a registered GPU is lost, else TIMEOUT. */
MOCK_EXPORT nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeoutms) {
    ENTER("nvmlEventSetWait_v2");
    if (rc == NVML_SUCCESS && (!valid_set(set) || data == NULL)) rc = NVML_ERROR_INVALID_ARGUMENT;
    uint64_t deadline = mock_now_ms() + timeoutms;
    while (rc == NVML_SUCCESS) {
        mock_control_refresh(0);
        int lost = 0;
        for (int i = 0; i < mock_cfg.count; i++) lost |= set->mask[i] != 0 && mock_lost(i);
        if (lost) {
            rc = NVML_ERROR_GPU_IS_LOST;
            break;
        }
        mock_event ev;
        int delivered = 0;
        while (!delivered && mock_pop_event(&ev)) {
            if (ev.device < 0 || ev.device >= mock_cfg.count || !(set->mask[ev.device] & nvmlEventTypeXidCriticalError)) continue;
            data->device = &devices[ev.device];
            data->eventType = nvmlEventTypeXidCriticalError;
            data->eventData = (unsigned long long) ev.xid;
            data->gpuInstanceId = 0xFFFFFFFFu;
            data->computeInstanceId = 0xFFFFFFFFu;
            delivered = 1;
        }
        if (delivered) break;
        uint64_t now = mock_now_ms();
        if (now >= deadline) {
            rc = NVML_ERROR_TIMEOUT;
            break;
        }
        mock_sleep_unlocked(deadline - now < 5 ? (unsigned) (deadline - now) : 5);
    }
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
    ENTER("nvmlEventSetFree");
    if (rc == NVML_SUCCESS && !valid_set(set)) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) set->used = 0;
    LEAVE;
}
