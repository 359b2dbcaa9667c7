package io.hami.e2e.manifests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.deploy.tools.Program;
import io.hami.e2e.support.Command;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.ProtocolKeysPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every manifest of {@code deploy/kubernetes} through Debian's kubectl into a real kube-apiserver (its validation,
 * defaulting, admission plugins and RBAC objects, not the embedded server's): once the namespace exists, a
 * server-side dry run reports nothing, {@code kubectl apply --server-side -k} creates every object without
 * warnings, {@code kubectl get -o json} reads each back with every field we wrote (the server only adds), and a
 * second server-side apply changes nothing (resourceVersion, generation and managed fields unchanged). Skipped
 * without {@code /usr/bin/kubectl} ({@code scripts/install-test-deps.sh}). The namespace is applied first because a
 * dry run creates nothing: the real server (NamespaceLifecycle admission) refuses objects in a namespace that does
 * not exist yet, a check the embedded server (lab/apiserver) does not make; it has no dry run either.
 *
 * <p>The control plane is shared by every class of the run, so the objects that act on other tests' requests are
 * removed afterwards: the MutatingWebhookConfiguration (it points at a Service nothing serves here; a webhook
 * configuration of the same name that another class registered is put back) and the protocol keys policy (other
 * classes write protocol keys as the admin).
 */
@EnableKubeControlPlane
class ManifestsOnTheRealServerTest {
    private static final String WEBHOOK = "hami-scheduler";
    /** Where the policy's removal is probed (a dry-run pod). */
    private static final String PROBE_NS = "e2e-manifests";

    static KubeControlPlane plane;
    static KubernetesClient admin;

    @TempDir
    static Path dir;

    private static Path cache;
    private static Path manifest;
    private static List<ObjectNode> built;
    private static MutatingWebhookConfiguration othersWebhook;
    private static Program.Result namespaceApplied;
    private static Program.Result dryRunBefore;
    private static Program.Result applied;
    private static Map<String, JsonNode> readBack;
    private static Program.Result appliedAgain;
    private static Map<String, JsonNode> readBackAgain;
    private static Program.Result dryRunAfter;

    @BeforeAll
    static void applyEveryManifestWithKubectl() throws Exception {
        assumeTrue(Command.kubectlInstalled(), "kubectl is not installed at " + Command.KUBECTL);
        cache = dir.resolve("kubectl-cache");
        String kustomized = kubectl("kustomize", DeployFiles.KUSTOMIZATION_DIR.toString())
                .ok()
                .stdout();
        manifest = Files.writeString(dir.resolve("hami.yaml"), kustomized);
        built = DeployFiles.parseAll(kustomized);

        othersWebhook = admin.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .withName(WEBHOOK)
                .get();
        if (othersWebhook != null) {
            admin.resource(othersWebhook).delete();
        }
        // A dry run creates nothing, the namespace included, and the real server (NamespaceLifecycle admission) refuses
        // objects in a namespace that does not exist: the namespace first, then a dry run of everything.
        namespaceApplied = kubectl(
                "apply",
                "--server-side",
                "-f",
                DeployFiles.KUSTOMIZATION_DIR.resolve("namespace.yaml").toString());
        dryRunBefore =
                kubectl("apply", "--server-side", "--dry-run=server", "-k", DeployFiles.KUSTOMIZATION_DIR.toString());
        applied = kubectl("apply", "--server-side", "-k", DeployFiles.KUSTOMIZATION_DIR.toString());
        readBack = get();
        appliedAgain = kubectl("apply", "--server-side", "-k", DeployFiles.KUSTOMIZATION_DIR.toString());
        readBackAgain = get();
        dryRunAfter =
                kubectl("apply", "--server-side", "--dry-run=server", "-k", DeployFiles.KUSTOMIZATION_DIR.toString());
    }

