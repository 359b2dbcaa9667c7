package io.hami.scheduler.leader;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io} Lease (DECISIONS D6): only the leader serves filter and
 * bind and runs the handshake loop. Without election the process is always the leader.
 */
public final class Leadership implements BooleanSupplier, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    private final AtomicBoolean leader;
    /** The running election, cancelled on close; null without election. */
    private volatile CompletableFuture<?> election;

    private Leadership(boolean initial) {
        this.leader = new AtomicBoolean(initial);
    }

    public static Leadership always() {
        return new Leadership(true);
    }

    /** Campaigns for {@code namespace/name} as {@code identity}, with kube-scheduler's usual timings. */
    public static Leadership elect(KubernetesClient client, String namespace, String name, String identity,
                                   Runnable onStartedLeading) {
        var self = new Leadership(false);
        var config = new LeaderElectionConfigBuilder()
                .withName(name)
                .withLock(new LeaseLock(namespace, name, identity))
                .withLeaseDuration(Duration.ofSeconds(15))
                .withRenewDeadline(Duration.ofSeconds(10))
                .withRetryPeriod(Duration.ofSeconds(2))
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(
                        () -> {
                            LOG.info("became leader of lease {}/{} as {}", namespace, name, identity);
                            self.leader.set(true);
                            onStartedLeading.run();
                        },
                        () -> {
                            LOG.warn("lost leadership of lease {}/{}", namespace, name);
                            self.leader.set(false);
                        },
                        newLeader -> LOG.info("lease {}/{} is held by {}", namespace, name, newLeader)))
                .build();
        LeaderElector elector = client.leaderElector().withConfig(config).build();
        self.election = elector.start();
        return self;
    }

    @Override
    public boolean getAsBoolean() {
        return leader.get();
    }

    @Override
    public void close() {
        leader.set(false);
        if (election != null) {
            election.cancel(true);
        }
    }
}
