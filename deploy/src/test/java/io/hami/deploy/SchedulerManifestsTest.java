package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.config.DeviceConfigLoader;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The scheduler's manifests agree with each other and with the code: kube-scheduler's extender configuration calls
 * our endpoints and manages every resource the vendor backends read, the certificate Job writes the Secret the pod
 * mounts and patches the webhook the manifests define, the webhook reaches the Service, and the device config
 * ConfigMap holds every key of the code's configuration at its default.
 */
class SchedulerManifestsTest {
    private static final Manifests MANIFESTS = Manifests.load();
    private static final JsonNode DEPLOYMENT = MANIFESTS.get("Deployment", "hami-scheduler");
    private static final JsonNode SCHEDULER = Manifests.container(DEPLOYMENT, "scheduler");
    private static final JsonNode KUBE_SCHEDULER = Manifests.container(DEPLOYMENT, "kube-scheduler");

    /** Field names of KubeSchedulerConfiguration v1 ({@code k8s.io/kube-scheduler/config/v1}) that we use or may. */
    private static final Set<String> CONFIG_KEYS = Set.of(
            "apiVersion",
            "kind",
            "leaderElection",
            "clientConnection",
            "parallelism",
            "percentageOfNodesToScore",
            "podInitialBackoffSeconds",
            "podMaxBackoffSeconds",
            "profiles",
            "extenders",
            "delayCacheUntilActive");

    private static final Set<String> LEADER_ELECTION_KEYS = Set.of(
            "leaderElect",
            "leaseDuration",
            "renewDeadline",
            "retryPeriod",
            "resourceLock",
            "resourceName",
            "resourceNamespace");
    private static final Set<String> EXTENDER_KEYS = Set.of(
            "urlPrefix",
            "filterVerb",
            "preemptVerb",
            "prioritizeVerb",
            "weight",
            "bindVerb",
            "enableHTTPS",
            "tlsConfig",
            "httpTimeout",
            "nodeCacheCapable",
            "managedResources",
            "ignorable");
    private static final Set<String> TLS_KEYS =
            Set.of("insecure", "serverName", "certFile", "keyFile", "caFile", "certData", "keyData", "caData");
    private static final Set<String> MANAGED_RESOURCE_KEYS = Set.of("name", "ignoredByScheduler");

    private static JsonNode kubeSchedulerConfig() {
        JsonNode map = MANIFESTS.get("ConfigMap", "hami-kube-scheduler-config");
        String file = Manifests.flag(KUBE_SCHEDULER, "--config").orElseThrow();
        String key = file.substring(file.lastIndexOf('/') + 1);
        assertThat(mountPathOf(KUBE_SCHEDULER, volumeOfConfigMap("hami-kube-scheduler-config")) + "/" + key)
                .as("kube-scheduler --config")
                .isEqualTo(file);
        return Manifests.YAML.readTree(map.path("data").path(key).asString());
    }

    private static JsonNode extender() {
        JsonNode extenders = kubeSchedulerConfig().path("extenders");
        assertThat(extenders).hasSize(1);
        return extenders.get(0);
    }

    private static DeviceConfig deviceConfig() throws Exception {
        JsonNode map = MANIFESTS.get("ConfigMap", "hami-device-config");
        var loaded = DeviceConfigLoader.parse(
                map.path("data").path("device-config.yaml").asString(),
                "hami-device-config",
                DeviceBackends.configSections());
        assertThat(loaded.warnings()).isEmpty();
        return loaded.config();
    }

    @Test
    void kubeSchedulerConfigurationUsesOnlyV1Fields() {
        JsonNode config = kubeSchedulerConfig();
        assertThat(config.path("apiVersion").asString()).isEqualTo("kubescheduler.config.k8s.io/v1");
        assertThat(config.path("kind").asString()).isEqualTo("KubeSchedulerConfiguration");
        assertThat(CONFIG_KEYS).containsAll(config.propertyNames());
        assertThat(LEADER_ELECTION_KEYS)
                .containsAll(config.path("leaderElection").propertyNames());
        assertThat(EXTENDER_KEYS).containsAll(extender().propertyNames());
        assertThat(TLS_KEYS).containsAll(extender().path("tlsConfig").propertyNames());
        for (JsonNode r : extender().path("managedResources")) {
            assertThat(MANAGED_RESOURCE_KEYS).containsAll(r.propertyNames());
        }
    }

