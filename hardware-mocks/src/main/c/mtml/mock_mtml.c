/*
 * Mock libmtml.so.2. Library, system, device and memory objects are static, so two pointers naming the
 * same resource compare equal, as in the real library. An unhealthy device reports retired pages pending.
 * Built with -DHAMI_MOCK_LEGACY it stands in for a driver without mtmlDeviceGetPciInfo.
 */
#include "hami_mtml.h"
#include "mock_common.h"

#include <stdio.h>
#include <string.h>

struct MtmlLibrary {
    int unused;
};
struct MtmlSystem {
    int unused;
};
struct MtmlDevice {
    int index;
};
struct MtmlMemory {
    int index;
};

static struct MtmlLibrary library;
static struct MtmlSystem sys_object;
static struct MtmlDevice devices[MOCK_MAX_DEVICES];
static struct MtmlMemory memories[MOCK_MAX_DEVICES];
static int init_count;

static const mock_defaults DEFAULTS = {.pci_device_id = 0x03011ED5, .card_type = 0, .compute_units = 0};

/* Objects are valid only while the library is initialised; a stale one is an invalid argument. */
#define ENTER(fn)                                                     \
    pthread_mutex_lock(&mock_mutex);                                  \
    MtmlReturn rc = (MtmlReturn) mock_call_fault(fn);                 \
    if (rc == MTML_SUCCESS && init_count == 0) rc = MTML_ERROR_INVALID_ARGUMENT

#define LEAVE                          \
    pthread_mutex_unlock(&mock_mutex); \
    return rc

static int check_lost(int i, MtmlReturn *rc) {
    if (*rc == MTML_SUCCESS && mock_lost(i)) *rc = MTML_ERROR_DRIVER_FAILURE;
    return *rc == MTML_SUCCESS ? i : -1;
}

static int device_of(const MtmlDevice *dev, MtmlReturn *rc) {
    if (*rc != MTML_SUCCESS) return -1;
    if (dev == NULL || dev < devices || dev >= devices + mock_cfg.count) {
        *rc = MTML_ERROR_INVALID_ARGUMENT;
        return -1;
    }
    return check_lost(dev->index, rc);
}

static int memory_of(const MtmlMemory *mem, MtmlReturn *rc) {
    if (*rc != MTML_SUCCESS) return -1;
    if (mem == NULL || mem < memories || mem >= memories + mock_cfg.count) {
        *rc = MTML_ERROR_INVALID_ARGUMENT;
        return -1;
    }
    return check_lost(mem->index, rc);
}

