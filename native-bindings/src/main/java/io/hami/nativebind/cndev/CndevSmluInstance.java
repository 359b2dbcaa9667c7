package io.hami.nativebind.cndev;

/** An sMLU instance created from a profile; containers get {@code devNodeName}. */
public record CndevSmluInstance(
        int profileId,
        int instanceId,
        String uuid,
        String instanceName,
        String profileName,
        String devNodeName,
        int mluQuota,
        long memoryBytes) {}
