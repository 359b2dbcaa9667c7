package io.hami.backend.nvidia;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitRules;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** NVIDIA's checks in the fit walk: type and mode selectors, cordoned cards, NUMA binding. */
final class NvidiaFitRules implements FitRules {
    static final NvidiaFitRules INSTANCE = new NvidiaFitRules();

    /** The spellings Go's {@code strconv.ParseBool} reads as true; anything else, invalid text included, is false. */
    private static final Set<String> GO_TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");

    private NvidiaFitRules() {}

    /**
     * The request is NVIDIA's, the device type passes {@code nvidia.com/use-gputype}/{@code nouse-gputype}, and
     * the device mode is a substring of {@code nvidia.com/vgpu-mode} when that is set (an empty mode always is).
     */
    @Override
    public boolean typeMatches(DeviceInfo device, ContainerRequest request, FitContext context) {
        Map<String, String> annotations = context.podAnnotations();
        String mode = annotations.get(NvidiaKeys.VGPU_MODE);
        return NvidiaKeys.VENDOR.equals(request.type())
                && NvidiaKeys.TYPE_SELECTOR.byType(annotations).test(device.type())
                && (mode == null || mode.contains(device.mode()));
    }

    @Override
    public DeviceSelector uuidSelector() {
        return NvidiaKeys.UUID_SELECTOR;
    }

    /** The node's {@code hami.io/device-cordon} items, trimmed, empty ones skipped. */
    @Override
    public Set<String> cordoned(FitContext context) {
        String value = context.nodeAnnotations().getOrDefault(NvidiaKeys.DEVICE_CORDON, "");
        return Arrays.stream(value.split(",", -1))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public boolean numaBind(FitContext context) {
        return numaBind(context.podAnnotations());
    }

    static boolean numaBind(Map<String, String> podAnnotations) {
        return GO_TRUE.contains(podAnnotations.getOrDefault(NvidiaKeys.NUMA_BIND, ""));
    }
}
