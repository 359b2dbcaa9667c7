/*
 * Prints the C layout of every struct the Java bindings declare, from the project's own headers:
 *   struct <name> <sizeof> <alignof>
 *   field <struct> <member> <offsetof>
 * StructLayoutTest compiles this with gcc and compares each line with the Java layouts.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>

#include "hami_cndev.h"
#include "hami_hydmi.h"
#include "hami_mtml.h"
#include "hami_nvml.h"
#include "hami_rocm_smi.h"
#include "hami_shared_region.h"

#define STRUCT(t) printf("struct %s %zu %zu\n", #t, sizeof(t), alignof(t))
#define FIELD(t, f) printf("field %s %s %zu\n", #t, #f, offsetof(t, f))

int main(void) {
    STRUCT(nvmlPciInfo_t);
    FIELD(nvmlPciInfo_t, busIdLegacy);
    FIELD(nvmlPciInfo_t, domain);
    FIELD(nvmlPciInfo_t, bus);
    FIELD(nvmlPciInfo_t, device);
    FIELD(nvmlPciInfo_t, pciDeviceId);
    FIELD(nvmlPciInfo_t, pciSubSystemId);
    FIELD(nvmlPciInfo_t, busId);

    STRUCT(nvmlMemory_t);
    FIELD(nvmlMemory_t, total);
    FIELD(nvmlMemory_t, free);
    FIELD(nvmlMemory_t, used);

    STRUCT(nvmlMemory_v2_t);
    FIELD(nvmlMemory_v2_t, version);
    FIELD(nvmlMemory_v2_t, total);
    FIELD(nvmlMemory_v2_t, reserved);
    FIELD(nvmlMemory_v2_t, free);
    FIELD(nvmlMemory_v2_t, used);

    STRUCT(nvmlUtilization_t);
    FIELD(nvmlUtilization_t, gpu);
    FIELD(nvmlUtilization_t, memory);

    STRUCT(nvmlEventData_t);
    FIELD(nvmlEventData_t, device);
    FIELD(nvmlEventData_t, eventType);
    FIELD(nvmlEventData_t, eventData);
    FIELD(nvmlEventData_t, gpuInstanceId);
    FIELD(nvmlEventData_t, computeInstanceId);

    STRUCT(cndevCardInfo_t);
    FIELD(cndevCardInfo_t, version);
    FIELD(cndevCardInfo_t, number);

    STRUCT(cndevUUID_t);
    FIELD(cndevUUID_t, version);
    FIELD(cndevUUID_t, uuid);
    FIELD(cndevUUID_t, ncsUUID64);

    STRUCT(cndevMemoryInfoV2_t);
    FIELD(cndevMemoryInfoV2_t, physicalMemoryTotal);
    FIELD(cndevMemoryInfoV2_t, physicalMemoryUsed);
    FIELD(cndevMemoryInfoV2_t, reservedMemory);
    FIELD(cndevMemoryInfoV2_t, virtualMemoryTotal);
    FIELD(cndevMemoryInfoV2_t, virtualMemoryUsed);
    FIELD(cndevMemoryInfoV2_t, globalMemory);
    FIELD(cndevMemoryInfoV2_t, reserved);

    STRUCT(cndevPCIeInfoV2_t);
    FIELD(cndevPCIeInfoV2_t, subsystemId);
    FIELD(cndevPCIeInfoV2_t, deviceId);
    FIELD(cndevPCIeInfoV2_t, vendor);
    FIELD(cndevPCIeInfoV2_t, subsystemVendor);
    FIELD(cndevPCIeInfoV2_t, domain);
    FIELD(cndevPCIeInfoV2_t, bus);
    FIELD(cndevPCIeInfoV2_t, device);
    FIELD(cndevPCIeInfoV2_t, function);
    FIELD(cndevPCIeInfoV2_t, moduleId);
    FIELD(cndevPCIeInfoV2_t, slotId);
    FIELD(cndevPCIeInfoV2_t, reserved);

    STRUCT(cndevNUMANodeId_t);
    FIELD(cndevNUMANodeId_t, version);
    FIELD(cndevNUMANodeId_t, nodeId);

    STRUCT(cndevCardHealthState_t);
    FIELD(cndevCardHealthState_t, version);
    FIELD(cndevCardHealthState_t, health);
    FIELD(cndevCardHealthState_t, deviceState);
    FIELD(cndevCardHealthState_t, driverState);

    STRUCT(cndevSMluSet_t);
    FIELD(cndevSMluSet_t, version);
    FIELD(cndevSMluSet_t, mluQuota);
    FIELD(cndevSMluSet_t, memorySize);

    STRUCT(cndevSMluProfileIdInfo_t);
    FIELD(cndevSMluProfileIdInfo_t, version);
    FIELD(cndevSMluProfileIdInfo_t, count);
    FIELD(cndevSMluProfileIdInfo_t, profileId);

    STRUCT(cndevSMluProfileInfo_t);
    FIELD(cndevSMluProfileInfo_t, version);
    FIELD(cndevSMluProfileInfo_t, profileId);
    FIELD(cndevSMluProfileInfo_t, name);
    FIELD(cndevSMluProfileInfo_t, totalCapacity);
    FIELD(cndevSMluProfileInfo_t, remainCapacity);
    FIELD(cndevSMluProfileInfo_t, mluQuota);
    FIELD(cndevSMluProfileInfo_t, memorySize);

    STRUCT(cndevSMluInfo_t);
    FIELD(cndevSMluInfo_t, version);
    FIELD(cndevSMluInfo_t, profileId);
    FIELD(cndevSMluInfo_t, instanceId);
    FIELD(cndevSMluInfo_t, uuid);
    FIELD(cndevSMluInfo_t, domain);
    FIELD(cndevSMluInfo_t, bus);
    FIELD(cndevSMluInfo_t, device);
    FIELD(cndevSMluInfo_t, function);
    FIELD(cndevSMluInfo_t, profileName);
    FIELD(cndevSMluInfo_t, instanceName);
    FIELD(cndevSMluInfo_t, devNodeName);
    FIELD(cndevSMluInfo_t, mluQuota);
    FIELD(cndevSMluInfo_t, memorySize);
    FIELD(cndevSMluInfo_t, reserved);

    STRUCT(MtmlPciInfo);
    FIELD(MtmlPciInfo, sbdf);
    FIELD(MtmlPciInfo, segment);
    FIELD(MtmlPciInfo, bus);
    FIELD(MtmlPciInfo, device);
    FIELD(MtmlPciInfo, pciDeviceId);
    FIELD(MtmlPciInfo, pciSubsystemId);
    FIELD(MtmlPciInfo, busWidth);
    FIELD(MtmlPciInfo, pciMaxSpeed);
    FIELD(MtmlPciInfo, pciCurSpeed);
    FIELD(MtmlPciInfo, pciMaxWidth);
    FIELD(MtmlPciInfo, pciCurWidth);
    FIELD(MtmlPciInfo, pciMaxGen);
    FIELD(MtmlPciInfo, pciCurGen);
    FIELD(MtmlPciInfo, rsvd);

    STRUCT(rsmi_evt_notification_data_t);
    FIELD(rsmi_evt_notification_data_t, dv_ind);
    FIELD(rsmi_evt_notification_data_t, event);
    FIELD(rsmi_evt_notification_data_t, message);

    STRUCT(dmiDeviceInfo);
    FIELD(dmiDeviceInfo, name);
    FIELD(dmiDeviceInfo, compute_unit_count);
    FIELD(dmiDeviceInfo, global_mem_size);
    FIELD(dmiDeviceInfo, usage_mem_size);
    FIELD(dmiDeviceInfo, container_id);
    FIELD(dmiDeviceInfo, device_id);
    STRUCT(device_memory_t);
    FIELD(device_memory_t, context_size);
    FIELD(device_memory_t, module_size);
    FIELD(device_memory_t, data_size);
    FIELD(device_memory_t, offset);
    FIELD(device_memory_t, total);
    FIELD(device_memory_t, unused);

    STRUCT(device_util_t);
    FIELD(device_util_t, dec_util);
    FIELD(device_util_t, enc_util);
    FIELD(device_util_t, sm_util);
    FIELD(device_util_t, unused);

    STRUCT(shrreg_proc_slot_t);
    FIELD(shrreg_proc_slot_t, pid);
    FIELD(shrreg_proc_slot_t, hostpid);
    FIELD(shrreg_proc_slot_t, used);
    FIELD(shrreg_proc_slot_t, monitorused);
    FIELD(shrreg_proc_slot_t, device_util);
    FIELD(shrreg_proc_slot_t, status);
    FIELD(shrreg_proc_slot_t, seqlock);
    FIELD(shrreg_proc_slot_t, unused);

    STRUCT(shared_region_t);
    FIELD(shared_region_t, initialized_flag);
    FIELD(shared_region_t, major_version);
    FIELD(shared_region_t, minor_version);
    FIELD(shared_region_t, sm_init_flag);
    FIELD(shared_region_t, owner_pid);
    FIELD(shared_region_t, sem);
    FIELD(shared_region_t, device_num);
    FIELD(shared_region_t, uuids);
    FIELD(shared_region_t, limit);
    FIELD(shared_region_t, sm_limit);
    FIELD(shared_region_t, procs);
    FIELD(shared_region_t, proc_num);
    FIELD(shared_region_t, utilization_switch);
    FIELD(shared_region_t, recent_kernel);
    FIELD(shared_region_t, priority);
    FIELD(shared_region_t, last_kernel_time);
    FIELD(shared_region_t, sem_postinit);

    STRUCT(device_memory_v0_t);
    FIELD(device_memory_v0_t, context_size);
    FIELD(device_memory_v0_t, module_size);
    FIELD(device_memory_v0_t, data_size);
    FIELD(device_memory_v0_t, offset);
    FIELD(device_memory_v0_t, total);

    STRUCT(device_util_v0_t);
    FIELD(device_util_v0_t, dec_util);
    FIELD(device_util_v0_t, enc_util);
    FIELD(device_util_v0_t, sm_util);

    STRUCT(shrreg_proc_slot_v0_t);
    FIELD(shrreg_proc_slot_v0_t, pid);
    FIELD(shrreg_proc_slot_v0_t, hostpid);
    FIELD(shrreg_proc_slot_v0_t, used);
    FIELD(shrreg_proc_slot_v0_t, monitorused);
    FIELD(shrreg_proc_slot_v0_t, device_util);
    FIELD(shrreg_proc_slot_v0_t, status);

    STRUCT(shared_region_v0_t);
    FIELD(shared_region_v0_t, initialized_flag);
    FIELD(shared_region_v0_t, sm_init_flag);
    FIELD(shared_region_v0_t, owner_pid);
    FIELD(shared_region_v0_t, sem);
    FIELD(shared_region_v0_t, device_num);
    FIELD(shared_region_v0_t, uuids);
    FIELD(shared_region_v0_t, limit);
    FIELD(shared_region_v0_t, sm_limit);
    FIELD(shared_region_v0_t, procs);
    FIELD(shared_region_v0_t, proc_num);
    FIELD(shared_region_v0_t, utilization_switch);
    FIELD(shared_region_v0_t, recent_kernel);
    FIELD(shared_region_v0_t, priority);

    return 0;
}