    @Test
    void theProfileIsTheSchedulerNameTheWebhookSets() {
        JsonNode profiles = kubeSchedulerConfig().path("profiles");
        assertThat(profiles).hasSize(1);
        assertThat(profiles.get(0).path("schedulerName").asString())
                .isEqualTo(Manifests.flag(SCHEDULER, "--scheduler-name").orElseThrow());
    }

    @Test
    void theExtenderCallsOurVerbsOverTlsOnOurPort() {
        JsonNode e = extender();
        assertThat(e.path("filterVerb").asString()).isEqualTo("filter");
        assertThat(e.path("prioritizeVerb").asString()).isEqualTo("prioritize");
        assertThat(e.path("bindVerb").asString()).isEqualTo("bind");
        assertThat(e.path("preemptVerb").asString()).isEqualTo("preempt");
        assertThat(e.path("nodeCacheCapable").asBoolean()).isTrue();
        assertThat(e.path("enableHTTPS").asBoolean()).isTrue();
        String bind = Manifests.flag(SCHEDULER, "--http-bind").orElseThrow();
        String port = bind.substring(bind.lastIndexOf(':') + 1);
        assertThat(e.path("urlPrefix").asString()).isEqualTo("https://127.0.0.1:" + port);
        assertThat(containerPort(SCHEDULER, "https")).isEqualTo(Integer.parseInt(port));
        // kube-scheduler verifies our certificate: the CA of the certgen Secret, a name the certificate carries.
        String tlsMount = mountPathOf(KUBE_SCHEDULER, volumeOfSecret(secretName()));
        assertThat(e.path("tlsConfig").path("caFile").asString()).isEqualTo(tlsMount + "/ca");
        assertThat(e.path("tlsConfig").path("insecure").asBoolean(false)).isFalse();
        assertThat(certificateHosts())
                .contains(e.path("tlsConfig").path("serverName").asString());
    }

    @Test
    void managedResourcesAreEveryResourceTheBackendsReadIgnoredByKubeScheduler() throws Exception {
        DeviceConfig config = deviceConfig();
        var backends = DeviceBackends.load(config).all();
        assertThat(backends)
                .extracting(DeviceBackend::vendor)
                .containsExactlyInAnyOrder("NVIDIA", "MLU", "Mthreads", "HCU");
        var expected = new TreeSet<String>();
        backends.forEach(b -> expected.addAll(b.resources().all()));
        expected.add(config.section(NvidiaConfig.SECTION).resources().resourcePriorityName());
        var managed = new TreeSet<String>();
        for (JsonNode r : extender().path("managedResources")) {
            managed.add(r.path("name").asString());
            assertThat(r.path("ignoredByScheduler").asBoolean())
                    .as(r.path("name").asString())
                    .isTrue();
        }
        assertThat(managed).isEqualTo(expected);
    }

    @Test
    void theExtenderFollowsTheLeaseKubeSchedulerElectsOnSoReplicasCanScale() {
        JsonNode election = kubeSchedulerConfig().path("leaderElection");
        String kubeSchedulerLease = election.path("resourceName").asString();
        assertThat(election.path("leaderElect").asBoolean()).isTrue();
        assertThat(election.path("resourceNamespace").asString()).isEqualTo(Manifests.namespace(DEPLOYMENT));
        assertThat(Manifests.flag(SCHEDULER, "--leader-follow")).contains(kubeSchedulerLease);
        assertThat(SCHEDULER.path("args").valueStream().map(JsonNode::asString)).doesNotContain("--leader-elect");
        // kube-scheduler's identity starts with the hostname, which is the pod name the extender is given
        assertThat(SCHEDULER
                        .path("env")
                        .valueStream()
                        .filter(e -> e.path("name").asString().equals("POD_NAME"))
                        .map(e -> e.path("valueFrom")
                                .path("fieldRef")
                                .path("fieldPath")
                                .asString()))
                .containsExactly("metadata.name");
        assertThat(DEPLOYMENT.path("spec").path("template").path("spec").has("hostname"))
                .isFalse();
        assertThat(DEPLOYMENT.path("spec").path("replicas").asInt()).isGreaterThan(1);
        var grants = new Rbac(MANIFESTS).grants(Manifests.namespace(DEPLOYMENT), serviceAccount(), "kube-scheduler");
        for (String verb : List.of("get", "update", "create")) {
            var access = new ApiAccess(
                    verb,
                    "coordination.k8s.io",
                    "leases",
                    Manifests.namespace(DEPLOYMENT),
                    verb.equals("create") ? "" : kubeSchedulerLease);
            assertThat(grants).as(access.toString()).anyMatch(g -> g.allows(access));
        }
    }