MOCK_EXPORT MtmlReturn mtmlLibraryInit(MtmlLibrary **lib) {
    pthread_mutex_lock(&mock_mutex);
    MtmlReturn rc = (MtmlReturn) mock_init_fault();
    if (rc == MTML_SUCCESS) rc = (MtmlReturn) mock_call_fault("mtmlLibraryInit");
    if (rc == MTML_SUCCESS && lib == NULL) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS && init_count == 0) {
        if (mock_load_devices(&DEFAULTS) != 0) rc = MTML_ERROR_DRIVER_NOT_LOADED;
        for (int i = 0; i < mock_cfg.count; i++) devices[i].index = memories[i].index = i;
    }
    if (rc == MTML_SUCCESS) {
        init_count++;
        *lib = &library;
    }
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlLibraryShutDown(MtmlLibrary *lib) {
    ENTER("mtmlLibraryShutDown");
    if (rc == MTML_SUCCESS && lib != &library) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) init_count--;
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlLibraryInitSystem(const MtmlLibrary *lib, MtmlSystem **sys) {
    ENTER("mtmlLibraryInitSystem");
    if (rc == MTML_SUCCESS && (lib != &library || sys == NULL)) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) *sys = &sys_object;
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlSystemGetDriverVersion(const MtmlSystem *sys, char *version, unsigned int length) {
    ENTER("mtmlSystemGetDriverVersion");
    if (rc == MTML_SUCCESS && sys != &sys_object) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS && mock_copy_string(version, length, mock_cfg.driver_version)) rc = MTML_ERROR_INSUFFICIENT_SIZE;
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlLibraryCountDevice(const MtmlLibrary *lib, unsigned int *count) {
    ENTER("mtmlLibraryCountDevice");
    if (rc == MTML_SUCCESS && (lib != &library || count == NULL)) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) *count = (unsigned) mock_cfg.count;
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlLibraryInitDeviceByIndex(const MtmlLibrary *lib, unsigned int index, MtmlDevice **dev) {
    ENTER("mtmlLibraryInitDeviceByIndex");
    if (rc == MTML_SUCCESS && (lib != &library || dev == NULL || index >= (unsigned) mock_cfg.count)) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (check_lost((int) index, &rc) >= 0) *dev = &devices[index];
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlDeviceGetIndex(const MtmlDevice *dev, unsigned int *index) {
    ENTER("mtmlDeviceGetIndex");
    int i = device_of(dev, &rc);
    if (i >= 0 && index == NULL) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) *index = (unsigned) i;
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlDeviceGetUUID(const MtmlDevice *dev, char *uuid, unsigned int length) {
    ENTER("mtmlDeviceGetUUID");
    int i = device_of(dev, &rc);
    if (i >= 0 && mock_copy_string(uuid, length, mock_cfg.dev[i].uuid)) rc = MTML_ERROR_INSUFFICIENT_SIZE;
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlDeviceGetName(const MtmlDevice *dev, char *name, unsigned int length) {
    ENTER("mtmlDeviceGetName");
    int i = device_of(dev, &rc);
    if (i >= 0 && mock_copy_string(name, length, mock_cfg.dev[i].name)) rc = MTML_ERROR_INSUFFICIENT_SIZE;
    LEAVE;
}

#ifndef HAMI_MOCK_LEGACY
MOCK_EXPORT MtmlReturn mtmlDeviceGetPciInfo(const MtmlDevice *dev, MtmlPciInfo *pci) {
    ENTER("mtmlDeviceGetPciInfo");
    int i = device_of(dev, &rc);
    if (i >= 0 && pci == NULL) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) {
        const mock_device *d = &mock_cfg.dev[i];
        memset(pci, 0, sizeof *pci);
        snprintf(pci->sbdf, sizeof pci->sbdf, "%08X:%02X:%02X.%X", d->domain, d->bus, d->device, d->function);
        pci->segment = d->domain;
        pci->bus = d->bus;
        pci->device = d->device;
        pci->pciDeviceId = d->pci_device_id;
        pci->pciSubsystemId = d->pci_subsystem_id;
        pci->pciMaxSpeed = pci->pciCurSpeed = 32.0f;
        pci->pciMaxWidth = pci->pciCurWidth = 16;
        pci->pciMaxGen = pci->pciCurGen = 5;
    }
    LEAVE;
}
#endif

MOCK_EXPORT MtmlReturn mtmlDeviceGetGpuPath(const MtmlDevice *dev, char *path, unsigned int length) {
    ENTER("mtmlDeviceGetGpuPath");
    int i = device_of(dev, &rc);
    char buf[MTML_DEVICE_PATH_BUFFER_SIZE];
    if (i >= 0) snprintf(buf, sizeof buf, "/dev/mtgpu.%u", mock_cfg.dev[i].minor);
    if (i >= 0 && mock_copy_string(path, length, buf)) rc = MTML_ERROR_INSUFFICIENT_SIZE;
    LEAVE;
}

/* The node set has the device's NUMA node bit; none when numaNode is negative. */
MOCK_EXPORT MtmlReturn mtmlDeviceGetMemoryAffinityWithinNode(const MtmlDevice *device, unsigned int nodeSetSize, unsigned long *nodeSet) {
    ENTER("mtmlDeviceGetMemoryAffinityWithinNode");
    int i = device_of(device, &rc);
    if (i >= 0 && (nodeSet == NULL || nodeSetSize == 0)) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) {
        memset(nodeSet, 0, nodeSetSize * sizeof *nodeSet);
        int node = mock_cfg.dev[i].numa_node;
        unsigned bits = 8 * sizeof *nodeSet;
        if (node >= 0 && (unsigned) node < nodeSetSize * bits) nodeSet[(unsigned) node / bits] |= 1UL << ((unsigned) node % bits);
    }
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlDeviceInitMemory(const MtmlDevice *dev, MtmlMemory **mem) {
    ENTER("mtmlDeviceInitMemory");
    int i = device_of(dev, &rc);
    if (i >= 0 && mem == NULL) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) *mem = &memories[i];
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlMemoryGetTotal(const MtmlMemory *mem, unsigned long long *total) {
    ENTER("mtmlMemoryGetTotal");
    int i = memory_of(mem, &rc);
    if (i >= 0 && total == NULL) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) *total = mock_cfg.dev[i].memory_mib << 20;
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlMemoryGetUsed(const MtmlMemory *mem, unsigned long long *used) {
    ENTER("mtmlMemoryGetUsed");
    int i = memory_of(mem, &rc);
    if (i >= 0 && used == NULL) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) *used = mock_cfg.dev[i].used_mib << 20;
    LEAVE;
}

MOCK_EXPORT MtmlReturn mtmlMemoryGetRetiredPagesPendingStatus(const MtmlMemory *mem, MtmlRetiredPagesPendingState *isPending) {
    ENTER("mtmlMemoryGetRetiredPagesPendingStatus");
    int i = memory_of(mem, &rc);
    if (i >= 0 && isPending == NULL) rc = MTML_ERROR_INVALID_ARGUMENT;
    if (rc == MTML_SUCCESS) {
        mock_control_refresh(0);
        *isPending = mock_healthy(i) ? MTML_RETIRED_PAGES_PENDING_STATE_FALSE : MTML_RETIRED_PAGES_PENDING_STATE_TRUE;
    }
    LEAVE;
}

MOCK_EXPORT const char *mtmlErrorString(MtmlReturn result) {
    switch (result) {
    case MTML_SUCCESS: return "Success";
    case MTML_ERROR_DRIVER_NOT_LOADED: return "Driver not loaded";
    case MTML_ERROR_DRIVER_FAILURE: return "Driver failure";
    case MTML_ERROR_INVALID_ARGUMENT: return "Invalid argument";
    case MTML_ERROR_NOT_SUPPORTED: return "Not supported";
    case MTML_ERROR_NO_PERMISSION: return "No permission";
    case MTML_ERROR_INSUFFICIENT_SIZE: return "Insufficient size";
    case MTML_ERROR_NOT_FOUND: return "Not found";
    case MTML_ERROR_INSUFFICIENT_MEMORY: return "Insufficient memory";
    case MTML_ERROR_DRIVER_TOO_OLD: return "Driver too old";
    case MTML_ERROR_DRIVER_TOO_NEW: return "Driver too new";
    case MTML_ERROR_TIMEOUT: return "Timeout";
    case MTML_ERROR_RESOURCE_IS_BUSY: return "Resource is busy";
    default: return "Unknown error";
    }
}
