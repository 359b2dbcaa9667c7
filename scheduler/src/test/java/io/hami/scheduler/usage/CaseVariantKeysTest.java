package io.hami.scheduler.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.webhook.AdmissionRules;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Annotation keys are case-sensitive: {@code Hami.io/vgpu-devices-allocated} is not {@code
 * hami.io/vgpu-devices-allocated}. No reader of the scheduler takes a variant for a protocol key: the usage index (what
 * a pod holds, and on which node), node discovery, and the webhook. The API server refuses variants all the same
 * (deploy/'s protocol-keys-policy.yaml compares keys in lower case; e2e's trust tests); the plugin's pod lookup is
 * plugin's CaseVariantKeysTest.
 */
class CaseVariantKeysTest {
    private static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);
    private static final String ENTRY = "GPU-0,NVIDIA,40000,100:;";

    /** Every key in the variants tried: first letter upper, all upper, the domain upper. */
    private static Map<String, String> variants(Map<String, String> keys) {
        var out = new java.util.TreeMap<String, String>();
        keys.forEach((k, v) -> {
            out.put(Character.toUpperCase(k.charAt(0)) + k.substring(1), v);
            out.put(k.toUpperCase(Locale.ROOT), v);
            out.put("HAMI.IO" + k.substring("hami.io".length()), v);
        });
        return out;
    }

    private static Map<String, String> podKeys() {
        var keys = new java.util.TreeMap<String, String>(Map.of(
                "hami.io/bind-phase", "allocating",
                "hami.io/vgpu-node", "n1",
                "hami.io/bind-time", "1780000000",
                "hami.io/vgpu-time", "1780000000"));
        BACKENDS.all().forEach(b -> {
            keys.put(b.keys().toAllocateKey(), ENTRY);
            keys.put(b.keys().allocatedKey(), ENTRY);
        });
        return keys;
    }

    private static Pod pod(Map<String, String> annotations, String nodeName) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withNodeName(nodeName)
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    @Test
    void theVariantsAreOtherKeys() {
        assertThat(variants(podKeys()))
                .hasSize(3 * podKeys().size())
                .allSatisfy((k, v) -> assertThat(podKeys()).doesNotContainKey(k));
    }

    @Test
    void theUsageIndexCountsNothingForVariantsOfTheDecision() {
        // Bound or binding: the real keys are what make a pod hold devices, and on which node.
        assertThat(PodUsage.of(pod(podKeys(), "n1"), BACKENDS)).isInstanceOf(PodUsage.Counted.class);
        assertThat(PodUsage.countedNode(pod(podKeys(), null))).isEqualTo("n1");

        assertThat(PodUsage.of(pod(variants(podKeys()), "n1"), BACKENDS)).isEqualTo(new PodUsage.NotCounted());
        assertThat(PodUsage.countedNode(pod(variants(podKeys()), null)))
                .as("a variant bind-phase and vgpu-node place the pod nowhere")
                .isNull();
    }

    @Test
    void nodeDiscoveryReadsNoVariantOfARegister() {
        String register = JsonRegisterCodec.encode(
                List.of(new DeviceInfo("GPU-0", 0, 10, 16000, 100, "NVIDIA-A10", 0, "hami-core", true)));
        var keys = new java.util.TreeMap<String, String>();
        BACKENDS.all().forEach(b -> b.keys().registerKey().ifPresent(k -> keys.put(k, register)));
        assertThat(keys).containsKeys("hami.io/node-nvidia-register", "hami.io/node-hcu-register");
        Node node = new NodeBuilder()
                .withNewMetadata()
                .withName("n1")
                .withAnnotations(variants(keys))
                .endMetadata()
                .withNewStatus()
                .addToAllocatable(Map.of("nvidia.com/gpu", new Quantity("10"), "hygon.com/hcunum", new Quantity("10")))
                .endStatus()
                .build();
        NodeDevices read = NodeDevices.read(node, BACKENDS, Set.of());
        assertThat(read.devices()).as("no devices from a variant").isEmpty();
        assertThat(read.invalid()).as("and no attempt to read one").isEmpty();
    }

    @Test
    void theWebhookTreatsVariantsAsOrdinaryAnnotations() {
        var rules = new AdmissionRules(BACKENDS, "hami-scheduler");
        assertThat(rules.review(pod(Map.of("hami.io/bind-phase", "allocating"), null)))
                .as("the real key is refused")
                .isInstanceOf(AdmissionRules.Verdict.Denied.class);
        var verdict = rules.review(pod(variants(podKeys()), null));
        assertThat(verdict)
                .as("variants grant nothing, so the webhook leaves them (the API server's policy refuses them)")
                .isInstanceOf(AdmissionRules.Verdict.Allowed.class);
        var mutated = ((AdmissionRules.Verdict.Allowed) verdict).pod();
        assertThat(mutated.getMetadata().getAnnotations()).containsAllEntriesOf(variants(podKeys()));
    }
}
