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
    return 0;
}
