/*
 * hami-java's own declaration of the ROCm SMI subset it uses (Hygon's librocm_smi64.so.2, ROCm SMI 2.8).
 * Prototypes, enum values, constants and struct layouts are facts of the ABI
 * (docs/upstream.md#native-rocm-smi). Devices are plain indexes, there are no handles.
 */
#ifndef HAMI_ROCM_SMI_H
#define HAMI_ROCM_SMI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    RSMI_STATUS_SUCCESS = 0,
    RSMI_STATUS_INVALID_ARGS = 1,
    RSMI_STATUS_NOT_SUPPORTED = 2,
    RSMI_STATUS_FILE_ERROR = 3,
    RSMI_STATUS_PERMISSION = 4,
    RSMI_STATUS_OUT_OF_RESOURCES = 5,
    RSMI_STATUS_INTERNAL_EXCEPTION = 6,
    RSMI_STATUS_INPUT_OUT_OF_BOUNDS = 7,
    RSMI_STATUS_INIT_ERROR = 8,
    RSMI_INITIALIZATION_ERROR = RSMI_STATUS_INIT_ERROR,
    RSMI_STATUS_NOT_YET_IMPLEMENTED = 9,
    RSMI_STATUS_NOT_FOUND = 10,
    RSMI_STATUS_INSUFFICIENT_SIZE = 11,
    RSMI_STATUS_INTERRUPT = 12,
    RSMI_STATUS_UNEXPECTED_SIZE = 13,
    RSMI_STATUS_NO_DATA = 14,
    RSMI_STATUS_UNEXPECTED_DATA = 15,
    RSMI_STATUS_BUSY = 16,
    RSMI_STATUS_REFCOUNT_OVERFLOW = 17,
    RSMI_STATUS_SETTING_UNAVAILABLE = 18,
    RSMI_STATUS_AMDGPU_RESTART_ERR = 19,
    RSMI_STATUS_UNKNOWN_ERROR = 0xFFFFFFFF
} rsmi_status_t;

typedef enum {
    RSMI_MEM_TYPE_FIRST = 0,
    RSMI_MEM_TYPE_VRAM = RSMI_MEM_TYPE_FIRST,
    RSMI_MEM_TYPE_VIS_VRAM = 1,
    RSMI_MEM_TYPE_GTT = 2,
    RSMI_MEM_TYPE_LAST = RSMI_MEM_TYPE_GTT
} rsmi_memory_type_t;

typedef enum {
    RSMI_SW_COMP_FIRST = 0,
    RSMI_SW_COMP_DRIVER = RSMI_SW_COMP_FIRST,
    RSMI_SW_COMP_LAST = RSMI_SW_COMP_DRIVER
} rsmi_sw_component_t;

typedef enum {
    RSMI_EVT_NOTIF_VMFAULT = 1,
    RSMI_EVT_NOTIF_FIRST = RSMI_EVT_NOTIF_VMFAULT,
    RSMI_EVT_NOTIF_THERMAL_THROTTLE = 2,
    RSMI_EVT_NOTIF_GPU_PRE_RESET = 3,
    RSMI_EVT_NOTIF_GPU_POST_RESET = 4,
    RSMI_EVT_NOTIF_LAST = RSMI_EVT_NOTIF_GPU_POST_RESET
} rsmi_evt_notification_type_t;

#define RSMI_EVENT_MASK_FROM_INDEX(i) (1ULL << ((i) - 1))
#define MAX_EVENT_NOTIFICATION_MSG_SIZE 64

typedef struct {
    uint32_t dv_ind;
    rsmi_evt_notification_type_t event;
    char message[MAX_EVENT_NOTIFICATION_MSG_SIZE];
} rsmi_evt_notification_data_t;

/* BDF id: ((domain & 0xffffffff) << 32) | ((bus & 0xff) << 8) | ((device & 0x1f) << 3) | (function & 0x7) */

rsmi_status_t rsmi_init(uint64_t init_flags);
rsmi_status_t rsmi_shut_down(void);
rsmi_status_t rsmi_status_string(rsmi_status_t status, const char **status_string);
rsmi_status_t rsmi_version_str_get(rsmi_sw_component_t component, char *ver_str, uint32_t len);
rsmi_status_t rsmi_num_monitor_devices(uint32_t *num_devices);
rsmi_status_t rsmi_dev_id_get(uint32_t dv_ind, uint16_t *id);
rsmi_status_t rsmi_dev_name_get(uint32_t dv_ind, char *name, size_t len);
rsmi_status_t rsmi_dev_serial_number_get(uint32_t dv_ind, char *serial_num, uint32_t len);
rsmi_status_t rsmi_dev_unique_id_get(uint32_t dv_ind, uint64_t *id);
rsmi_status_t rsmi_dev_pci_id_get(uint32_t dv_ind, uint64_t *bdfid);
rsmi_status_t rsmi_dev_memory_total_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t *total);
rsmi_status_t rsmi_dev_memory_usage_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t *used);
rsmi_status_t rsmi_dev_busy_percent_get(uint32_t dv_ind, uint32_t *busy_percent);
rsmi_status_t rsmi_dev_drm_render_minor_get(uint32_t dv_ind, uint32_t *minor);
rsmi_status_t rsmi_topo_get_numa_node_number(uint32_t dv_ind, uint32_t *numa_node);
rsmi_status_t rsmi_event_notification_init(uint32_t dv_ind);
rsmi_status_t rsmi_event_notification_mask_set(uint32_t dv_ind, uint64_t mask);
rsmi_status_t rsmi_event_notification_get(int timeout_ms, uint32_t *num_elem, rsmi_evt_notification_data_t *data);
rsmi_status_t rsmi_event_notification_stop(uint32_t dv_ind);

#ifdef __cplusplus
}
#endif
#endif
