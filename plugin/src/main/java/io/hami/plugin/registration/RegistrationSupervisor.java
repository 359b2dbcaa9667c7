package io.hami.plugin.registration;

import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every endpoint served and registered with the kubelet, on one thread: it registers until the kubelet
 * accepts (retrying, since the kubelet never comes back to a plugin that failed to register), registers again
 * when {@code kubelet.sock} is a new file (a kubelet restart), and serves on a new socket and registers again
 * when an endpoint's socket disappears (the restarted kubelet cleans the directory). An endpoint counts as
 * registered with one kubelet socket file (inode and time), so the events of one restart, in whatever order
 * they arrive, lead to one registration. File-system events make this quick; a periodic check covers events
 * that are lost.
 */
public final class RegistrationSupervisor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RegistrationSupervisor.class);

    private final List<Endpoint> endpoints;
    private final KubeletRegistrar registrar;
    private final Duration retry;
    private final Duration check;
    private final RegistrationObserver observer;
    /** The kubelet socket file each endpoint was last registered with. */
    private final Map<Endpoint, KubeletSocketId> registered = new HashMap<>();

    private final AtomicInteger registrations = new AtomicInteger();
    private final AtomicInteger failedRegistrations = new AtomicInteger();
    /** Rounds (serve, register what is pending, wait for the directory) run to their end. */
    private final AtomicInteger rounds = new AtomicInteger();

    private final CountDownLatch firstRound = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile WatchService watcher;

    public RegistrationSupervisor(
            List<Endpoint> endpoints,
            KubeletRegistrar registrar,
            Duration retry,
            Duration check,
            RegistrationObserver observer) {
        this.endpoints = List.copyOf(endpoints);
        this.registrar = registrar;
        this.retry = retry;
        this.check = check;
        this.observer = observer;
        this.thread = Thread.ofPlatform().name("hami-registration").daemon().unstarted(this::loop);
    }

    /** Serves every endpoint, then keeps them registered in the background. */
    public void start() {
        endpoints.forEach(e -> e.server().start());
        thread.start();
    }

    /** How many successful Register calls were made, over every endpoint. */
    public int registrations() {
        return registrations.get();
    }

    /** How many Register calls failed (no kubelet, or it refused), over every endpoint. */
    public int failedRegistrations() {
        return failedRegistrations.get();
    }

    /**
     * How many rounds have run to their end: each serves what lost its socket, registers what is pending and then
     * waits for the directory to change or the periodic check (tests wait on it rather than on the clock).
     */
    public int rounds() {
        return rounds.get();
    }

    /** Waits until every endpoint has been registered once. */
    public boolean awaitRegistered(Duration timeout) throws InterruptedException {
        return firstRound.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void loop() {
        while (running) {
            Path dir = registrar.kubeletSocket().getParent();
            try {
                if (watcher == null) {
                    watcher = FileSystems.getDefault().newWatchService();
                    dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE);
                }
                ensureServing();
                boolean pending = registerPending();
                awaitEvents(pending ? retry : check);
                rounds.incrementAndGet();
            } catch (ClosedWatchServiceException e) {
                return;
            } catch (IOException | RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.warn("device-plugin directory {}: {}; retrying", dir, e.getMessage());
                closeWatcher();
                pause(retry);
            }
        }
    }

    /** Restarts servers whose socket was removed; they must register again. */
    private void ensureServing() {
        for (Endpoint e : endpoints) {
            if (!e.server().isServing()) {
                LOG.info(
                        "{}: socket {} is gone, serving on a new one",
                        e.resource(),
                        e.server().socket());
                e.server().start();
                registered.remove(e);
            }
        }
    }

    /** Registers what is not registered with the current kubelet socket; true when something still is not. */
    private boolean registerPending() {
        boolean pending = false;
        KubeletSocketId kubelet = KubeletSocketId.of(registrar.kubeletSocket());
        for (Endpoint e : endpoints) {
            KubeletSocketId with = registered.get(e);
            if (with != null && with.equals(kubelet)) {
                continue;
            }
            if (with != null) {
                LOG.info(
                        "{}: {} is a new file, the kubelet restarted: registering again",
                        e.resource(),
                        registrar.kubeletSocket());
            }
            try {
                registrar.register(
                        e.resource(), e.server().socket().getFileName().toString(), e.options());
                // The call dialled whatever kubelet.sock was by then, so the file is read again: a restart between
                // the first read and the dial must not count as one more restart. A restart after the dial is not
                // missed: the new kubelet empties the directory, our socket with it, and ensureServing registers.
                registered.put(e, KubeletSocketId.of(registrar.kubeletSocket()));
                registrations.incrementAndGet();
                observer.registered(e.resource(), true);
                LOG.info("{}: registered with the kubelet on {}", e.resource(), registrar.kubeletSocket());
            } catch (StatusRuntimeException ex) {
                pending = true;
                failedRegistrations.incrementAndGet();
                observer.registered(e.resource(), false);
                LOG.warn(
                        "{}: kubelet registration on {} failed, retrying in {}: {}{}",
                        e.resource(),
                        registrar.kubeletSocket(),
                        retry,
                        ex.getMessage(),
                        ex.getCause() == null ? "" : " (" + ex.getCause().getMessage() + ")");
            }
        }
        if (!pending) {
            firstRound.countDown();
        }
        return pending;
    }

    /** Waits for a change in the directory, or the timeout; what changed is read afresh by the next round. */
    private void awaitEvents(Duration timeout) throws IOException {
        WatchKey key;
        try {
            key = watcher.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
            return;
        }
        while (key != null) {
            key.pollEvents();
            if (!key.reset()) {
                throw new IOException("the directory is no longer watchable (removed?)");
            }
            key = watcher.poll();
        }
    }

    /** One kubelet socket file: a kubelet restart makes a new one, with another inode or time. */
    private record KubeletSocketId(Object fileKey, FileTime modified) {
        static KubeletSocketId of(Path socket) {
            try {
                BasicFileAttributes a = Files.readAttributes(socket, BasicFileAttributes.class);
                return new KubeletSocketId(Objects.requireNonNullElse(a.fileKey(), ""), a.lastModifiedTime());
            } catch (IOException e) {
                return null; // no kubelet yet: registering fails and is retried
            }
        }
    }

    private void pause(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void closeWatcher() {
        if (watcher != null) {
            try {
                watcher.close();
            } catch (IOException e) {
                LOG.debug("closing the directory watch: {}", e.getMessage());
            }
            watcher = null;
        }
    }

    /** Stops supervising and the servers; their sockets are removed. */
    @Override
    public void close() {
        running = false;
        closeWatcher();
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        endpoints.forEach(e -> e.server().close());
    }
}
