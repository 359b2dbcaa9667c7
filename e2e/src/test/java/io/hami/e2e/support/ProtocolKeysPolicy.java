package io.hami.e2e.support;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.controlplane.KubeControlPlane;
import io.hami.protocol.testing.Patience;
import java.time.Duration;

/**
 * deploy/'s {@code protocol-keys-policy.yaml} (two ValidatingAdmissionPolicies and their bindings: protocol keys on
 * pods, and on nodes) on the shared control plane. kube-apiserver loads policies through an informer, so both
 * directions wait until a server-side dry run of an admin's pod and node carrying a protocol key is refused by each
 * policy, or admitted again: once removed, the next class's admin writes of protocol keys must not be refused.
 */
public final class ProtocolKeysPolicy {
    public static final String FILE = "protocol-keys-policy.yaml";
    public static final String NAME = "hami-protocol-keys";
    public static final String NODE_NAME = "hami-node-protocol-keys";
    public static final String SCHEDULER = "system:serviceaccount:hami-system:hami-scheduler";
    public static final String PLUGIN = "system:serviceaccount:hami-system:hami-device-plugin";
    /** What every refusal on pods says after the key(s): who may write them. */
    public static final String WHO_MAY = " may be added, changed or removed only by the hami scheduler (" + SCHEDULER
            + ") and device plugins (" + PLUGIN + "), not by ";

    private ProtocolKeysPolicy() {}

    /** What a refusal on nodes says after the key(s), for {@code node}: who may write them. */
    public static String whoMayOnNode(String node) {
        return " of node " + node + " may be added, changed or removed only by the device plugin on that node ("
                + PLUGIN + " with a token bound to a pod on node " + node + ") and, for hami.io/mutex.lock,"
                + " hami.io/node-handshake and hami.io/node-handshake-hcu, the hami scheduler (" + SCHEDULER
                + "), not by ";
    }

    /** Applies the file as shipped and waits until the API server enforces both policies ({@code namespace} must exist). */
    public static void apply(KubernetesClient admin, String namespace, String fieldManager) {
        DeployFiles.apply(admin, FILE, fieldManager);
        await("the API server enforces " + NAME + " and " + NODE_NAME)
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> refused(admin, namespace) && nodeRefused(admin));
    }

    /** Deletes the bindings and the policies and waits until the API server enforces neither. */
    public static void remove(KubernetesClient admin, String namespace) {
        removeByName(admin, NAME);
        removeByName(admin, NODE_NAME);
        await("the API server no longer enforces " + NAME + " nor " + NODE_NAME)
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !refused(admin, namespace) && !nodeRefused(admin));
    }

    /** Deletes one policy and its binding, both named {@code name}; nothing when absent. */
    public static void removeByName(KubernetesClient admin, String name) {
        admin.admissionRegistration()
                .v1()
                .validatingAdmissionPolicyBindings()
                .withName(name)
                .delete();
        admin.admissionRegistration()
                .v1()
                .validatingAdmissionPolicies()
                .withName(name)
                .delete();
    }

    /**
     * The plugin ServiceAccount {@code namespace/hami-device-plugin} as its DaemonSet's pod on {@code node} is: a
     * TokenRequest bound to a pod with {@code spec.nodeName} {@code node} (created here by the admin, as no kubelet
     * runs), so the token carries {@code authentication.kubernetes.io/node-name}. The pod must stay while the
     * token is used.
     */
    public static Config pluginOnNode(KubeControlPlane plane, KubernetesClient admin, String namespace, String node) {
        Config base = plane.serviceAccountConfig(namespace, "hami-device-plugin");
        String name = pluginPodName(node);
        Pod pod = admin.pods().inNamespace(namespace).withName(name).get();
        if (pod == null) {
            pod = admin.pods()
                    .inNamespace(namespace)
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withNamespace(namespace)
                            .endMetadata()
                            .withNewSpec()
                            .withServiceAccountName("hami-device-plugin")
                            .withNodeName(node)
                            .addNewContainer()
                            .withName("plugin")
                            .withImage("hami-java/device-plugin-nvidia:e2e")
                            .endContainer()
                            .withTerminationGracePeriodSeconds(0L)
                            .endSpec()
                            .build())
                    .create();
        }
        String token = admin.serviceAccounts()
                .inNamespace(namespace)
                .withName("hami-device-plugin")
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(6L * 3600)
                        .withNewBoundObjectRef()
                        .withApiVersion("v1")
                        .withKind("Pod")
                        .withName(name)
                        .withUid(pod.getMetadata().getUid())
                        .endBoundObjectRef()
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
        return new ConfigBuilder(base).withOauthToken(token).build();
    }

    /** Deletes the pod {@link #pluginOnNode} created for {@code node} (its tokens stop working). */
    public static void deletePluginPod(KubernetesClient admin, String namespace, String node) {
        admin.pods()
                .inNamespace(namespace)
                .withName(pluginPodName(node))
                .withGracePeriod(0)
                .delete();
    }

    private static String pluginPodName(String node) {
        return "hami-device-plugin-" + node;
    }

    /** Whether a dry-run create of a pod with {@code hami.io/bind-phase}, as the admin, is refused by the policy. */
    private static boolean refused(KubernetesClient admin, String namespace) {
        Pod probe = new PodBuilder(Cluster.pod(namespace, "policy-probe", Cluster.container("app", "cpu", "10m"))
                        .build())
                .editMetadata()
                .addToAnnotations("hami.io/bind-phase", "success")
                .endMetadata()
                .build();
        return refusedBy(
                NAME,
                () -> admin.pods()
                        .inNamespace(namespace)
                        .resource(probe)
                        .dryRun()
                        .create());
    }

    /** Whether a dry-run create of a node with {@code hami.io/mutex.lock}, as the admin, is refused by the node policy. */
    private static boolean nodeRefused(KubernetesClient admin) {
        Node probe = Cluster.node("policy-probe")
                .editMetadata()
                .addToAnnotations("hami.io/mutex.lock", "2026-01-01T00:00:00Z,default,probe")
                .endMetadata()
                .build();
        return refusedBy(NODE_NAME, () -> admin.nodes().resource(probe).dryRun().create());
    }

    private static boolean refusedBy(String policy, Runnable dryRun) {
        try {
            dryRun.run();
            return false;
        } catch (KubernetesClientException e) {
            if (e.getMessage() != null && e.getMessage().contains("ValidatingAdmissionPolicy '" + policy + "'")) {
                return true;
            }
            throw e;
        }
    }
}
