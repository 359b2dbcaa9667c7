/*
 * HAMi-core's shared region: the file (CUDA_DEVICE_MEMORY_SHARED_CACHE, "<uuid>.cache" under the container's
 * vgpu folder) that every CUDA process of a container maps MAP_SHARED to account memory and SM use per device,
 * and that the node monitor maps to read usage and to write the priority feedback.
 *
 * Written by the project from the layout facts of HAMi-core (src/multiprocess/multiprocess_memory_limit.h) and
 * of upstream HAMi's monitor (pkg/monitor/nvidia/v0, v1); see native-bindings/README.md. The typedef and field
 * names follow HAMi-core's because they are the ABI. Two layouts exist:
 *   - version 1 (HAMi-core with major/minor version fields, minor 0..2): shared_region_t;
 *   - version 0 (before versioning): shared_region_v0_t, with no version fields, smaller per-device records,
 *     no seqlock and no last_kernel_time. A version-0 file is recognised by its size alone.
 * HAMi-core creates the file with size sizeof(region) + 1 (it seeks to sizeof and writes one byte), maps
 * sizeof(region) bytes, fills the fields and stores initialized_flag = SHARED_REGION_MAGIC last.
 * HAMi-core declares the counters _Atomic; on the platforms it supports those have the size and alignment of
 * the plain types used here. Writers use atomic stores, readers accept torn values.
 */
#ifndef HAMI_SHARED_REGION_H
#define HAMI_SHARED_REGION_H

#include <semaphore.h>
#include <stddef.h>
#include <stdint.h>

#define SHARED_REGION_MAGIC 19920718
#define SHARED_REGION_MAJOR_VERSION 1
#define SHARED_REGION_MINOR_VERSION 2
#define CUDA_DEVICE_MAX_COUNT 16
#define SHARED_REGION_MAX_PROCESS_NUM 1024
#define SHARED_REGION_UUID_SIZE 96

/* Memory kinds, as HAMi-core's add_gpu_device_memory_usage(type) counts them. */
#define SHARED_REGION_MEMORY_CONTEXT 0
#define SHARED_REGION_MEMORY_MODULE 1
#define SHARED_REGION_MEMORY_DATA 2

/* ---- version 1 ---- */

/* Bytes in use on one device by one process. total = context + module + data (+ offset, unused). */
typedef struct {
    uint64_t context_size;
    uint64_t module_size;
    uint64_t data_size;
    uint64_t offset;
    uint64_t total;
    uint64_t unused[3];
} device_memory_t;

/* Utilisation of one device by one process, percent (HAMi-core fills sm_util only). */
typedef struct {
    uint64_t dec_util;
    uint64_t enc_util;
    uint64_t sm_util;
    uint64_t unused[3];
} device_util_t;

/* One process of the container. pid is the container's pid, hostpid the host's (0 until known). */
typedef struct {
    int32_t pid;
    int32_t hostpid;
    device_memory_t used[CUDA_DEVICE_MAX_COUNT];
    uint64_t monitorused[CUDA_DEVICE_MAX_COUNT];
    device_util_t device_util[CUDA_DEVICE_MAX_COUNT];
    int32_t status;
    /* minor 2: odd while a writer updates used[]; minor 0..1 kept it as padding (zero) */
    uint64_t seqlock;
    uint64_t unused[2];
} shrreg_proc_slot_t;

typedef struct {
    int32_t initialized_flag; /* SHARED_REGION_MAGIC once initialised; written last */
    uint32_t major_version;
    uint32_t minor_version;
    int32_t sm_init_flag;
    size_t owner_pid;
    sem_t sem; /* process-shared, guards slot add/remove */
    uint64_t device_num;
    char uuids[CUDA_DEVICE_MAX_COUNT][SHARED_REGION_UUID_SIZE];
    uint64_t limit[CUDA_DEVICE_MAX_COUNT];    /* bytes, 0 = none */
    uint64_t sm_limit[CUDA_DEVICE_MAX_COUNT]; /* percent */
    shrreg_proc_slot_t procs[SHARED_REGION_MAX_PROCESS_NUM];
    int32_t proc_num;
    int32_t utilization_switch; /* 1 = SM limit in force (monitor feedback) */
    int32_t recent_kernel;      /* monitor feedback: negative blocks kernel launches */
    int32_t priority;           /* CUDA_TASK_PRIORITY, 0 high, 1 low (default) */
    uint64_t last_kernel_time;  /* seconds since the epoch */
    sem_t sem_postinit;
} shared_region_t;

/* ---- version 0 ---- */

typedef struct {
    uint64_t context_size;
    uint64_t module_size;
    uint64_t data_size;
    uint64_t offset;
    uint64_t total;
} device_memory_v0_t;

typedef struct {
    uint64_t dec_util;
    uint64_t enc_util;
    uint64_t sm_util;
} device_util_v0_t;

typedef struct {
    int32_t pid;
    int32_t hostpid;
    device_memory_v0_t used[CUDA_DEVICE_MAX_COUNT];
    uint64_t monitorused[CUDA_DEVICE_MAX_COUNT];
    device_util_v0_t device_util[CUDA_DEVICE_MAX_COUNT];
    int32_t status;
} shrreg_proc_slot_v0_t;

typedef struct {
    int32_t initialized_flag;
    int32_t sm_init_flag;
    size_t owner_pid;
    sem_t sem;
    uint64_t device_num;
    char uuids[CUDA_DEVICE_MAX_COUNT][SHARED_REGION_UUID_SIZE];
    uint64_t limit[CUDA_DEVICE_MAX_COUNT];
    uint64_t sm_limit[CUDA_DEVICE_MAX_COUNT];
    shrreg_proc_slot_v0_t procs[SHARED_REGION_MAX_PROCESS_NUM];
    int32_t proc_num;
    int32_t utilization_switch;
    int32_t recent_kernel;
    int32_t priority;
} shared_region_v0_t;

#endif /* HAMI_SHARED_REGION_H */
