/*
 * Mock libnvidia-ml.so.1. Handles point into a static per-device array, as the real library's do.
 * Built with -DHAMI_MOCK_LEGACY it stands in for an older driver without nvmlDeviceGetMemoryInfo_v2.
 */
#define _GNU_SOURCE /* PATH_MAX, DIR */
#include "hami_nvml.h"
#include "mock_common.h"

#include "hami_shared_region.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
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

/*
 * Topology between the devices, from devices.json: "nvlinks" {"<peer uuid>": <link count>} gives a device that many
 * active links to the peer, at the next link indexes in the order written; "p2pLevel" {"<peer uuid>": "<level>"}
 * sets the common ancestor towards the peer, by default "node" on the same numaNode and "system" across them.
 * Either may differ between the two ends of a pair, as a faulty card's would. "nvswitchLinks": N adds N active
 * links to an NVSwitch after those.
 */
#define TO_NVSWITCH (-1)
static int nvlink_count[MOCK_MAX_DEVICES];
static int nvlink_peer[MOCK_MAX_DEVICES][NVML_NVLINK_MAX_LINKS]; /* a device index, or TO_NVSWITCH */
static int p2p_level[MOCK_MAX_DEVICES][MOCK_MAX_DEVICES]; /* -1: by numaNode */

static const char *const LEVEL_NAMES[] = {"internal", "single", "multiple", "hostbridge", "node", "system"};
static const nvmlGpuTopologyLevel_t LEVELS[] = {NVML_TOPOLOGY_INTERNAL, NVML_TOPOLOGY_SINGLE, NVML_TOPOLOGY_MULTIPLE,
                                                NVML_TOPOLOGY_HOSTBRIDGE, NVML_TOPOLOGY_NODE, NVML_TOPOLOGY_SYSTEM};

__attribute__((format(printf, 3, 4))) static int bad_topology(int device, const char *key, const char *fmt, ...) {
    fprintf(stderr, "hami mock: device file: devices[%d].%s ", device, key);
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    return -1;
}

/* The index of the device a topology key names, or -1 after saying why it names none. */
static int topology_peer(int device, const char *key, const char *uuid, const int *seen) {
    for (int p = 0; p < mock_cfg.count; p++) {
        if (strcmp(mock_cfg.dev[p].uuid, uuid) != 0) continue;
        if (p == device) return bad_topology(device, key, "names the device itself (%s)", uuid);
        if (seen[p]) return bad_topology(device, key, "names %s twice", uuid);
        return p;
    }
    return bad_topology(device, key, "names %s, which is no device in the file", uuid);
}

static int read_topology(const cJSON *root) {
    memset(nvlink_count, 0, sizeof nvlink_count);
    memset(p2p_level, -1, sizeof p2p_level);
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "devices")) {
        if (i == mock_cfg.count) break;
        int seen[MOCK_MAX_DEVICES] = {0};
        const cJSON *links = cJSON_GetObjectItemCaseSensitive(item, "nvlinks");
        if (links != NULL && !cJSON_IsObject(links)) {
            return bad_topology(i, "nvlinks", "must be an object of peer uuid to link count");
        }
        const cJSON *l;
        cJSON_ArrayForEach(l, links) {
            int peer = topology_peer(i, "nvlinks", l->string, seen);
            if (peer < 0) return -1;
            seen[peer] = 1;
            double n = cJSON_IsNumber(l) ? l->valuedouble : 0;
            if (n < 1 || n > NVML_NVLINK_MAX_LINKS || n != (int) n) {
                return bad_topology(i, "nvlinks", "link count to %s must be a whole number from 1 to %d", l->string,
                                    NVML_NVLINK_MAX_LINKS);
            }
            if (nvlink_count[i] + (int) n > NVML_NVLINK_MAX_LINKS) {
                return bad_topology(i, "nvlinks", "adds up to more than %d links", NVML_NVLINK_MAX_LINKS);
            }
            for (int k = 0; k < (int) n; k++) nvlink_peer[i][nvlink_count[i]++] = peer;
        }
        const cJSON *switches = cJSON_GetObjectItemCaseSensitive(item, "nvswitchLinks");
        if (switches != NULL) {
            double n = cJSON_IsNumber(switches) ? switches->valuedouble : -1;
            if (n < 0 || n > NVML_NVLINK_MAX_LINKS || n != (int) n) {
                return bad_topology(i, "nvswitchLinks", "must be a whole number from 0 to %d", NVML_NVLINK_MAX_LINKS);
            }
            if (nvlink_count[i] + (int) n > NVML_NVLINK_MAX_LINKS) {
                return bad_topology(i, "nvswitchLinks", "adds up to more than %d links with nvlinks",
                                    NVML_NVLINK_MAX_LINKS);
            }
            for (int k = 0; k < (int) n; k++) nvlink_peer[i][nvlink_count[i]++] = TO_NVSWITCH;
        }
        memset(seen, 0, sizeof seen);
        const cJSON *levels = cJSON_GetObjectItemCaseSensitive(item, "p2pLevel");
        if (levels != NULL && !cJSON_IsObject(levels)) {
            return bad_topology(i, "p2pLevel", "must be an object of peer uuid to level");
        }
        cJSON_ArrayForEach(l, levels) {
            int peer = topology_peer(i, "p2pLevel", l->string, seen);
            if (peer < 0) return -1;
            seen[peer] = 1;
            for (size_t k = 0; k < sizeof LEVELS / sizeof LEVELS[0] && cJSON_IsString(l); k++) {
                if (strcmp(l->valuestring, LEVEL_NAMES[k]) == 0) p2p_level[i][peer] = (int) LEVELS[k];
            }
            if (p2p_level[i][peer] < 0) {
                return bad_topology(i, "p2pLevel",
                                    "level to %s must be one of internal, single, multiple, hostbridge, node, system",
                                    l->string);
            }
        }
        i++;
    }
    return 0;
}

