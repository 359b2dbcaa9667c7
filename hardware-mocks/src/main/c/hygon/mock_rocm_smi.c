/*
 * Mock librocm_smi64.so.2 (Hygon's ROCm SMI 2.8). Devices are indexes. A device turning unhealthy, and
 * each injected event, is reported through the rsmi event notification calls.
 * Built with -DHAMI_MOCK_LEGACY it stands in for a library without rsmi_dev_busy_percent_get.
 */
#include "hami_rocm_smi.h"
#include "mock_common.h"

#include <stdio.h>
#include <string.h>

static int init_count;
static int event_init[MOCK_MAX_DEVICES];
static uint64_t event_mask[MOCK_MAX_DEVICES];

static const mock_defaults DEFAULTS = {.pci_device_id = 0x62b7 /* K100 */, .card_type = 0, .compute_units = 120};

#define ENTER(fn)                                                     \
    pthread_mutex_lock(&mock_mutex);                                  \
    rsmi_status_t rc = (rsmi_status_t) mock_call_fault(fn);           \
    if (rc == RSMI_STATUS_SUCCESS && init_count == 0) rc = RSMI_STATUS_INIT_ERROR

#define LEAVE                          \
    pthread_mutex_unlock(&mock_mutex); \
    return rc

/* A lost device's sysfs files are gone: FILE_ERROR, as the real library reports. */
static int device_of(uint32_t dv_ind, const void *out, rsmi_status_t *rc) {
    if (*rc != RSMI_STATUS_SUCCESS) return -1;
    if (dv_ind >= (uint32_t) mock_cfg.count || out == NULL) {
        *rc = RSMI_STATUS_INVALID_ARGS;
        return -1;
    }
    if (mock_lost((int) dv_ind)) {
        *rc = RSMI_STATUS_FILE_ERROR;
        return -1;
    }
    return (int) dv_ind;
}

