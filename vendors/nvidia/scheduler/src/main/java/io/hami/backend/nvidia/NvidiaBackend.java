package io.hami.backend.nvidia;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.hami.backend.nvidia.topology.DevicePairScoreCodec;
import io.hami.backend.nvidia.topology.PairScoreTable;
import io.hami.backend.nvidia.topology.TopologyFit;
import io.hami.protocol.codec.AnnotationCodec;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.fit.FitWalk;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.Discovery;
import io.hami.protocol.spi.NodeDiscovery;
import io.hami.protocol.spi.ResourceNames;
import io.hami.protocol.spi.VendorKeys;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The NVIDIA GPU backend: JSON register annotation, handshake plus Allocatable health, NUMA binding. */
public final class NvidiaBackend implements DeviceBackend {
    private final NvidiaConfig config;
    private final ResourceNames resources;

    public NvidiaBackend(NvidiaConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.resources = new ResourceNames(
                config.resources().resourceCountName(),
                config.resources().resourceMemoryName(),
                Optional.of(config.resources().resourceMemoryPercentageName()).filter(name -> !name.isEmpty()),
                config.resources().resourceCoreName());
    }

    @Override
    public String vendor() {
        return NvidiaKeys.VENDOR;
    }

    @Override
    public VendorKeys keys() {
        return NvidiaKeys.VENDOR_KEYS;
    }

    @Override
    public ResourceNames resources() {
        return resources;
    }

    /**
     * The devices of {@code hami.io/node-nvidia-register} whose type contains {@code NVIDIA}, any case. A
     * {@code hami.io/node-nvidia-score} that does not decode makes the inventory invalid, as upstream rejects the node.
     */
    @Override
    public Discovery discover(Node node) {
        Discovery found =
                NodeDiscovery.fromRegister(node, NvidiaKeys.REGISTER, RegisterCodec.JSON::decode, NvidiaKeys.VENDOR);
        if (!(found instanceof Discovery.Found)) {
            return found;
        }
        var annotations = node.getMetadata().getAnnotations();
        String scores = annotations == null ? null : annotations.get(NvidiaKeys.SCORE);
        if (scores != null) {
            try {
                DevicePairScoreCodec.decode(scores);
            } catch (AnnotationFormatException e) {
                return new Discovery.Invalid(
                        NvidiaKeys.SCORE + " on node " + node.getMetadata().getName() + ": " + e.getMessage());
            }
        }
        return found;
    }

    /** {@code hami.io/node-nvidia-score}, for {@code hami annotation}: its canonical JSON is the value re-encoded. */
    @Override
    public Map<String, AnnotationCodec> nodeAnnotations() {
        return Map.of(NvidiaKeys.SCORE, SCORE_CODEC);
    }

    private static final AnnotationCodec SCORE_CODEC = new AnnotationCodec() {
        @Override
        public String toJson(String value) throws AnnotationFormatException {
            return DevicePairScoreCodec.encode(DevicePairScoreCodec.decode(value));
        }

        @Override
        public String fromJson(String json) throws AnnotationFormatException {
            return DevicePairScoreCodec.encode(DevicePairScoreCodec.decode(json));
        }
    };

    @Override
    public ContainerRequest request(Container container) {
        return NvidiaRequests.of(container, config);
    }

    @Override
    public FitResult fit(List<DeviceUsage> devices, ContainerRequest request, FitContext context) {
        FitResult walked = FitWalk.fit(devices, request, context, NvidiaFitRules.INSTANCE);
        if (walked instanceof FitResult.Fits fits && TopologyFit.applies(context)) {
            // Same answer as the walk (fits or not); only which devices are granted changes.
            return TopologyFit.choose(
                    fits,
                    devices,
                    request,
                    context,
                    NvidiaFitRules.INSTANCE,
                    PairScoreTable.parse(context.nodeAnnotations().get(NvidiaKeys.SCORE)));
        }
        return walked;
    }

    @Override
    public java.util.Optional<io.hami.protocol.fit.FitRules> fitRules() {
        return java.util.Optional.of(NvidiaFitRules.INSTANCE);
    }

    @Override
    public boolean numaBind(Map<String, String> podAnnotations) {
        return NvidiaFitRules.numaBind(podAnnotations);
    }

    @Override
    public io.hami.protocol.spi.Admission admit(Container container) {
        return NvidiaAdmission.admit(container, config);
    }

    /** The memory resource counts in MiB times the memory factor (when above 1), as requests do. */
    @Override
    public int memoryUnitMiB() {
        return Math.max(config.requests().memoryFactor(), 1);
    }

    @Override
    public HealthVerdict checkHealth(Node node, Instant now, HealthMemory previous) {
        return NvidiaHealth.check(node, now, previous, config.resources().resourceCountName());
    }
}
