package io.hami.scheduler.leader;

import java.util.UUID;

/**
 * The identity a replica campaigns under ({@link LeaderMode.Elect}). It must differ between replicas: fabric8's
 * elector takes a Lease held under its own identity as its own, so two replicas with one identity would both lead.
 */
public final class ElectionIdentity {
    private ElectionIdentity() {}

    /**
     * {@code podName} (env {@code POD_NAME}, unique per pod) when set; otherwise {@code hostname} plus a random suffix,
     * as kube-scheduler does ({@code <hostname>_<uuid>}): two processes on one host, or pods with
     * {@code hostNetwork}, share a hostname.
     */
    public static String of(String podName, String hostname) {
        return of(podName, hostname, UUID.randomUUID());
    }

    static String of(String podName, String hostname, UUID suffix) {
        if (podName != null && !podName.isBlank()) {
            return podName;
        }
        return (hostname == null || hostname.isBlank() ? "hami-scheduler" : hostname) + "_" + suffix;
    }

    /** Whether {@link #of} made the identity up rather than taking the pod's name (worth a log line). */
    public static boolean generated(String podName) {
        return podName == null || podName.isBlank();
    }
}
