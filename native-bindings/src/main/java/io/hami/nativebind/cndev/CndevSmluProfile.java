package io.hami.nativebind.cndev;

/** An sMLU profile: a share of the card's cores (percent) and memory; capacities count instances. */
public record CndevSmluProfile(
        int profileId, String name, int mluQuota, long memoryBytes, int totalCapacity, int remainCapacity) {}