MOCK_EXPORT rsmi_status_t rsmi_init(uint64_t init_flags) {
    (void) init_flags;
    pthread_mutex_lock(&mock_mutex);
    rsmi_status_t rc = (rsmi_status_t) mock_init_fault();
    if (rc == RSMI_STATUS_SUCCESS) rc = (rsmi_status_t) mock_call_fault("rsmi_init");
    if (rc == RSMI_STATUS_SUCCESS && init_count == 0) {
        if (mock_load_devices(&DEFAULTS) != 0) rc = RSMI_STATUS_INIT_ERROR;
        memset(event_init, 0, sizeof event_init);
        memset(event_mask, 0, sizeof event_mask);
    }
    if (rc == RSMI_STATUS_SUCCESS) init_count++;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_shut_down(void) {
    ENTER("rsmi_shut_down");
    if (rc == RSMI_STATUS_SUCCESS) init_count--;
    LEAVE;
}

static const char *status_text(rsmi_status_t status) {
    switch (status) {
    case RSMI_STATUS_SUCCESS: return "RSMI_STATUS_SUCCESS: The function has been executed successfully.";
    case RSMI_STATUS_INVALID_ARGS: return "RSMI_STATUS_INVALID_ARGS: The provided arguments do not meet the preconditions required for the input.";
    case RSMI_STATUS_NOT_SUPPORTED: return "RSMI_STATUS_NOT_SUPPORTED: The requested information or action is not available for the given input.";
    case RSMI_STATUS_FILE_ERROR: return "RSMI_STATUS_FILE_ERROR: Problem accessing a file.";
    case RSMI_STATUS_PERMISSION: return "RSMI_STATUS_PERMISSION: Permission denied.";
    case RSMI_STATUS_OUT_OF_RESOURCES: return "RSMI_STATUS_OUT_OF_RESOURCES: Unable to acquire memory or other resource.";
    case RSMI_STATUS_INTERNAL_EXCEPTION: return "RSMI_STATUS_INTERNAL_EXCEPTION: An internal exception was caught.";
    case RSMI_STATUS_INPUT_OUT_OF_BOUNDS: return "RSMI_STATUS_INPUT_OUT_OF_BOUNDS: The provided input is out of allowable or safe range.";
    case RSMI_STATUS_INIT_ERROR: return "RSMI_STATUS_INIT_ERROR: An error occurred during initialization.";
    case RSMI_STATUS_NOT_YET_IMPLEMENTED: return "RSMI_STATUS_NOT_YET_IMPLEMENTED: The called function has not been implemented.";
    case RSMI_STATUS_NOT_FOUND: return "RSMI_STATUS_NOT_FOUND: An item was searched for but not found.";
    case RSMI_STATUS_INSUFFICIENT_SIZE: return "RSMI_STATUS_INSUFFICIENT_SIZE: Not enough resources were available for the operation.";
    case RSMI_STATUS_INTERRUPT: return "RSMI_STATUS_INTERRUPT: An interrupt occurred during execution of the function.";
    case RSMI_STATUS_UNEXPECTED_SIZE: return "RSMI_STATUS_UNEXPECTED_SIZE: An unexpected amount of data was read.";
    case RSMI_STATUS_NO_DATA: return "RSMI_STATUS_NO_DATA: No data was found for a given input.";
    case RSMI_STATUS_UNEXPECTED_DATA: return "RSMI_STATUS_UNEXPECTED_DATA: The data read or provided was not what was expected.";
    case RSMI_STATUS_BUSY: return "RSMI_STATUS_BUSY: A resource or mutex could not be acquired because it is already being used.";
    case RSMI_STATUS_REFCOUNT_OVERFLOW: return "RSMI_STATUS_REFCOUNT_OVERFLOW: An internal reference counter exceeded INT32_MAX.";
    case RSMI_STATUS_SETTING_UNAVAILABLE: return "RSMI_STATUS_SETTING_UNAVAILABLE: Requested setting is unavailable for the current device.";
    case RSMI_STATUS_AMDGPU_RESTART_ERR: return "RSMI_STATUS_AMDGPU_RESTART_ERR: Could not successfully restart the amdgpu driver.";
    default: return "RSMI_STATUS_UNKNOWN_ERROR: An unknown error occurred.";
    }
}

/* Works before rsmi_init, like the real one: error text must be available when init fails. */
MOCK_EXPORT rsmi_status_t rsmi_status_string(rsmi_status_t status, const char **status_string) {
    if (status_string == NULL) return RSMI_STATUS_INVALID_ARGS;
    *status_string = status_text(status);
    return RSMI_STATUS_SUCCESS;
}

MOCK_EXPORT rsmi_status_t rsmi_version_str_get(rsmi_sw_component_t component, char *ver_str, uint32_t len) {
    ENTER("rsmi_version_str_get");
    if (rc == RSMI_STATUS_SUCCESS && (component != RSMI_SW_COMP_DRIVER || ver_str == NULL)) rc = RSMI_STATUS_INVALID_ARGS;
    if (rc == RSMI_STATUS_SUCCESS && mock_copy_string(ver_str, len, mock_cfg.driver_version)) rc = RSMI_STATUS_INSUFFICIENT_SIZE;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_num_monitor_devices(uint32_t *num_devices) {
    ENTER("rsmi_num_monitor_devices");
    if (rc == RSMI_STATUS_SUCCESS && num_devices == NULL) rc = RSMI_STATUS_INVALID_ARGS;
    if (rc == RSMI_STATUS_SUCCESS) *num_devices = (uint32_t) mock_cfg.count;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_dev_id_get(uint32_t dv_ind, uint16_t *id) {
    ENTER("rsmi_dev_id_get");
    int i = device_of(dv_ind, id, &rc);
    if (i >= 0) *id = (uint16_t) mock_cfg.dev[i].pci_device_id;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_dev_name_get(uint32_t dv_ind, char *name, size_t len) {
    ENTER("rsmi_dev_name_get");
    int i = device_of(dv_ind, name, &rc);
    if (i >= 0 && mock_copy_string(name, len, mock_cfg.dev[i].name)) rc = RSMI_STATUS_INSUFFICIENT_SIZE;
    LEAVE;
}

/* The Hygon plugin uses the serial number as the device UUID. */
MOCK_EXPORT rsmi_status_t rsmi_dev_serial_number_get(uint32_t dv_ind, char *serial_num, uint32_t len) {
    ENTER("rsmi_dev_serial_number_get");
    int i = device_of(dv_ind, serial_num, &rc);
    if (i >= 0 && mock_copy_string(serial_num, len, mock_cfg.dev[i].uuid)) rc = RSMI_STATUS_INSUFFICIENT_SIZE;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_dev_unique_id_get(uint32_t dv_ind, uint64_t *id) {
    ENTER("rsmi_dev_unique_id_get");
    int i = device_of(dv_ind, id, &rc);
    if (i >= 0) *id = mock_cfg.dev[i].unique_id;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_dev_pci_id_get(uint32_t dv_ind, uint64_t *bdfid) {
    ENTER("rsmi_dev_pci_id_get");
    int i = device_of(dv_ind, bdfid, &rc);
    if (i >= 0) {
        const mock_device *d = &mock_cfg.dev[i];
        *bdfid = ((uint64_t) d->domain << 32) | ((d->bus & 0xffu) << 8) | ((d->device & 0x1fu) << 3) | (d->function & 0x7u);
    }
    LEAVE;
}

/* Only VRAM is modelled. */
MOCK_EXPORT rsmi_status_t rsmi_dev_memory_total_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t *total) {
    ENTER("rsmi_dev_memory_total_get");
    int i = device_of(dv_ind, total, &rc);
    if (i >= 0 && mem_type != RSMI_MEM_TYPE_VRAM) rc = RSMI_STATUS_NOT_SUPPORTED;
    if (rc == RSMI_STATUS_SUCCESS) *total = mock_cfg.dev[i].memory_mib << 20;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_dev_memory_usage_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t *used) {
    ENTER("rsmi_dev_memory_usage_get");
    int i = device_of(dv_ind, used, &rc);
    if (i >= 0 && mem_type != RSMI_MEM_TYPE_VRAM) rc = RSMI_STATUS_NOT_SUPPORTED;
    if (rc == RSMI_STATUS_SUCCESS) *used = mock_cfg.dev[i].used_mib << 20;
    LEAVE;
}

#ifndef HAMI_MOCK_LEGACY
MOCK_EXPORT rsmi_status_t rsmi_dev_busy_percent_get(uint32_t dv_ind, uint32_t *busy_percent) {
    ENTER("rsmi_dev_busy_percent_get");
    int i = device_of(dv_ind, busy_percent, &rc);
    if (i >= 0) *busy_percent = mock_cfg.dev[i].busy_percent;
    LEAVE;
}
#endif

MOCK_EXPORT rsmi_status_t rsmi_dev_drm_render_minor_get(uint32_t dv_ind, uint32_t *minor) {
    ENTER("rsmi_dev_drm_render_minor_get");
    int i = device_of(dv_ind, minor, &rc);
    if (i >= 0) *minor = mock_cfg.dev[i].minor;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_topo_get_numa_node_number(uint32_t dv_ind, uint32_t *numa_node) {
    ENTER("rsmi_topo_get_numa_node_number");
    int i = device_of(dv_ind, numa_node, &rc);
    if (i >= 0 && mock_cfg.dev[i].numa_node < 0) rc = RSMI_STATUS_NOT_SUPPORTED;
    if (rc == RSMI_STATUS_SUCCESS) *numa_node = (uint32_t) mock_cfg.dev[i].numa_node;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_event_notification_init(uint32_t dv_ind) {
    ENTER("rsmi_event_notification_init");
    int i = device_of(dv_ind, &dv_ind, &rc);
    if (i >= 0) event_init[i] = 1;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_event_notification_mask_set(uint32_t dv_ind, uint64_t mask) {
    ENTER("rsmi_event_notification_mask_set");
    int i = device_of(dv_ind, &dv_ind, &rc);
    if (i >= 0 && !event_init[i]) rc = RSMI_STATUS_INIT_ERROR;
    if (rc == RSMI_STATUS_SUCCESS) event_mask[i] = mask;
    LEAVE;
}

/* *num_elem is the capacity of data on entry and the number of events on return; none in time is NO_DATA. */
MOCK_EXPORT rsmi_status_t rsmi_event_notification_get(int timeout_ms, uint32_t *num_elem, rsmi_evt_notification_data_t *data) {
    ENTER("rsmi_event_notification_get");
    if (rc == RSMI_STATUS_SUCCESS && (num_elem == NULL || data == NULL || *num_elem == 0)) rc = RSMI_STATUS_INVALID_ARGS;
    uint64_t deadline = mock_now_ms() + (uint64_t) (timeout_ms < 0 ? 0 : timeout_ms);
    uint32_t got = 0;
    while (rc == RSMI_STATUS_SUCCESS) {
        mock_control_refresh(0);
        mock_event ev;
        while (got < *num_elem && mock_pop_event(&ev)) {
            if (ev.device < 0 || ev.device >= mock_cfg.count || ev.type < RSMI_EVT_NOTIF_FIRST || ev.type > RSMI_EVT_NOTIF_LAST ||
                !event_init[ev.device] || !(event_mask[ev.device] & RSMI_EVENT_MASK_FROM_INDEX(ev.type))) {
                continue;
            }
            data[got].dv_ind = (uint32_t) ev.device;
            data[got].event = (rsmi_evt_notification_type_t) ev.type;
            snprintf(data[got].message, sizeof data[got].message, "%s", ev.message);
            got++;
        }
        if (got > 0) break;
        uint64_t now = mock_now_ms();
        if (now >= deadline) {
            rc = RSMI_STATUS_NO_DATA;
            break;
        }
        mock_sleep_unlocked(deadline - now < 5 ? (unsigned) (deadline - now) : 5);
    }
    if (num_elem != NULL) *num_elem = got;
    LEAVE;
}

MOCK_EXPORT rsmi_status_t rsmi_event_notification_stop(uint32_t dv_ind) {
    ENTER("rsmi_event_notification_stop");
    int i = device_of(dv_ind, &dv_ind, &rc);
    if (i >= 0) {
        event_init[i] = 0;
        event_mask[i] = 0;
    }
    LEAVE;
}