    @Test
    void theCertificateJobWritesTheSecretThePodMountsAndPatchesOurWebhook() {
        JsonNode job = MANIFESTS.get("Job", "hami-certgen");
        JsonNode create = job.path("spec")
                .path("template")
                .path("spec")
                .path("initContainers")
                .get(0);
        JsonNode patch = Manifests.container(job, "patch");
        assertThat(create.path("args").get(0).asString()).isEqualTo("create");
        assertThat(patch.path("args").get(0).asString()).isEqualTo("patch");
        assertThat(Manifests.flag(create, "--secret-name")).contains(secretName());
        assertThat(Manifests.flag(patch, "--secret-name")).contains(secretName());
        assertThat(Manifests.flag(patch, "--webhook-name")).contains(Manifests.name(webhookConfiguration()));
        assertThat(Manifests.flag(patch, "--patch-mutating")).contains("true");
        assertThat(Manifests.flag(patch, "--patch-validating")).contains("false");
        // The API server calls the webhook at <service>.<namespace>.svc.
        JsonNode service = webhookConfiguration()
                .path("webhooks")
                .get(0)
                .path("clientConfig")
                .path("service");
        assertThat(certificateHosts()).contains(service.path("name").asString() + ".$(POD_NAMESPACE).svc");
        assertThat(Manifests.namespace(job)).isEqualTo(service.path("namespace").asString());
        // Our container reads the key and certificate kube-webhook-certgen writes (keys "cert" and "key").
        String tlsMount = mountPathOf(SCHEDULER, volumeOfSecret(secretName()));
        assertThat(Manifests.flag(SCHEDULER, "--cert-file")).contains(tlsMount + "/cert");
        assertThat(Manifests.flag(SCHEDULER, "--key-file")).contains(tlsMount + "/key");
    }

    @Test
    void theWebhookReachesOurServiceAndSkipsSystemNamespacesAndOptedOutObjects() {
        JsonNode hook = webhookConfiguration().path("webhooks").get(0);
        assertThat(webhookConfiguration().path("webhooks")).hasSize(1);
        assertThat(hook.path("failurePolicy").asString()).isEqualTo("Ignore");
        assertThat(hook.path("sideEffects").asString()).isEqualTo("None");
        assertThat(hook.path("admissionReviewVersions").valueStream().map(JsonNode::asString))
                .containsExactly("v1");
        JsonNode rule = hook.path("rules").get(0);
        assertThat(rule.path("operations").valueStream().map(JsonNode::asString))
                .containsExactly("CREATE");
        assertThat(rule.path("resources").valueStream().map(JsonNode::asString)).containsExactly("pods");

        JsonNode target = hook.path("clientConfig").path("service");
        assertThat(target.path("path").asString()).isEqualTo("/webhook");
        JsonNode service = MANIFESTS.get("Service", target.path("name").asString());
        assertThat(Manifests.namespace(service))
                .isEqualTo(target.path("namespace").asString());
        JsonNode port = service.path("spec")
                .path("ports")
                .valueStream()
                .filter(p -> p.path("port").asInt() == target.path("port").asInt())
                .findFirst()
                .orElseThrow();
        assertThat(containerPort(SCHEDULER, port.path("targetPort").asString())).isPositive();
        JsonNode podLabels =
                DEPLOYMENT.path("spec").path("template").path("metadata").path("labels");
        service.path("spec")
                .path("selector")
                .properties()
                .forEach(e -> assertThat(podLabels.path(e.getKey()).asString())
                        .as("pod label " + e.getKey())
                        .isEqualTo(e.getValue().asString()));

        // A pod cannot opt itself out of review: only namespaces are excluded (a labelled pod is left unchanged by the
        // webhook unless it requests a managed resource).
        assertThat(hook.has("objectSelector"))
                .as("objectSelector " + hook.path("objectSelector"))
                .isFalse();
        assertThat(excluded(hook.path("namespaceSelector"), "hami.io/webhook")).containsExactly("ignore");
        assertThat(excluded(hook.path("namespaceSelector"), "kubernetes.io/metadata.name"))
                .contains("kube-system", "kube-public", "kube-node-lease", Manifests.namespace(DEPLOYMENT));
    }