/*
 * MIG, from devices.json "migMode": "disabled" (the default) is a MIG-capable card (A100, H100, ...) running
 * without MIG, "unsupported" a card without MIG (T4, V100, ...). The mock has no MIG-enabled mode: it has no
 * GPU or compute instances, so every call about them answers what NVML documents for a card without MIG mode
 * enabled.
 */
enum { MIG_DISABLED, MIG_UNSUPPORTED };
/* The MIG structs' x86_64 layouts (NVML ABI): ten unsigned ints, then the 8-byte memory size at offset 40. */
_Static_assert(sizeof(nvmlGpuInstanceProfileInfo_t) == 48, "nvmlGpuInstanceProfileInfo_t is 48 bytes");
_Static_assert(offsetof(nvmlGpuInstanceProfileInfo_t, memorySizeMB) == 40, "memorySizeMB at offset 40");
_Static_assert(sizeof(nvmlGpuInstancePlacement_t) == 8, "nvmlGpuInstancePlacement_t is 8 bytes");
static int mig_mode[MOCK_MAX_DEVICES];

static int read_mig(const cJSON *root) {
    memset(mig_mode, 0, sizeof mig_mode);
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "devices")) {
        if (i == mock_cfg.count) break;
        const cJSON *mode = cJSON_GetObjectItemCaseSensitive(item, "migMode");
        if (mode != NULL) {
            if (cJSON_IsString(mode) && strcmp(mode->valuestring, "disabled") == 0) mig_mode[i] = MIG_DISABLED;
            else if (cJSON_IsString(mode) && strcmp(mode->valuestring, "unsupported") == 0) mig_mode[i] = MIG_UNSUPPORTED;
            else return bad_topology(i, "migMode", "must be \"disabled\" or \"unsupported\" (the mock has no MIG-enabled mode)");
        }
        i++;
    }
    return 0;
}

static int read_nvml_extra(const cJSON *root) {
    return read_topology(root) != 0 ? -1 : read_mig(root);
}

static const mock_defaults DEFAULTS = {
    .pci_device_id = 0x20B010DE, .card_type = 0, .compute_units = 0, .read_extra = read_nvml_extra};
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

/* String calls: a NULL buffer is INVALID_ARGUMENT, a buffer too small for the string and its NUL INSUFFICIENT_SIZE. */
MOCK_EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    ENTER("nvmlSystemGetDriverVersion");
    if (rc == NVML_SUCCESS && version == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
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

/*
 * The device whose UUID is `uuid` (the NVIDIA plugin's register, health check and allocation paths look devices up
 * this way). A UUID of no device, MIG UUIDs included (the mock has no MIG devices), is NOT_FOUND; a lost device
 * GPU_IS_LOST, as NVML answers when the GPU it looks for has fallen off the bus.
 */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device) {
    ENTER("nvmlDeviceGetHandleByUUID");
    if (rc == NVML_SUCCESS && (uuid == NULL || device == NULL)) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) {
        rc = NVML_ERROR_NOT_FOUND;
        for (int i = 0; i < mock_cfg.count; i++) {
            if (mock_cfg.dev[i].uuid[0] == '\0' || strcmp(mock_cfg.dev[i].uuid, uuid) != 0) continue;
            rc = mock_lost(i) ? NVML_ERROR_GPU_IS_LOST : NVML_SUCCESS;
            if (rc == NVML_SUCCESS) *device = &devices[i];
            break;
        }
    }
    LEAVE;
}

