package io.hami.e2e.support;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;

/**
 * deploy/'s {@code protocol-keys-policy.yaml} (a ValidatingAdmissionPolicy and its binding) on the shared control
 * plane. kube-apiserver loads policies through an informer, so both directions wait until a server-side dry run of
 * an admin's pod carrying a protocol key is refused, or admitted again: once removed, the next class's admin writes
 * of protocol keys must not be refused.
 */
public final class ProtocolKeysPolicy {
    public static final String FILE = "protocol-keys-policy.yaml";
    public static final String NAME = "hami-protocol-keys";
    public static final String SCHEDULER = "system:serviceaccount:hami-system:hami-scheduler";
    public static final String PLUGIN = "system:serviceaccount:hami-system:hami-device-plugin";
    /** What every refusal says after the key(s): who may write them. */
    public static final String WHO_MAY = " may be added, changed or removed only by the hami scheduler (" + SCHEDULER
            + ") and device plugins (" + PLUGIN + "), not by ";

    private ProtocolKeysPolicy() {}

    /** Applies the file as shipped and waits until the API server enforces it ({@code namespace} must exist). */
    public static void apply(KubernetesClient admin, String namespace, String fieldManager) {
        DeployFiles.apply(admin, FILE, fieldManager);
        await("the API server enforces " + NAME)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> refused(admin, namespace));
    }

    /** Deletes the binding and the policy and waits until the API server no longer enforces it. */
    public static void remove(KubernetesClient admin, String namespace) {
        admin.admissionRegistration()
                .v1()
                .validatingAdmissionPolicyBindings()
                .withName(NAME)
                .delete();
        admin.admissionRegistration()
                .v1()
                .validatingAdmissionPolicies()
                .withName(NAME)
                .delete();
        await("the API server no longer enforces " + NAME)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !refused(admin, namespace));
    }

    /** Whether a dry-run create of a pod with {@code hami.io/bind-phase}, as the admin, is refused by the policy. */
    private static boolean refused(KubernetesClient admin, String namespace) {
        Pod probe = new PodBuilder(Cluster.pod(namespace, "policy-probe", Cluster.container("app", "cpu", "10m"))
                        .build())
                .editMetadata()
                .addToAnnotations("hami.io/bind-phase", "success")
                .endMetadata()
                .build();
        try {
            admin.pods().inNamespace(namespace).resource(probe).dryRun().create();
            return false;
        } catch (KubernetesClientException e) {
            if (e.getMessage() != null && e.getMessage().contains("ValidatingAdmissionPolicy '" + NAME + "'")) {
                return true;
            }
            throw e;
        }
    }
}
