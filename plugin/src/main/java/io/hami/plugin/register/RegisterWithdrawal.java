package io.hami.plugin.register;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.VendorKeys;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * While a plugin cannot use its vendor library it registers nothing with the kubelet, so the node's Allocatable
 * count of the vendor falls to 0, which the scheduler already reads as "no devices" (design D3). A register
 * annotation left by an earlier run still lists the cards as healthy, though, and the scheduler reads the cards from
 * it: so every card in it is rewritten unhealthy ({@code health:false}, the protocol's own per-card flag), not
 * removed, so that {@code hami inspect nodes} still shows which cards the node had. The next successful start
 * publishes the real inventory over it.
 */
public final class RegisterWithdrawal {
    private RegisterWithdrawal() {}

    /** What {@link #withdraw} did. */
    public sealed interface Outcome {
        /** Every card of the value is now published unhealthy. */
        record Rewritten(int cards) implements Outcome {}

        /** No register key, no value, or every card already unhealthy: nothing to write. */
        record NothingToWithdraw() implements Outcome {}

        /** The value left on the Node cannot be read; it is left as it is (the scheduler fails such a node closed). */
        record Unreadable(String reason) implements Outcome {}
    }

    /**
     * The cards of {@code value}, every one unhealthy, or empty when none is healthy (nothing would change).
     *
     * @throws AnnotationFormatException when {@code value} cannot be read with {@code codec}
     */
    static Optional<List<DeviceInfo>> unhealthy(RegisterCodec codec, String value) throws AnnotationFormatException {
        List<DeviceInfo> cards = codec.decode(value);
        if (cards.stream().noneMatch(DeviceInfo::health)) {
            return Optional.empty();
        }
        return Optional.of(cards.stream().map(c -> c.withHealth(false)).toList());
    }

    /**
     * Rewrites the register value of {@code keys} on {@code node} (as read just now) with every card unhealthy, through
     * the same merge patch as the register loop's.
     *
     * @throws KubernetesClientException when the patch fails (counted in {@code observer}; the caller tries again)
     */
    public static Outcome withdraw(KubernetesClient client, Node node, VendorKeys keys, NodeWriteObserver observer) {
        if (keys.registerKey().isEmpty()) {
            return new Outcome.NothingToWithdraw();
        }
        String key = keys.registerKey().get();
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(key);
        if (value == null) {
            return new Outcome.NothingToWithdraw();
        }
        RegisterCodec codec = keys.registerCodec().orElseThrow();
        Optional<List<DeviceInfo>> rewritten;
        try {
            rewritten = unhealthy(codec, value);
        } catch (AnnotationFormatException e) {
            return new Outcome.Unreadable(e.getMessage());
        }
        if (rewritten.isEmpty()) {
            return new Outcome.NothingToWithdraw();
        }
        try {
            client.nodes()
                    .withName(node.getMetadata().getName())
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            AnnotationPatch.mergePatch(Map.of(key, codec.encode(rewritten.get())), Map.of(), null));
        } catch (KubernetesClientException e) {
            observer.registerWritten(false);
            throw e;
        }
        observer.registerWritten(true);
        return new Outcome.Rewritten(rewritten.get().size());
    }
}