/* Reads 1 to 8 hex digits at *p into *v (no sign, no 0x, no blanks, unlike sscanf's %x); 0, or -1 for none. */
static int hex_field(const char **p, unsigned *v) {
    int n = 0;
    *v = 0;
    for (; n < 8 && isxdigit((unsigned char) **p); n++, (*p)++) {
        *v = *v * 16 + (unsigned) (isdigit((unsigned char) **p) ? **p - '0' : (tolower((unsigned char) **p) - 'a' + 10));
    }
    return n > 0 && !isxdigit((unsigned char) **p) ? 0 : -1;
}

/*
 * Reads a PCI bus id in one of the forms NVML accepts (hex): domain:bus:device.function, domain:bus:device or
 * bus:device.function (domain 0). 0 on success, -1 for anything else.
 */
static int parse_bus_id(const char *s, unsigned *domain, unsigned *bus, unsigned *dev, unsigned *function) {
    unsigned a, b, c;
    *domain = *function = 0;
    if (hex_field(&s, &a) || *s++ != ':' || hex_field(&s, &b)) return -1;
    if (*s == '.') { /* bus:device.function */
        s++;
        *bus = a;
        *dev = b;
        return hex_field(&s, function) || *s != '\0' ? -1 : 0;
    }
    if (*s++ != ':' || hex_field(&s, &c)) return -1;
    *domain = a;
    *bus = b;
    *dev = c;
    if (*s == '\0') return 0; /* domain:bus:device */
    if (*s++ != '.') return -1;
    return hex_field(&s, function) || *s != '\0' ? -1 : 0;
}

/* The device at the PCI address `pciBusId` (its devices.json pciBusId); a malformed id is INVALID_ARGUMENT. */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device) {
    ENTER("nvmlDeviceGetHandleByPciBusId_v2");
    unsigned domain, bus, dev, function;
    if (rc == NVML_SUCCESS && (pciBusId == NULL || device == NULL)) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && parse_bus_id(pciBusId, &domain, &bus, &dev, &function) != 0) {
        rc = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (rc == NVML_SUCCESS) {
        rc = NVML_ERROR_NOT_FOUND;
        for (int i = 0; i < mock_cfg.count; i++) {
            const mock_device *d = &mock_cfg.dev[i];
            if (d->domain != domain || d->bus != bus || d->device != dev || d->function != function) continue;
            rc = mock_lost(i) ? NVML_ERROR_GPU_IS_LOST : NVML_SUCCESS;
            if (rc == NVML_SUCCESS) *device = &devices[i];
            break;
        }
    }
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
    if (i >= 0 && uuid == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && mock_copy_string(uuid, length, mock_cfg.dev[i].uuid)) rc = NVML_ERROR_INSUFFICIENT_SIZE;
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    ENTER("nvmlDeviceGetName");
    int i = device_of(device, &rc);
    if (i >= 0 && name == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && mock_copy_string(name, length, mock_cfg.dev[i].name)) rc = NVML_ERROR_INSUFFICIENT_SIZE;
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

static void fill_pci(const mock_device *d, nvmlPciInfo_t *pci) {
    memset(pci, 0, sizeof *pci);
    pci->domain = d->domain;
    pci->bus = d->bus;
    pci->device = d->device;
    pci->pciDeviceId = d->pci_device_id;
    pci->pciSubSystemId = d->pci_subsystem_id;
    snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", d->domain, d->bus, d->device);
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", d->domain & 0xffff, d->bus, d->device);
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
    ENTER("nvmlDeviceGetPciInfo_v3");
    int i = device_of(device, &rc);
    if (i >= 0 && pci == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) fill_pci(&mock_cfg.dev[i], pci);
    LEAVE;
}

/* A device with itself: INTERNAL (nothing is closer). */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1, nvmlDevice_t device2,
                                                             nvmlGpuTopologyLevel_t *pathInfo) {
    ENTER("nvmlDeviceGetTopologyCommonAncestor");
    int a = device_of(device1, &rc);
    int b = device_of(device2, &rc);
    if (rc == NVML_SUCCESS && pathInfo == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) {
        if (a == b) *pathInfo = NVML_TOPOLOGY_INTERNAL;
        else if (p2p_level[a][b] >= 0) *pathInfo = (nvmlGpuTopologyLevel_t) p2p_level[a][b];
        else *pathInfo = mock_cfg.dev[a].numa_node == mock_cfg.dev[b].numa_node ? NVML_TOPOLOGY_NODE : NVML_TOPOLOGY_SYSTEM;
    }
    LEAVE;
}

