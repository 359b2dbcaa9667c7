package io.hami.lab.usage;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.lab.kubelet.ContainerAllocation;
import io.hami.lab.kubelet.ContainerRuntime;
import io.hami.lab.scenario.UsageProfile;
import io.hami.lab.scenario.Vendor;
import io.hami.lab.workload.LabKeys;
import io.hami.lab.workload.UsageAnnotation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workload processes of running containers: for each container whose pod carries a usage profile, a
 * {@code hami-workload} process writes the container's HAMi-core shared region at the host path the NVIDIA plugin
 * prepared, with the limits the plugin granted, until the pod ends or the lab stops. No process outlives the lab:
 * {@link #close} stops them all, and a shutdown hook does the same for a JVM that exits without closing.
 */
public final class ContainerWorkloads implements ContainerRuntime.Processes, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerWorkloads.class);
    /** How long a stopped workload gets to write its last figures and exit before it is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    /** A container whose workload was started. */
    public record Started(ContainerAllocation.ContainerRef container, RegionPlan plan, UsageProfile profile) {}

    private record Running(Started started, Process process) {}

    private final Path tool;
    private final Map<String, List<Running>> byPod = new ConcurrentHashMap<>();
    private final List<Started> started = Collections.synchronizedList(new ArrayList<>());
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private final Thread shutdownHook;
    private volatile boolean closed;

    /** @param tool the {@code hami-workload} executable */
    public ContainerWorkloads(Path tool) {
        this.tool = tool;
        this.shutdownHook = Thread.ofPlatform().unstarted(this::killAll);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** For a runtime that runs no workload processes: a pod with a usage profile is reported, not run. */
    public static ContainerWorkloads none() {
        return new ContainerWorkloads(null);
    }

    /**
     * Starts the workloads of the pod's containers that have a usage profile, from the NVIDIA Allocate answers the
     * kubelet recorded for them. A container that cannot get one is a problem the run reports, not an error.
     */
    @Override
    public void start(Pod pod, List<ContainerAllocation> allocations, Duration lifetime) {
        Map<String, UsageProfile> profiles;
        try {
            profiles = UsageAnnotation.decode(annotation(pod));
        } catch (IllegalArgumentException e) {
            problem(pod, "", e.getMessage());
            return;
        }
        if (profiles.isEmpty() || closed) {
            return;
        }
        if (tool == null) {
            problem(pod, "", "this node runs no workload processes (no hami-workload tool)");
            return;
        }
        String uid = pod.getMetadata().getUid();
        for (Map.Entry<String, UsageProfile> e : profiles.entrySet()) {
            String name = e.getKey();
            ContainerAllocation allocation = allocations.stream()
                    .filter(a -> a.container().name().equals(name)
                            && a.resource().equals(Vendor.NVIDIA.resources().count()))
                    .findFirst()
                    .orElse(null);
            if (allocation == null) {
                problem(pod, name, "no NVIDIA Allocate answer was recorded for it");
                continue;
            }
            try {
                RegionPlan plan = RegionPlan.of(allocation.answer(), env(pod, name));
                List<String> argv = WorkloadCommand.of(tool, plan, e.getValue(), lifetime);
                Process p = new ProcessBuilder(argv)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                var s = new Started(allocation.container(), plan, e.getValue());
                started.add(s);
                byPod.computeIfAbsent(uid, u -> Collections.synchronizedList(new ArrayList<>()))
                        .add(new Running(s, p));
                LOG.debug(
                        "pod {} container {}: workload pid {} writes {}",
                        allocation.container().pod(),
                        name,
                        p.pid(),
                        plan.region());
            } catch (IllegalArgumentException | IOException ex) {
                problem(pod, name, "no workload: " + ex.getMessage());
            }
        }
        if (closed) {
            stop(uid); // the lab stopped while this pod started
        }
    }

    /** Stops the pod's workloads (they write their last figures and exit) and waits for them. */
    @Override
    public void stop(String podUid) {
        List<Running> running = byPod.remove(podUid);
        if (running == null) {
            return;
        }
        synchronized (running) {
            running.forEach(r -> r.process().destroy()); // SIGTERM: the workload finishes its tick and exits
            for (Running r : running) {
                awaitExit(r);
            }
        }
    }

    private void awaitExit(Running r) {
        try {
            if (!r.process().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                r.process().destroyForcibly();
                problems.add(r.started().container().pod() + " container "
                        + r.started().container().name() + ": its workload did not exit within "
                        + STOP_GRACE.toSeconds() + "s of SIGTERM; killed");
            } else if (r.process().exitValue() != 0) {
                problems.add(r.started().container().pod() + " container "
                        + r.started().container().name() + ": its workload exited with "
                        + r.process().exitValue());
            }
        } catch (InterruptedException e) {
            r.process().destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Stops every workload still running. */
    public void stopAll() {
        for (String uid : List.copyOf(byPod.keySet())) {
            stop(uid);
        }
    }

    /** Every container whose workload was started, in order. */
    public List<Started> started() {
        synchronized (started) {
            return List.copyOf(started);
        }
    }

    /** Workloads that could not start or did not end cleanly, one line each. */
    public List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    /** Processes running now. */
    public List<ProcessHandle> processes() {
        var out = new ArrayList<ProcessHandle>();
        byPod.values().forEach(list -> {
            synchronized (list) {
                list.forEach(r -> out.add(r.process().toHandle()));
            }
        });
        return out;
    }

    /**
     * What each stopped container's workload last wrote, read back with {@code hami-workload --dump} (the C side's
     * reading of its own region).
     */
    public List<ContainerUsage> lastWritten() throws IOException, InterruptedException {
        var out = new ArrayList<ContainerUsage>();
        for (Started s : started()) {
            Process dump = new ProcessBuilder(
                            tool.toString(),
                            "--dump",
                            "--region",
                            s.plan().region().toString())
                    .redirectErrorStream(true)
                    .start();
            String text = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (dump.waitFor() != 0) {
                throw new IOException("hami-workload --dump of " + s.plan().region() + " failed: " + text.strip());
            }
            out.addAll(RegionDump.parse(text, s.container().pod(), s.container().name()));
        }
        return out;
    }

    private void killAll() {
        byPod.values().forEach(list -> list.forEach(r -> r.process().destroyForcibly()));
    }

    @Override
    public void close() {
        closed = true;
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs anyway
        }
    }

    private void problem(Pod pod, String container, String what) {
        String line = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
                + (container.isEmpty() ? "" : " container " + container) + ": " + what;
        LOG.warn("usage workload: {}", line);
        problems.add(line);
    }

    private static String annotation(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return a == null ? null : a.get(LabKeys.USAGE);
    }

    private static Map<String, String> env(Pod pod, String container) {
        var env = new HashMap<String, String>();
        for (Container c : pod.getSpec().getContainers()) {
            if (c.getName().equals(container) && c.getEnv() != null) {
                for (EnvVar v : c.getEnv()) {
                    if (v.getValue() != null) {
                        env.put(v.getName(), v.getValue());
                    }
                }
            }
        }
        return env;
    }
}
