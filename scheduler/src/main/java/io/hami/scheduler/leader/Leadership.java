package io.hami.scheduler.leader;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this replica leads (design D6 in docs/design.md#d6, {@link LeaderMode}): only the leader serves filter and bind and runs
 * the handshake loop. It campaigns on a {@code coordination.k8s.io} Lease, follows the Lease of the kube-scheduler
 * in its pod, or, alone, always leads.
 */
public final class Leadership implements BooleanSupplier, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    /** How often a follower reads the Lease: kube-scheduler's own retry period. */
    static final Duration FOLLOW_PERIOD = Duration.ofSeconds(2);
    /** kube-scheduler's default lease duration, for a Lease that does not say. */
    private static final int DEFAULT_LEASE_SECONDS = 15;

    private final AtomicBoolean leader;
    /** Stops the running election or follower on close. */
    private volatile Runnable stop = () -> {};

    private Leadership(boolean initial) {
        this.leader = new AtomicBoolean(initial);
    }

    public static Leadership always() {
        return new Leadership(true);
    }

    /** Starts leading, campaigning or following as {@code mode} says; {@code onStartedLeading} runs at each start. */
    public static Leadership start(KubernetesClient client, LeaderMode mode, Clock clock, Runnable onStartedLeading) {
        return switch (mode) {
            case LeaderMode.Always a -> always();
            case LeaderMode.Elect e -> elect(client, e.namespace(), e.name(), e.identity(), onStartedLeading);
            case LeaderMode.Follow f -> follow(client, f, clock, onStartedLeading);
        };
    }

    /**
     * Reads the Lease every {@link #FOLLOW_PERIOD}. When it cannot be read, the last one read still counts until
     * it expires: kube-scheduler, cut off the same way, stops scheduling by then too.
     */
    static Leadership follow(KubernetesClient client, LeaderMode.Follow mode, Clock clock, Runnable onStartedLeading) {
        var self = new Leadership(false);
        var timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("hami-leader-follow").daemon().factory());
        Lease[] last = {null};
        var unused = timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        last[0] = client.resources(Lease.class)
                                .inNamespace(mode.namespace())
                                .withName(mode.name())
                                .get();
                    } catch (RuntimeException e) {
                        // a failed read (KubernetesClientException included) must not end the schedule
                        LOG.warn("cannot read lease {}/{}: {}", mode.namespace(), mode.name(), e.getMessage());
                    }
                    boolean leads = heldBy(last[0], mode.podName(), clock.instant());
                    if (leads != self.leader.getAndSet(leads)) {
                        String holder = last[0] == null || last[0].getSpec() == null
                                ? null
                                : last[0].getSpec().getHolderIdentity();
                        if (leads) {
                            LOG.info(
                                    "kube-scheduler of this pod ({}) leads lease {}/{}: leading",
                                    holder,
                                    mode.namespace(),
                                    mode.name());
                            onStartedLeading.run();
                        } else {
                            LOG.warn(
                                    "lease {}/{} is held by {}, not by this pod's kube-scheduler: not leading",
                                    mode.namespace(),
                                    mode.name(),
                                    holder);
                        }
                    }
                },
                0,
                FOLLOW_PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
        self.stop = timer::shutdownNow;
        return self;
    }

    /** Whether {@code lease} is held, unexpired at {@code now}, by a holder on pod {@code podName}. */
    static boolean heldBy(Lease lease, String podName, Instant now) {
        if (lease == null || lease.getSpec() == null) {
            return false;
        }
        String holder = lease.getSpec().getHolderIdentity();
        ZonedDateTime renewed = lease.getSpec().getRenewTime();
        if (holder == null || renewed == null || !(holder.equals(podName) || holder.startsWith(podName + "_"))) {
            return false;
        }
        Integer seconds = lease.getSpec().getLeaseDurationSeconds();
        return now.isBefore(renewed.toInstant().plusSeconds(seconds == null ? DEFAULT_LEASE_SECONDS : seconds));
    }

    /** Campaigns for {@code namespace/name} as {@code identity}, with kube-scheduler's usual timings. */
    static Leadership elect(
            KubernetesClient client, String namespace, String name, String identity, Runnable onStartedLeading) {
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
        CompletableFuture<?> election = elector.start();
        self.stop = () -> election.cancel(true);
        return self;
    }

    @Override
    public boolean getAsBoolean() {
        return leader.get();
    }

    @Override
    public void close() {
        stop.run();
        leader.set(false);
    }
}
