package io.hami.lab.workload;

import io.hami.lab.scenario.ContainerSpec;
import io.hami.lab.scenario.UsageProfile;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The usage profiles of a pod's containers, carried to the lab's container runtime in a pod annotation (JSON). */
public final class UsageAnnotation {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, UsageProfile>> TYPE = new TypeReference<>() {};

    private UsageAnnotation() {}

    /** Container name to profile, for the containers that have one; null when none has. */
    public static String encode(List<ContainerSpec> containers) {
        var profiles = new TreeMap<String, UsageProfile>();
        containers.stream().filter(c -> c.usage() != null).forEach(c -> profiles.put(c.name(), c.usage()));
        return profiles.isEmpty() ? null : JSON.writeValueAsString(profiles);
    }

    /** The profiles {@link #encode} wrote; empty for null. */
    public static Map<String, UsageProfile> decode(String value) {
        if (value == null) {
            return Map.of();
        }
        try {
            return JSON.readValue(value, TYPE);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not a usage annotation: " + value, e);
        }
    }
}
