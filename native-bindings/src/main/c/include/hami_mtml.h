/*
 * hami-java's own declaration of the Moore Threads MTML subset it uses (libmtml.so.2).
 * Prototypes, enum values, constants and struct layouts are facts of the MTML 2.2 ABI
 * (docs/upstream.md#native-mtml). The vendor header is proprietary and not used.
 */
#ifndef HAMI_MTML_H
#define HAMI_MTML_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MTML_SUCCESS = 0,
    MTML_ERROR_DRIVER_NOT_LOADED = 1,
    MTML_ERROR_DRIVER_FAILURE = 2,
    MTML_ERROR_INVALID_ARGUMENT = 3,
    MTML_ERROR_NOT_SUPPORTED = 4,
    MTML_ERROR_NO_PERMISSION = 5,
    MTML_ERROR_INSUFFICIENT_SIZE = 6,
    MTML_ERROR_NOT_FOUND = 7,
    MTML_ERROR_INSUFFICIENT_MEMORY = 8,
    MTML_ERROR_DRIVER_TOO_OLD = 9,
    MTML_ERROR_DRIVER_TOO_NEW = 10,
    MTML_ERROR_TIMEOUT = 11,
    MTML_ERROR_RESOURCE_IS_BUSY = 12,
    MTML_ERROR_UNKNOWN = 999
} MtmlReturn;

typedef enum {
    MTML_RETIRED_PAGES_PENDING_STATE_FALSE = 0,
    MTML_RETIRED_PAGES_PENDING_STATE_TRUE = 1
} MtmlRetiredPagesPendingState;

/* Opaque objects: MtmlLibrary -> { MtmlSystem, MtmlDevice -> MtmlMemory } */
typedef struct MtmlLibrary MtmlLibrary;
typedef struct MtmlSystem MtmlSystem;
typedef struct MtmlDevice MtmlDevice;
typedef struct MtmlMemory MtmlMemory;

#define MTML_DRIVER_VERSION_BUFFER_SIZE 80
#define MTML_DEVICE_NAME_BUFFER_SIZE 32
#define MTML_DEVICE_UUID_BUFFER_SIZE 48
#define MTML_DEVICE_PATH_BUFFER_SIZE 64
#define MTML_DEVICE_PCI_SBDF_BUFFER_SIZE 32

typedef struct {
    char sbdf[MTML_DEVICE_PCI_SBDF_BUFFER_SIZE];
    unsigned int segment;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubsystemId;
    unsigned int busWidth;       /* deprecated, 0 */
    float pciMaxSpeed;           /* GT/s */
    float pciCurSpeed;
    unsigned int pciMaxWidth;
    unsigned int pciCurWidth;
    unsigned int pciMaxGen;
    unsigned int pciCurGen;
    int rsvd[6];
} MtmlPciInfo;

MtmlReturn mtmlLibraryInit(MtmlLibrary **lib);
MtmlReturn mtmlLibraryShutDown(MtmlLibrary *lib);
MtmlReturn mtmlLibraryInitSystem(const MtmlLibrary *lib, MtmlSystem **sys);
MtmlReturn mtmlSystemGetDriverVersion(const MtmlSystem *sys, char *version, unsigned int length);
MtmlReturn mtmlLibraryCountDevice(const MtmlLibrary *lib, unsigned int *count);
MtmlReturn mtmlLibraryInitDeviceByIndex(const MtmlLibrary *lib, unsigned int index, MtmlDevice **dev);
MtmlReturn mtmlDeviceGetIndex(const MtmlDevice *dev, unsigned int *index);
MtmlReturn mtmlDeviceGetUUID(const MtmlDevice *dev, char *uuid, unsigned int length);
MtmlReturn mtmlDeviceGetName(const MtmlDevice *dev, char *name, unsigned int length);
MtmlReturn mtmlDeviceGetPciInfo(const MtmlDevice *dev, MtmlPciInfo *pci);
MtmlReturn mtmlDeviceGetGpuPath(const MtmlDevice *dev, char *path, unsigned int length);
MtmlReturn mtmlDeviceGetMemoryAffinityWithinNode(const MtmlDevice *device, unsigned int nodeSetSize, unsigned long *nodeSet);
MtmlReturn mtmlDeviceInitMemory(const MtmlDevice *dev, MtmlMemory **mem);
MtmlReturn mtmlMemoryGetTotal(const MtmlMemory *mem, unsigned long long *total);
MtmlReturn mtmlMemoryGetUsed(const MtmlMemory *mem, unsigned long long *used);
MtmlReturn mtmlMemoryGetRetiredPagesPendingStatus(const MtmlMemory *mem, MtmlRetiredPagesPendingState *isPending);
const char *mtmlErrorString(MtmlReturn result);

#ifdef __cplusplus
}
#endif
#endif
