package io.hami.controlplane;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * kube-scheduler's configuration as {@code deploy/kubernetes/scheduler/kube-scheduler-config.yaml} ships it (bundled
 * into this jar at build time), changed only where a test or the lab must: the extender's address and CA, the
 * identity kube-scheduler uses, and whether it elects a leader.
 *
 * @param extenderUrl  the extender's URL prefix ({@code https://127.0.0.1:PORT})
 * @param caFile       the CA that signed the extender's certificate, or null to keep the deployed one
 * @param identity     whose credentials kube-scheduler uses, or null for {@code system:kube-scheduler}
 * @param leaderElect  false: no Lease (several schedulers in one run would otherwise wait for each other's)
 * @param visible      managed resources made visible to kube-scheduler ({@code ignoredByScheduler: false}), as an
 *                     operator does for preemption (docs/operators.md#preemption); empty: as deployed
 * @param document     the {@code KubeSchedulerConfiguration} to start from, or null for deploy/'s (a Helm release's
 *                     ConfigMap, for instance)
 * @param hostname     the host name kube-scheduler sees (its Lease identity is {@code <hostname>_<uuid>}, as a pod's
 *                     is its pod name), set in a UTS namespace of its own; null: this machine's
 */
public record KubeSchedulerConfig(
        String extenderUrl,
        Path caFile,
        Config identity,
        boolean leaderElect,
        java.util.Set<String> visible,
        String document,
        String hostname) {
    static final String DEPLOYED = "deploy/kube-scheduler-config.yaml";
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    /** The deployed configuration pointed at the extender on {@code extenderUrl}, signed by {@code caFile}. */
    public static KubeSchedulerConfig extender(String extenderUrl, Path caFile) {
        return new KubeSchedulerConfig(extenderUrl, caFile, null, false, java.util.Set.of(), null, null);
    }

    public KubeSchedulerConfig withIdentity(Config config) {
        return new KubeSchedulerConfig(extenderUrl, caFile, config, leaderElect, visible, document, hostname);
    }

    public KubeSchedulerConfig withLeaderElection(boolean elect) {
        return new KubeSchedulerConfig(extenderUrl, caFile, identity, elect, visible, document, hostname);
    }

    /** The same with these managed resources counted by kube-scheduler too ({@code ignoredByScheduler: false}). */
    public KubeSchedulerConfig withVisibleResources(String... names) {
        return new KubeSchedulerConfig(
                extenderUrl, caFile, identity, leaderElect, java.util.Set.of(names), document, hostname);
    }

    /** The same changes made to {@code configuration} (a KubeSchedulerConfiguration document) instead of deploy/'s. */
    public KubeSchedulerConfig withDocument(String configuration) {
        return new KubeSchedulerConfig(extenderUrl, caFile, identity, leaderElect, visible, configuration, hostname);
    }

    /**
     * The same run under host name {@code name}, so that two kube-schedulers on this machine have Lease identities
     * as two pods would ({@code --leader-follow} tells the replicas apart by it). Needs root (a UTS namespace).
     */
    public KubeSchedulerConfig withHostname(String name) {
        return new KubeSchedulerConfig(extenderUrl, caFile, identity, leaderElect, visible, document, name);
    }

    /** The deployed {@code KubeSchedulerConfiguration} document, as text. */
    public static String deployedDocument() {
        try (InputStream in = KubeSchedulerConfig.class.getResourceAsStream(DEPLOYED)) {
            if (in == null) {
                throw new IllegalStateException(
                        "control plane: " + DEPLOYED + " is not on the class path (build lab/control-plane)");
            }
            return YAML.readTree(in).path("data").path("config.yaml").asString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The document kube-scheduler reads: the deployed one with our changes, its kubeconfig at {@code kubeconfig}. */
    String render(Path kubeconfig) {
        var doc = (ObjectNode) YAML.readTree(document != null ? document : deployedDocument());
        doc.putObject("clientConnection").put("kubeconfig", kubeconfig.toString());
        ((ObjectNode) doc.path("leaderElection")).put("leaderElect", leaderElect);
        JsonNode extenders = doc.path("extenders");
        if (extenders.size() != 1) {
            throw new IllegalStateException(
                    "control plane: expected one extender in " + DEPLOYED + ", found " + extenders.size());
        }
        var extender = (ObjectNode) extenders.get(0);
        extender.put("urlPrefix", extenderUrl);
        if (caFile != null) {
            ((ObjectNode) extender.path("tlsConfig")).put("caFile", caFile.toString());
        }
        var missing = new java.util.TreeSet<>(visible);
        for (JsonNode resource : extender.path("managedResources")) {
            if (missing.remove(resource.path("name").asString())) {
                ((ObjectNode) resource).put("ignoredByScheduler", false);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException(
                    "control plane: " + missing + " not among the managed resources of " + DEPLOYED);
        }
        return YAML.writeValueAsString(doc);
    }
}
