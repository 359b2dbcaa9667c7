package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The scheduler's RBAC against the API calls the real scheduler makes ({@link SchedulerRun}): every recorded call
 * must be allowed by the roles the manifests bind to the scheduler's ServiceAccount, and every permission of those
 * roles must be used by some call.
 */
class SchedulerRbacTest {
    private static final Manifests MANIFESTS = Manifests.load();

    private static List<Rbac.Grant> grants() {
        JsonNode deployment = MANIFESTS.get("Deployment", "hami-scheduler");
        String serviceAccount = deployment
                .path("spec")
                .path("template")
                .path("spec")
                .path("serviceAccountName")
                .asString();
        return new Rbac(MANIFESTS).grants(Manifests.namespace(deployment), serviceAccount, "scheduler");
    }

    @Test
    void everyCallTheSchedulerMakesIsAllowed() throws Exception {
        var accesses = SchedulerRun.get().accesses;
        assertThat(accesses).as("recorded calls").isNotEmpty();
        assertThat(Rbac.denied(grants(), accesses))
                .as("calls the scheduler's roles do not allow")
                .isEmpty();
    }

    @Test
    void everyPermissionOfTheSchedulerIsUsed() throws Exception {
        assertThat(Rbac.unused(grants(), SchedulerRun.get().accesses))
                .as("permissions no recorded call used")
                .isEmpty();
    }

    @Test
    void theSchedulerMakesNoNonResourceRequests() throws Exception {
        assertThat(SchedulerRun.get().nonResourceRequests).isEmpty();
    }
}