/*
 * As NVML's documentation has it: a device without NVLink answers NOT_SUPPORTED, a link index from
 * NVML_NVLINK_MAX_LINKS on INVALID_ARGUMENT. A device with links has them active from index 0; its other
 * indexes below the maximum are inactive links.
 */
static int nvlink_of(int i, unsigned int link, nvmlReturn_t *rc) {
    if (*rc != NVML_SUCCESS) return 0;
    if (nvlink_count[i] == 0) *rc = NVML_ERROR_NOT_SUPPORTED;
    else if (link >= NVML_NVLINK_MAX_LINKS) *rc = NVML_ERROR_INVALID_ARGUMENT;
    return *rc == NVML_SUCCESS && link < (unsigned) nvlink_count[i];
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, nvmlEnableState_t *isActive) {
    ENTER("nvmlDeviceGetNvLinkState");
    int i = device_of(device, &rc);
    if (i >= 0 && isActive == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    int active = i >= 0 && nvlink_of(i, link, &rc);
    if (rc == NVML_SUCCESS) *isActive = active ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
    LEAVE;
}

/* The NVSwitch every switch link leads to: a PCI domain no GPU of a devices.json uses. */
static const mock_device NVSWITCH = {.domain = 0xFFFF, .pci_device_id = 0x22A310DE};

/*
 * The peer's own PCI info, as nvmlDeviceGetPciInfo_v3 gives it, or the NVSwitch's (0000FFFF:00:00.0); an inactive
 * link leads nowhere (INVALID_ARGUMENT).
 */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link, nvmlPciInfo_t *pci) {
    ENTER("nvmlDeviceGetNvLinkRemotePciInfo_v2");
    int i = device_of(device, &rc);
    if (i >= 0 && pci == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    int active = i >= 0 && nvlink_of(i, link, &rc);
    if (rc == NVML_SUCCESS && !active) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) {
        int peer = nvlink_peer[i][link];
        fill_pci(peer == TO_NVSWITCH ? &NVSWITCH : &mock_cfg.dev[peer], pci);
    }
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link,
                                                             nvmlIntNvLinkDeviceType_t *pNvLinkDeviceType) {
    ENTER("nvmlDeviceGetNvLinkRemoteDeviceType");
    int i = device_of(device, &rc);
    if (i >= 0 && pNvLinkDeviceType == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    int active = i >= 0 && nvlink_of(i, link, &rc);
    if (rc == NVML_SUCCESS && !active) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) {
        *pNvLinkDeviceType = nvlink_peer[i][link] == TO_NVSWITCH ? NVML_NVLINK_DEVICE_TYPE_SWITCH
                                                                 : NVML_NVLINK_DEVICE_TYPE_GPU;
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

/*
 * MIG (see read_mig). A card without MIG answers NOT_SUPPORTED, as a T4 or V100 does; a MIG-capable card running
 * without MIG answers DISABLED for both the current and the pending mode, as an A100 out of MIG mode does. go-nvlib
 * reads this for IsMigCapable and IsMigEnabled, which the NVIDIA plugin asks of every GPU when it builds its device
 * map.
 */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *currentMode, unsigned int *pendingMode) {
    ENTER("nvmlDeviceGetMigMode");
    int i = device_of(device, &rc);
    if (i >= 0 && (currentMode == NULL || pendingMode == NULL)) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS && mig_mode[i] == MIG_UNSUPPORTED) rc = NVML_ERROR_NOT_SUPPORTED;
    if (rc == NVML_SUCCESS) *currentMode = *pendingMode = NVML_DEVICE_MIG_DISABLE;
    LEAVE;
}

/* NVML documents zero "if MIG is not supported or enabled", which is every mock device. */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count) {
    ENTER("nvmlDeviceGetMaxMigDeviceCount");
    int i = device_of(device, &rc);
    if (i >= 0 && count == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) *count = 0;
    LEAVE;
}