    @Test
    void theDeviceConfigMapHoldsEveryKeyOfTheCodeAtItsDefault() throws Exception {
        assertThat(deviceConfig()).isEqualTo(DeviceConfig.DEFAULTS);
        JsonNode file = Manifests.YAML.readTree(MANIFESTS
                .get("ConfigMap", "hami-device-config")
                .path("data")
                .path("device-config.yaml")
                .asString());
        for (ConfigSection<?> section : DeviceBackends.configSections()) {
            var keys = new LinkedHashSet<String>();
            file.path(section.name()).propertyNames().forEach(keys::add);
            assertThat(keys)
                    .as(section.name())
                    .containsExactlyInAnyOrderElementsOf(
                            keysOf(section.defaults().getClass()).toList());
        }
        String flag = Manifests.flag(SCHEDULER, "--device-config-file").orElseThrow();
        assertThat(flag)
                .isEqualTo(mountPathOf(SCHEDULER, volumeOfConfigMap("hami-device-config")) + "/device-config.yaml");
    }

    /** The YAML keys of a section's record: its components, a nested record's in its place (NVIDIA groups them). */
    private static Stream<String> keysOf(Class<?> record) {
        return Arrays.stream(record.getRecordComponents())
                .flatMap(c -> c.getType().isRecord() ? keysOf(c.getType()) : Stream.of(c.getName()));
    }

    private static JsonNode webhookConfiguration() {
        var hooks = MANIFESTS.ofKind("MutatingWebhookConfiguration");
        assertThat(hooks).hasSize(1);
        return hooks.getFirst();
    }

    private static String serviceAccount() {
        return DEPLOYMENT
                .path("spec")
                .path("template")
                .path("spec")
                .path("serviceAccountName")
                .asString();
    }

    private static String secretName() {
        var names = new ArrayList<String>();
        for (JsonNode v : DEPLOYMENT.path("spec").path("template").path("spec").path("volumes")) {
            if (v.has("secret")) {
                names.add(v.path("secret").path("secretName").asString());
            }
        }
        assertThat(names).hasSize(1);
        return names.getFirst();
    }

    private static List<String> certificateHosts() {
        JsonNode create = MANIFESTS
                .get("Job", "hami-certgen")
                .path("spec")
                .path("template")
                .path("spec")
                .path("initContainers")
                .get(0);
        return List.of(Manifests.flag(create, "--host").orElseThrow().split(","));
    }

    private static String volumeOfSecret(String secret) {
        return volume(v -> v.path("secret").path("secretName").asString().equals(secret));
    }

    private static String volumeOfConfigMap(String configMap) {
        return volume(v -> v.path("configMap").path("name").asString().equals(configMap));
    }

    private static String volume(java.util.function.Predicate<JsonNode> which) {
        return DEPLOYMENT
                .path("spec")
                .path("template")
                .path("spec")
                .path("volumes")
                .valueStream()
                .filter(which)
                .map(v -> v.path("name").asString())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no such volume"));
    }

    private static String mountPathOf(JsonNode container, String volume) {
        return container
                .path("volumeMounts")
                .valueStream()
                .filter(m -> m.path("name").asString().equals(volume))
                .map(m -> m.path("mountPath").asString())
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.path("name").asString() + " does not mount " + volume));
    }

    private static int containerPort(JsonNode container, String name) {
        return container
                .path("ports")
                .valueStream()
                .filter(p -> p.path("name").asString().equals(name))
                .map(p -> p.path("containerPort").asInt())
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.path("name").asString() + " has no port " + name));
    }

    /** The values a selector's {@code NotIn} expression on {@code key} excludes. */
    private static List<String> excluded(JsonNode selector, String key) {
        return selector.path("matchExpressions")
                .valueStream()
                .filter(e -> e.path("key").asString().equals(key)
                        && e.path("operator").asString().equals("NotIn"))
                .flatMap(e -> e.path("values").valueStream())
                .map(JsonNode::asString)
                .toList();
    }
}
