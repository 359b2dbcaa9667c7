package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import io.hami.protocol.testing.Patience;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 16 (upstream #3041/#3076): the kubelet's Allocate names no pod, and pods are user-writable. The plugin serves
 * only the pod the node lock names; a pod that wrote a decision on itself gets nothing, and when a pod without a
 * decision waits for the same resource the holder's grant is not handed out (fail closed, with an Event).
 */
class UnattributedAllocateTest {
    static final String NODE = "n1";
    static final String GPU0 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final String GPU1 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001";
    static final String RESOURCE = "nvidia.com/gpu";
    static final VendorKeys KEYS = DeviceBackends.load(DeviceConfig.DEFAULTS)
            .byVendor(NvidiaKeys.VENDOR)
            .orElseThrow()
            .keys();
    static final String A_DECISION = GPU0 + ",NVIDIA,3000,30:;";

    @RegisterExtension
    final PluginFixture node = new PluginFixture(NODE);

    @BeforeEach
    void start() {
        node.start("nvidia");
    }

    @Test
    void aPodThatWritesItsOwnDecisionIsNotServedWithoutTheNodeLock() {
        String decision = GPU0 + ",NVIDIA,40960,100:;";
        create(
                pod(
                        "self",
                        "1",
                        Map.of(
                                ProtocolKeys.VGPU_NODE,
                                NODE,
                                ProtocolKeys.BIND_PHASE,
                                "allocating",
                                KEYS.toAllocateKey(),
                                decision,
                                KEYS.allocatedKey(),
                                decision)),
                true);

        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-0")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
                    assertThat(e.getStatus().getDescription())
                            .isEqualTo("node n1 is not locked: an Allocate of "
                                    + "nvidia.com/gpu is served only for the pod the node lock names; waiting for NVIDIA "
                                    + "devices: default/self bind-phase=allocating");
                });
        assertThat(node.cluster().annotation("self", KEYS.toAllocateKey())).isEqualTo(decision);
        assertThat(node.cluster().annotation("self", ProtocolKeys.BIND_PHASE)).isEqualTo("allocating");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).isNull();
    }

    /** The case: B's quantity read as "no request", so B was bound with no decision; A holds the lock. */
    @Test
    void aPodWithoutADecisionMakesTheHoldersGrantUnservableUntilTheKubeletRejectsIt() {
        create(pod("a", "1", Map.of()), false);
        node.cluster().bind("a", NODE, Map.of(KEYS, A_DECISION));
        create(pod("b", "1e18", Map.of()), false);
        bindWithoutDecision("b");

        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-1")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
                    assertThat(e.getStatus().getDescription())
                            .isEqualTo("Allocate of nvidia.com/gpu on node n1 "
                                    + "refused: pod default/a holds the node lock, but pod default/b also requests nvidia.com/gpu "
                                    + "without a decision of the HAMi scheduler for this node; the kubelet does not say which "
                                    + "pod this Allocate is for, so it is not served");
                });
        // nothing consumed, nothing given up: A's grant waits for A's own call
        assertThat(node.cluster().annotation("a", KEYS.toAllocateKey())).isEqualTo(A_DECISION);
        assertThat(node.cluster().annotation("a", ProtocolKeys.BIND_PHASE)).isEqualTo("allocating");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).endsWith(",default,a");
        for (String pod : List.of("a", "b")) {
            await().atMost(Patience.seconds(10))
                    .untilAsserted(() -> assertThat(events(pod)).singleElement().satisfies(ev -> {
                        assertThat(ev.getType()).isEqualTo("Warning");
                        assertThat(ev.getReason()).isEqualTo("AllocationAmbiguous");
                        assertThat(ev.getMessage()).contains("node n1", "nvidia.com/gpu", "default/a", "default/b");
                        assertThat(ev.getSource().getComponent()).isEqualTo("hami-device-plugin");
                        assertThat(ev.getInvolvedObject().getUid())
                                .isEqualTo(node.cluster().get(pod).getMetadata().getUid());
                    }));
        }

        node.cluster().reject("b");
        ContainerAllocateResponse r =
                node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-1")).getContainerResponses(0);
        assertThat(r.getEnvsMap())
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "3000m")
                .containsEntry("NVIDIA_VISIBLE_DEVICES", GPU0);
        assertThat(node.cluster().annotation("a", ProtocolKeys.BIND_PHASE)).isEqualTo("success");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).isNull();
    }

    /**
     * A pod that also forges a finished decision is no longer told apart from the holder (the admission policy
     * stops such writes); the device count still has to match the holder's entry, so a call for another count
     * gets nothing of A's grant.
     */
    @Test
    void aDeviceCountOtherThanTheHoldersEntryIsNeverServed() {
        create(pod("a", "1", Map.of()), false);
        node.cluster().bind("a", NODE, Map.of(KEYS, A_DECISION));
        create(
                pod(
                        "forger",
                        "2",
                        Map.of(
                                ProtocolKeys.VGPU_NODE,
                                NODE,
                                ProtocolKeys.BIND_PHASE,
                                "success",
                                KEYS.toAllocateKey(),
                                ";")),
                true);

        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-2", GPU1 + "-2")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
                    assertThat(e.getStatus().getDescription())
                            .isEqualTo(
                                    "device number not matched: the kubelet asks "
                                            + "for 2 NVIDIA devices, the scheduler granted 1 to container main of pod default/a");
                });
        assertThat(node.cluster().annotation("a", KEYS.toAllocateKey())).isEqualTo(A_DECISION);
    }

    @Test
    void aFailedEventWriteDoesNotChangeTheAnswer() {
        create(pod("a", "1", Map.of()), false);
        node.cluster().bind("a", NODE, Map.of(KEYS, A_DECISION));
        create(pod("b", "1", Map.of()), false);
        bindWithoutDecision("b");
        node.cluster().server().faults().failNext("POST", ".*/events", 500, 2);

        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-1")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
                    assertThat(e.getStatus().getDescription())
                            .startsWith("Allocate of nvidia.com/gpu on node n1 refused");
                });
        await().atMost(Patience.seconds(10))
                .until(() -> node.cluster().server().faults().injectedCount() == 2);
        assertThat(events("a")).isEmpty();
        assertThat(node.cluster().annotation("a", KEYS.toAllocateKey())).isEqualTo(A_DECISION);
    }

    private Pod pod(String name, String gpus, Map<String, String> annotations) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(TestCluster.NS)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .withNewResources()
                .withLimits(Map.of(RESOURCE, new Quantity(gpus)))
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
    }

    /** A user's pod: created already on the node, or bound later. */
    private void create(Pod pod, boolean onNode) {
        if (onNode) {
            pod.getSpec().setNodeName(NODE);
        }
        node.cluster().client().pods().resource(pod).create();
    }

    /** What kube-scheduler does for a pod HAMi's filter let through with no request read. */
    private void bindWithoutDecision(String pod) {
        Binding binding = new BindingBuilder()
                .withNewMetadata()
                .withName(pod)
                .withNamespace(TestCluster.NS)
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(NODE)
                .endTarget()
                .build();
        node.cluster()
                .client()
                .bindings()
                .inNamespace(TestCluster.NS)
                .resource(binding)
                .create();
    }

    private List<Event> events(String pod) {
        return node.cluster().client().v1().events().inNamespace(TestCluster.NS).list().getItems().stream()
                .filter(e -> pod.equals(e.getInvolvedObject().getName()))
                .toList();
    }
}