/* No MIG device at any index: NOT_FOUND on a MIG-capable card, NOT_SUPPORTED on a card without MIG. */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index,
                                                             nvmlDevice_t *migDevice) {
    ENTER("nvmlDeviceGetMigDeviceHandleByIndex");
    (void) index;
    int i = device_of(device, &rc);
    if (i >= 0 && migDevice == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) rc = mig_mode[i] == MIG_UNSUPPORTED ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_NOT_FOUND;
    LEAVE;
}

/* Every handle the mock gives out is a whole GPU's. */
MOCK_EXPORT nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device, unsigned int *isMigDevice) {
    ENTER("nvmlDeviceIsMigDeviceHandle");
    int i = device_of(device, &rc);
    if (i >= 0 && isMigDevice == NULL) rc = NVML_ERROR_INVALID_ARGUMENT;
    if (rc == NVML_SUCCESS) *isMigDevice = 0;
    LEAVE;
}

/*
 * The three queries of a MIG device handle, given a whole GPU's handle: INVALID_ARGUMENT (it is no MIG device
 * handle) on a MIG-capable card, NOT_SUPPORTED on a card without MIG.
 */
static void not_a_mig_handle(int i, const void *out, nvmlReturn_t *rc) {
    if (i >= 0 && out == NULL) *rc = NVML_ERROR_INVALID_ARGUMENT;
    if (*rc == NVML_SUCCESS) *rc = mig_mode[i] == MIG_UNSUPPORTED ? NVML_ERROR_NOT_SUPPORTED : NVML_ERROR_INVALID_ARGUMENT;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetDeviceHandleFromMigDeviceHandle(nvmlDevice_t migDevice, nvmlDevice_t *device) {
    ENTER("nvmlDeviceGetDeviceHandleFromMigDeviceHandle");
    not_a_mig_handle(device_of(migDevice, &rc), device, &rc);
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int *id) {
    ENTER("nvmlDeviceGetGpuInstanceId");
    not_a_mig_handle(device_of(device, &rc), id, &rc);
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int *id) {
    ENTER("nvmlDeviceGetComputeInstanceId");
    not_a_mig_handle(device_of(device, &rc), id, &rc);
    LEAVE;
}

/*
 * GPU instance profiles and instances exist only in MIG mode: after checking the arguments (a profile id from
 * NVML_GPU_INSTANCE_PROFILE_COUNT on is INVALID_ARGUMENT, which ends go-nvlib's enumeration), NOT_SUPPORTED, which
 * NVML documents for a device without MIG mode enabled. The NVIDIA plugin asks for profiles in its "mig" operating
 * mode and, through go-nvlib, for --mig-strategy=mixed, and skips devices that answer NOT_SUPPORTED.
 */
static void no_gpu_instances(int i, unsigned int profile, int outs_ok, nvmlReturn_t *rc) {
    if (i >= 0 && (!outs_ok || profile >= NVML_GPU_INSTANCE_PROFILE_COUNT)) *rc = NVML_ERROR_INVALID_ARGUMENT;
    if (*rc == NVML_SUCCESS) *rc = NVML_ERROR_NOT_SUPPORTED;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfo(nvmlDevice_t device, unsigned int profile,
                                                             nvmlGpuInstanceProfileInfo_t *info) {
    ENTER("nvmlDeviceGetGpuInstanceProfileInfo");
    no_gpu_instances(device_of(device, &rc), profile, info != NULL, &rc);
    LEAVE;
}

/* placements may be NULL (the caller asks for the count first); count may not. */
MOCK_EXPORT nvmlReturn_t nvmlDeviceGetGpuInstancePossiblePlacements_v2(nvmlDevice_t device, unsigned int profileId,
                                                                      nvmlGpuInstancePlacement_t *placements,
                                                                      unsigned int *count) {
    ENTER("nvmlDeviceGetGpuInstancePossiblePlacements_v2");
    (void) placements;
    no_gpu_instances(device_of(device, &rc), profileId, count != NULL, &rc);
    LEAVE;
}

MOCK_EXPORT nvmlReturn_t nvmlDeviceGetGpuInstances(nvmlDevice_t device, unsigned int profileId,
                                                   nvmlGpuInstance_t *gpuInstances, unsigned int *count) {
    ENTER("nvmlDeviceGetGpuInstances");
    no_gpu_instances(device_of(device, &rc), profileId, gpuInstances != NULL && count != NULL, &rc);
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
