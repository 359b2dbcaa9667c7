package io.hami.e2e.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay on loopback in front of kube-apiserver for one client (a plugin process), which adds a latency that
 * can be switched at run time to every chunk of bytes each way. TLS passes through untouched (the API server's
 * certificate names 127.0.0.1), so the client needs nothing but this URL in its kubeconfig. With no latency it is a
 * plain relay; with one, each of the client's API calls takes at least two latencies, which turns the few
 * milliseconds an Allocate spends between two of its writes into a window a test can act in.
 */
final class SlowLink implements AutoCloseable {
    private static final byte[] EOF = new byte[0];

    private final String host;
    private final int port;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile long latencyNanos;

    /** Relays to {@code target} (an https URL on loopback). */
    SlowLink(String target) throws IOException {
        URI uri = URI.create(target);
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    /** The URL a client uses instead of the API server's. */
    String url() {
        return "https://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on every chunk relayed, either way, is held for {@code latency} ({@link Duration#ZERO}: none). */
    void latency(Duration latency) {
        latencyNanos = latency.toNanos();
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                Socket upstream = new Socket(host, port);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                open.add(client);
                open.add(upstream);
                var directionsLeft = new AtomicInteger(2);
                Runnable done = () -> {
                    if (directionsLeft.decrementAndGet() == 0) {
                        closeQuietly(client);
                        closeQuietly(upstream);
                    }
                };
                relay(client, upstream, done);
                relay(upstream, client, done);
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    /** One direction: a reader that stamps each chunk, a writer that sends it once its latency has passed. */
    private void relay(Socket from, Socket to, Runnable done) throws IOException {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        BlockingQueue<Chunk> line = new LinkedBlockingQueue<>();
        threads.execute(() -> {
            byte[] buffer = new byte[64 * 1024];
            try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    line.add(new Chunk(System.nanoTime() + latencyNanos, Arrays.copyOf(buffer, n)));
                }
            } catch (IOException e) {
                // the connection broke: pass the end on
            }
            line.add(new Chunk(System.nanoTime() + latencyNanos, EOF));
        });
        threads.execute(() -> {
            try {
                while (true) {
                    Chunk c = line.take();
                    long left;
                    while ((left = c.due() - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(left); // the link's latency, not a wait for anything
                    }
                    if (c.bytes() == EOF) {
                        to.shutdownOutput();
                        done.run();
                        return;
                    }
                    out.write(c.bytes());
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                closeQuietly(from);
                closeQuietly(to);
            }
        });
    }

    private record Chunk(long due, byte[] bytes) {}

    private void closeQuietly(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        open.forEach(this::closeQuietly);
        threads.shutdownNow();
    }
}
