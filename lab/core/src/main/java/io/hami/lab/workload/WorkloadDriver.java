package io.hami.lab.workload;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits the planned pods at their arrival times: each goes through the scheduler's webhook and is then created
 * in the API server, retrying writes the API server refuses (injected errors), as a controller would.
 */
public final class WorkloadDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadDriver.class);
    private static final int CREATE_ATTEMPTS = 20;

    private final KubernetesClient client;
    private final AdmissionClient admission;
    private final List<PodPlan> plans;
    private final ExecutorService submitters = Executors.newVirtualThreadPerTaskExecutor();
    private final CountDownLatch submitted;
    private final Map<String, String> rejected = new ConcurrentHashMap<>();
    private final Map<String, String> notCreated = new ConcurrentHashMap<>();
    private Thread clock;

    public WorkloadDriver(KubernetesClient client, AdmissionClient admission, List<PodPlan> plans) {
        this.client = client;
        this.admission = admission;
        this.plans = List.copyOf(plans);
        this.submitted = new CountDownLatch(plans.size());
    }

    /** Starts submitting; arrival times count from {@code startNanos} ({@link System#nanoTime()}). */
    public void start(long startNanos) {
        clock = Thread.ofVirtual().name("lab-workload").start(() -> {
            for (PodPlan plan : plans) {
                long wait = startNanos + plan.arrival().toNanos() - System.nanoTime();
                try {
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                } catch (InterruptedException e) {
                    return;
                }
                submitters.execute(() -> submit(plan));
            }
        });
    }

    /** True once every planned pod was created, rejected or given up on. */
    public boolean done() {
        return submitted.getCount() == 0;
    }

    public int submittedCount() {
        return plans.size() - (int) submitted.getCount();
    }

    /** Pods the webhook denied, by name, with its message. */
    public Map<String, String> rejected() {
        return new TreeMap<>(rejected);
    }

    /** Pods that could not be created, by name, with the last error. */
    public Map<String, String> notCreated() {
        return new TreeMap<>(notCreated);
    }

    private void submit(PodPlan plan) {
        try {
            switch (review(plan)) {
                case AdmissionClient.Verdict.Denied d -> rejected.put(plan.name(), d.message());
                case AdmissionClient.Verdict.Admitted a -> create(plan, a.pod());
            }
        } catch (IOException e) {
            notCreated.put(plan.name(), "webhook: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("submitting pod {}", plan.name(), e);
            notCreated.put(plan.name(), e.toString());
        } finally {
            submitted.countDown();
        }
    }

    /** The webhook's verdict; a webhook that cannot be reached fails the create, which is retried like a write. */
    private AdmissionClient.Verdict review(PodPlan plan) throws IOException {
        IOException last = null;
        for (int attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
            try {
                return admission.review(PodFactory.build(plan));
            } catch (IOException e) {
                last = e;
                sleep(Duration.ofMillis(50L * attempt));
            }
        }
        throw last;
    }

    private void create(PodPlan plan, Pod pod) {
        KubernetesClientException last = null;
        for (int attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
            try {
                client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
                return;
            } catch (KubernetesClientException e) {
                if (e.getStatus() != null && "AlreadyExists".equals(e.getStatus().getReason())) {
                    return;
                }
                last = e;
                sleep(Duration.ofMillis(50L * attempt));
            }
        }
        notCreated.put(plan.name(), "create: " + last.getMessage());
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (clock != null) {
            clock.interrupt();
        }
        submitters.shutdownNow();
    }
}
