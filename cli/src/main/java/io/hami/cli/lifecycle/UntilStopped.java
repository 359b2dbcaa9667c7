package io.hami.cli.lifecycle;

import java.util.concurrent.CountDownLatch;

/**
 * How the serving commands run: until the JVM is told to stop (the kubelet's SIGTERM, Ctrl-C), and then close
 * their service before the JVM exits, so sockets, leases and node locks are released on the way out.
 */
public final class UntilStopped {
    private UntilStopped() {}

    /** Blocks until shutdown; the shutdown hook closes {@code service} first. */
    public static void await(AutoCloseable service) throws InterruptedException {
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                service.close();
                            } catch (Exception e) {
                                System.err.println("hami: closing on shutdown failed: " + e.getMessage());
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "hami-stop"));
        stopped.await();
    }
}
