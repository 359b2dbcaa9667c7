package io.hami.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.protocol.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the fixture promises: a real API server that authenticates, authorises and admits like a cluster's. */
@EnableKubeControlPlane
class KubeControlPlaneTest {
    static KubeControlPlane plane;
    KubernetesClient admin;

    @Test
    void theApiServerIsTheRealOneOfThePinnedRelease() {
        assertThat(admin.getKubernetesVersion().getGitVersion()).isEqualTo("v1.37.2");
        assertThat(plane.workDir().resolve("logs/kube-apiserver.log")).exists();
    }

    @Test
    void rbacDecidesWhatAnAuthenticatedUserMayDo() {
        try (KubernetesClient nobody = KubeControlPlane.client(plane.userConfig("nobody", List.of()))) {
            assertThatThrownBy(() -> nobody.pods().inNamespace("default").list())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(403);
                        assertThat(e.getMessage()).contains("User \"nobody\" cannot list resource \"pods\"");
                    });
        }
    }

    @Test
    void aServiceAccountTokenAuthenticatesAsThatAccount() {
        try (KubernetesClient sa = KubeControlPlane.client(plane.serviceAccountConfig("fixture-test", "robot"))) {
            assertThatThrownBy(() -> sa.nodes().list())
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getMessage()).contains("system:serviceaccount:fixture-test:robot"));
        }
    }

    @Test
    void theServiceAccountAdmissionPluginRunsSoNamespacesNeedTheirDefaultAccount() {
        admin.namespaces()
                .resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                        .withNewMetadata()
                        .withName("no-default-sa")
                        .endMetadata()
                        .build())
                .create();
        var pod = new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("pause")
                .endContainer()
                .endSpec()
                .build();
        assertThatThrownBy(() ->
                        admin.pods().inNamespace("no-default-sa").resource(pod).create())
                .hasMessageContaining("serviceaccount \"default\" not found");

        plane.ensureNamespace("with-default-sa");
        var created = admin.pods().inNamespace("with-default-sa").resource(pod).create();
        assertThat(created.getSpec().getServiceAccountName()).isEqualTo("default");
    }

    @Test
    void kubeSchedulerStartsWithTheDeployedConfigurationPointedAtTheExtender() throws Exception {
        var caFile = Files.writeString(
                plane.workDir().resolve("extender-ca.crt"), plane.ca().certificatePem());
        try (var scheduler = plane.startKubeScheduler(KubeSchedulerConfig.extender("https://127.0.0.1:1", caFile))) {
            String config = Files.readString(scheduler.configFile());
            assertThat(config)
                    .contains("urlPrefix: \"https://127.0.0.1:1\"")
                    .contains("caFile: \"" + caFile + "\"")
                    .contains("schedulerName: \"hami-scheduler\"")
                    .contains("ignoredByScheduler: true");
            assertThat(scheduler.isAlive()).isTrue();
        }
    }

    @Test
    void etcdKilledAndStartedAgainKeepsItsDataAndTheApiServerRecovers() throws Exception {
        plane.ensureNamespace("etcd-restart");
        var before = new ConfigMapBuilder()
                .withNewMetadata()
                .withName("before-the-crash")
                .endMetadata()
                .withData(Map.of("k", "v"))
                .build();
        admin.configMaps().inNamespace("etcd-restart").resource(before).create();
        Path etcdLog = plane.workDir().resolve("logs/etcd.log");

        plane.killEtcd();
        try {
            assertThat(plane.etcdRunning()).isFalse();
            await("kube-apiserver notices that etcd is gone")
                    .atMost(Patience.seconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !plane.ready());
        } finally {
            Duration took = plane.startEtcd();
            assertThat(took).isLessThan(Duration.ofMinutes(2));
        }

        assertThat(plane.etcdRunning()).isTrue();
        assertThat(plane.ready()).isTrue();
        assertThat(admin.configMaps()
                        .inNamespace("etcd-restart")
                        .withName("before-the-crash")
                        .get()
                        .getData())
                .containsEntry("k", "v");
        admin.configMaps()
                .inNamespace("etcd-restart")
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("after-the-crash")
                        .endMetadata()
                        .build())
                .create();
        assertThat(Files.readString(etcdLog)).contains("etcd started again");
    }

    @Test
    void theDeployedWebhookIsRegisteredWithALoopbackUrlAndOurCa() {
        MutatingWebhookConfiguration stored = DeployedWebhook.register(
                admin, "https://127.0.0.1:1", plane.ca().certificatePem());
        var webhook = stored.getWebhooks().getFirst();
        assertThat(webhook.getClientConfig().getUrl()).isEqualTo("https://127.0.0.1:1/webhook");
        assertThat(webhook.getClientConfig().getService()).isNull();
        assertThat(webhook.getFailurePolicy())
                .isEqualTo(DeployedWebhook.load(admin).getWebhooks().getFirst().getFailurePolicy());
        admin.resource(stored).delete();
    }
}
