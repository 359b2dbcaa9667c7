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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits the planned pods at their arrival times: each goes through the scheduler's webhook and is then created
 * in the API server, retrying writes the API server refuses (injected errors), as a controller would.
 *
 * <p>Against a real API server (no {@link AdmissionClient}) the pod is created as submitted and the API server calls
 * the webhook: a denial comes back as the create's error, with the webhook's message, and is recorded as a
 * rejection. The webhook's {@code failurePolicy: Ignore} lets a pod through unchanged when the webhook cannot be
 * reached; such a pod (one that asks for resources but did not get the scheduler name) is deleted and submitted
 * again, like a create the webhook refused to answer, and reported if that keeps happening.
 */
public final class WorkloadDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadDriver.class);
    private static final int CREATE_ATTEMPTS = 20;
    /** How the API server words a webhook's denial before the webhook's own message. */
    private static final Pattern WEBHOOK_DENIAL =
            Pattern.compile("admission webhook \"[^\"]+\" denied the request: (.*)", Pattern.DOTALL);

    private final KubernetesClient client;
    private final AdmissionClient admission;
    private final List<PodPlan> plans;
    private final ExecutorService submitters = Executors.newVirtualThreadPerTaskExecutor();
    private final CountDownLatch submitted;
    private final Map<String, String> rejected = new ConcurrentHashMap<>();
    private final Map<String, String> notCreated = new ConcurrentHashMap<>();
    private final Map<String, Integer> priorities;
    private Thread clock;

    /**
     * @param admission  sends each pod through the webhook before it is created; null when the API server calls the
     *                   webhook itself
     * @param priorities the scenario's PriorityClasses by name: with the embedded API server (which has no Priority
     *                   admission) a pod's {@code spec.priority} is set from its class here
     */
    public WorkloadDriver(
            KubernetesClient client, AdmissionClient admission, List<PodPlan> plans, Map<String, Integer> priorities) {
        this.client = client;
        this.admission = admission;
        this.plans = List.copyOf(plans);
        this.submitted = new CountDownLatch(plans.size());
        this.priorities = Map.copyOf(priorities);
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
            if (admission == null) {
                createThroughWebhook(plan);
                return;
            }
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
                String className = plan.workload().priorityClass();
                return admission.review(PodFactory.build(plan, className == null ? null : priorities.get(className)));
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
                client.pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .resource(pod)
                        .create();
                return;
            } catch (KubernetesClientException e) {
                if (e.getStatus() != null
                        && "AlreadyExists".equals(e.getStatus().getReason())) {
                    return;
                }
                last = e;
                sleep(Duration.ofMillis(50L * attempt));
            }
        }
        notCreated.put(plan.name(), "create: " + last.getMessage());
    }

    /** Creates the pod as submitted; the API server calls the webhook, which sets the scheduler name or denies it. */
    private void createThroughWebhook(PodPlan plan) {
        Pod pod = PodFactory.build(plan, null); // kube-apiserver's Priority admission sets spec.priority
        String ns = pod.getMetadata().getNamespace();
        String last = null;
        for (int attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
            Pod created;
            try {
                created = client.pods().inNamespace(ns).resource(pod).create();
            } catch (KubernetesClientException e) {
                String denial = denial(e);
                if (denial != null) {
                    rejected.put(plan.name(), denial);
                    return;
                }
                if (e.getStatus() == null
                        || !"AlreadyExists".equals(e.getStatus().getReason())) {
                    last = "create: " + e.getMessage();
                    sleep(Duration.ofMillis(50L * attempt));
                    continue;
                }
                created = client.pods()
                        .inNamespace(ns)
                        .withName(plan.name())
                        .get(); // an earlier attempt's answer was lost
                if (created == null) {
                    continue;
                }
            }
            if (!asksForResources(pod)
                    || LabKeys.SCHEDULER_NAME.equals(created.getSpec().getSchedulerName())) {
                return;
            }
            // failurePolicy Ignore: the webhook was not reached and the pod went in unchanged.
            last = "the webhook was not called (failurePolicy Ignore): the pod was created with schedulerName "
                    + created.getSpec().getSchedulerName();
            LOG.warn("pod {}: {}; deleting it and submitting it again", plan.name(), last);
            try {
                client.pods()
                        .inNamespace(ns)
                        .withName(plan.name())
                        .withGracePeriod(0)
                        .delete();
            } catch (KubernetesClientException e) {
                LOG.warn("pod {}: could not delete it: {}", plan.name(), e.toString());
            }
            sleep(Duration.ofMillis(50L * attempt));
        }
        notCreated.put(plan.name(), last);
    }

    /** The webhook's message when the API server refused the pod because the webhook denied it, else null. */
    static String denial(KubernetesClientException e) {
        String message = e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getStatus().getMessage()
                : e.getMessage();
        if (message == null) {
            return null;
        }
        Matcher m = WEBHOOK_DENIAL.matcher(message);
        return m.find() ? m.group(1) : null;
    }

    /** Whether the webhook sends the pod to our scheduler: it asks for some resource (every scenario resource is a device). */
    private static boolean asksForResources(Pod pod) {
        return Stream.concat(pod.getSpec().getInitContainers().stream(), pod.getSpec().getContainers().stream())
                .anyMatch(c -> c.getResources() != null
                        && c.getResources().getLimits() != null
                        && !c.getResources().getLimits().isEmpty());
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
