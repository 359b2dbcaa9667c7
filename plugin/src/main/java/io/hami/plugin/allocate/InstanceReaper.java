package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.plugin.spi.VendorPlugin;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees what the vendor created for pods that have ended (sMLU instances, virtual HCUs): every period it
 * compares the pods holding something with the node's pods that are still alive.
 */
public final class InstanceReaper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InstanceReaper.class);

    private final KubernetesClient client;
    private final String node;
    private final VendorPlugin vendor;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("hami-instance-reaper").daemon().factory());

    public InstanceReaper(KubernetesClient client, String node, VendorPlugin vendor) {
        this.client = client;
        this.node = node;
        this.vendor = vendor;
    }

    public void start(Duration period) {
        // A periodic task that throws is never run again: log and keep freeing on the next round.
        var unused = timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        reap();
                    } catch (RuntimeException e) {
                        LOG.error("node {}: freeing ended pods' devices failed, retrying next round", node, e);
                    }
                },
                period.toMillis(),
                period.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** One pass; public for tests. */
    public void reap() {
        Set<String> holding = vendor.podsHoldingInstances();
        if (holding.isEmpty()) {
            return;
        }
        Set<String> alive = new HashSet<>();
        try {
            for (Pod p : client.pods()
                    .inAnyNamespace()
                    .withField("spec.nodeName", node)
                    .list()
                    .getItems()) {
                String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
                if (!"Succeeded".equals(phase) && !"Failed".equals(phase)) {
                    alive.add(p.getMetadata().getUid());
                }
            }
        } catch (KubernetesClientException e) {
            LOG.warn("node {}: cannot list pods to free ended pods' devices, retrying: {}", node, e.getMessage());
            return;
        }
        for (String uid : holding) {
            if (!alive.contains(uid)) {
                vendor.release(uid);
                LOG.info("node {}: freed the devices created for ended pod {}", node, uid);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
