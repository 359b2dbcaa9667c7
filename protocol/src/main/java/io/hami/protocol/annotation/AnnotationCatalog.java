package io.hami.protocol.annotation;

import io.hami.protocol.codec.MigAllocationsCodec;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Every protocol annotation key of the loaded vendors, with what it carries. */
public final class AnnotationCatalog {
    private final Map<String, AnnotationKind> kinds = new LinkedHashMap<>();

    public AnnotationCatalog(DeviceBackends backends) {
        kinds.put(ProtocolKeys.NODE_LOCK, new AnnotationKind.NodeLockKey());
        kinds.put(ProtocolKeys.BIND_TIME, new AnnotationKind.UnixTimeKey());
        kinds.put(ProtocolKeys.VGPU_TIME, new AnnotationKind.UnixTimeKey());
        kinds.put(ProtocolKeys.MIG_ALLOCATIONS, new AnnotationKind.PodJsonKey(MigAllocationsCodec.ANNOTATION));
        for (DeviceBackend b : backends.all()) {
            var keys = b.keys();
            keys.registerKey()
                    .ifPresent(k -> kinds.put(
                            k,
                            new AnnotationKind.NodeRegister(
                                    b, keys.registerCodec().orElseThrow())));
            keys.handshakeKey().ifPresent(k -> kinds.put(k, new AnnotationKind.HandshakeKey(b)));
            kinds.put(keys.toAllocateKey(), new AnnotationKind.PodDevicesKey(b, true));
            kinds.put(keys.allocatedKey(), new AnnotationKind.PodDevicesKey(b, false));
            b.nodeAnnotations().forEach((k, codec) -> kinds.put(k, new AnnotationKind.VendorNodeKey(b, codec)));
        }
    }

    public Optional<AnnotationKind> kindOf(String key) {
        return Optional.ofNullable(kinds.get(key));
    }

    /** All keys, in a stable order, for help texts and error messages. */
    public java.util.Set<String> keys() {
        return java.util.Collections.unmodifiableSet(kinds.keySet());
    }
}
