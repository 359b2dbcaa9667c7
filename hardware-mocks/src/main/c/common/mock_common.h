/*
 * Shared by every mock library: devices.json, the control file (faults and events) and the state file.
 * Each .so gets its own copy of this code and its globals (hidden visibility, -Bsymbolic), so two copies
 * of one mock loaded from two directories hold two independent device sets.
 */
#ifndef HAMI_MOCK_COMMON_H
#define HAMI_MOCK_COMMON_H

#include <pthread.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define MOCK_EXPORT __attribute__((visibility("default")))
#define MOCK_MAX_DEVICES 64
#define MOCK_MESSAGE_SIZE 64

typedef struct {
    char uuid[96];
    char name[96];
    char pci_bus_id[32];
    unsigned domain, bus, device, function;
    uint64_t memory_mib;
    uint64_t used_mib;
    int numa_node;
    unsigned minor;
    int healthy;
    /* vendor-specific extras, with defaults when absent */
    unsigned pci_device_id;
    unsigned pci_subsystem_id;
    int cc_major, cc_minor;
    int card_type;
    int compute_units;
    unsigned busy_percent;
    unsigned utilization;        /* NVML gpu percent, before what workloads' regions add */
    unsigned memory_utilization; /* NVML memory-controller percent */
    uint64_t unique_id;
    int memory_info_unsupported; /* NVML: memory-info calls answer NOT_SUPPORTED ("memoryInfo": false) */
} mock_device;

typedef struct {
    int count;
    mock_device dev[MOCK_MAX_DEVICES];
    char driver_version[80];
    int cuda_driver_version;
} mock_config;

/* An injected event: NVML reads xid, ROCm reads type and message. */
typedef struct {
    int device;
    int xid;
    int type;
    char message[MOCK_MESSAGE_SIZE];
} mock_event;

/* Vendor defaults applied to each device read from devices.json. */
typedef struct {
    unsigned pci_device_id;
    int card_type;
    int compute_units;
    /* Reads the vendor's own device fields from the parsed file once the devices are in mock_cfg (NULL: none);
       non-zero fails the load, after printing why on stderr. */
    int (*read_extra)(const cJSON *root);
} mock_defaults;

extern pthread_mutex_t mock_mutex;
extern mock_config mock_cfg;

/* Every call below expects mock_mutex to be held. */

/* Reads devices.json into mock_cfg and resets events; 0 on success, -1 after printing why on stderr. */
int mock_load_devices(const mock_defaults *defaults);
/* Re-reads the control file when it changed; without force, looks at most every 2 ms. */
void mock_control_refresh(int force);
/* The code init must fail with, or 0. */
int mock_init_fault(void);
/* The code the named call must fail with now, or 0; counts the call. */
int mock_call_fault(const char *function);
int mock_lost(int device);
int mock_healthy(int device);
/* Takes the oldest pending event; 1 when there was one. */
int mock_pop_event(mock_event *out);
/* Sleeps up to ms milliseconds with mock_mutex released. */
void mock_sleep_unlocked(unsigned ms);
uint64_t mock_now_ms(void);
/* The folder of the device file. */
const char *mock_dir(void);
/* Writes state next to devices.json as name, atomically; takes ownership of state. */
void mock_write_state(const char *name, cJSON *state);
/* The state file written by an earlier load (this process or another), or NULL when there is none. */
cJSON *mock_read_state(const char *name);
/* Copies s into a buffer of size len; 0, or 1 when it does not fit (the caller's INSUFFICIENT_SIZE). */
int mock_copy_string(char *dst, unsigned long len, const char *s);

#endif