    @AfterAll
    static void removeTheWebhookAndThePolicyAndPutBackAnotherClasss() {
        if (admin == null || built == null) {
            return;
        }
        admin.admissionRegistration()
                .v1()
                .mutatingWebhookConfigurations()
                .withName(WEBHOOK)
                .delete();
        // Other classes write protocol keys on pods as the admin, which the policy refuses.
        plane.ensureNamespace(PROBE_NS);
        ProtocolKeysPolicy.remove(admin, PROBE_NS);
        if (othersWebhook != null) {
            othersWebhook.getMetadata().setResourceVersion(null);
            othersWebhook.getMetadata().setUid(null);
            othersWebhook.getMetadata().setManagedFields(null);
            othersWebhook.getMetadata().setCreationTimestamp(null);
            admin.resource(othersWebhook).create();
        }
    }

    private static Program.Result kubectl(String... args) {
        return Command.kubectl(plane.adminKubeconfig(), cache, args);
    }

    /** Every object of the manifest as the server holds it, by {@code Kind namespace/name}. */
    private static Map<String, JsonNode> get() {
        JsonNode list = DeployFiles.YAML.readTree(
                kubectl("get", "-f", manifest.toString(), "-o", "json").ok().stdout());
        var out = new LinkedHashMap<String, JsonNode>();
        JsonNode items = list.has("items")
                ? list.path("items")
                : DeployFiles.YAML.createArrayNode().add(list);
        items.forEach(i -> out.put(DeployFiles.describe(i), i));
        return out;
    }

    @Test
    void kustomizeBuildsExactlyTheObjectsOfTheListedFiles() {
        assertThat(built.stream().map(DeployFiles::describe).sorted().toList())
                .isEqualTo(DeployFiles.all().stream()
                        .map(DeployFiles::describe)
                        .sorted()
                        .toList());
    }

    @Test
    void aServerSideDryRunReportsNoErrorsBeforeOrAfter() {
        namespaceApplied.ok();
        for (Program.Result dryRun : List.of(dryRunBefore, dryRunAfter)) {
            dryRun.ok();
            assertThat(dryRun.stderr()).as("what kubectl reported").isEmpty();
            assertThat(dryRun.stdout()
                            .lines()
                            .filter(l -> l.endsWith("serverside-applied (server dry run)"))
                            .count())
                    .as(dryRun.stdout())
                    .isEqualTo(built.size());
        }
        assertThat(readBack)
                .as("a dry run stores nothing: every object was created by the apply after it")
                .hasSize(built.size());
    }

    @Test
    void kubectlCreatesEveryObjectWithoutWarnings() {
        applied.ok();
        assertThat(applied.stderr()).as("warnings").isEmpty();
        assertThat(applied.stdout()
                        .lines()
                        .filter(l -> l.endsWith(" serverside-applied"))
                        .count())
                .as(applied.stdout())
                .isEqualTo(built.size());
        assertThat(readBack.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        built.stream().map(DeployFiles::describe).toList());
    }

    @Test
    void everyObjectReadBackHoldsEveryFieldWeWrote() {
        var differences = new ArrayList<String>();
        for (ObjectNode doc : built) {
            JsonNode stored = readBack.get(DeployFiles.describe(doc));
            assertThat(stored).as(DeployFiles.describe(doc)).isNotNull();
            differences.addAll(Subset.differences(DeployFiles.describe(doc), doc, stored));
        }
        assertThat(differences).as("fields written but stored otherwise").isEmpty();
    }

    @Test
    void aSecondServerSideApplyChangesNothing() {
        appliedAgain.ok();
        assertThat(appliedAgain.stderr()).isEmpty();
        Function<Map<String, JsonNode>, Map<String, String>> versions = m -> m.entrySet().stream()
                .collect(Collectors.toMap(
                        Map.Entry::getKey,
                        e -> "resourceVersion="
                                + e.getValue()
                                        .path("metadata")
                                        .path("resourceVersion")
                                        .asString()
                                + " generation="
                                + e.getValue()
                                        .path("metadata")
                                        .path("generation")
                                        .asString()
                                + " managedFields="
                                + e.getValue().path("metadata").path("managedFields")));
        assertThat(versions.apply(readBackAgain)).isEqualTo(versions.apply(readBack));
    }
}
