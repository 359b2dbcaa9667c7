package io.hami.plugin.health;

import io.hami.plugin.spi.HealthSource;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link HealthBoard} from a vendor's {@link HealthSource} on one dedicated thread. A health source
 * that throws cannot vouch for any card, so every card counts as unhealthy until it answers again.
 */
public final class HealthWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HealthWatcher.class);

    private final HealthSource source;
    private final HealthBoard board;
    private final Set<Integer> everyCard;
    private final Duration wait;
    private final Thread thread;
    private volatile boolean running = true;

    private HealthWatcher(
            HealthSource source, HealthBoard board, Collection<Integer> cards, Duration wait, String vendor) {
        this.source = source;
        this.board = board;
        this.everyCard = Set.copyOf(cards);
        this.wait = wait;
        this.thread = Thread.ofPlatform().name("hami-health-" + vendor).daemon().unstarted(this::loop);
    }

    /**
     * Reads the health once ({@code cards}: the indexes of the cards served), so that no card is advertised healthy that is not, then keeps watching.
     *
     * @throws RuntimeException when the first read fails (the library does not work)
     */
    public static HealthWatcher start(
            HealthSource source, HealthBoard board, Collection<Integer> cards, Duration wait, String vendor) {
        HealthWatcher watcher = new HealthWatcher(source, board, cards, wait, vendor);
        board.update(source.unhealthy(Duration.ZERO));
        watcher.thread.start();
        return watcher;
    }

    private void loop() {
        while (running) {
            try {
                board.update(source.unhealthy(wait));
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.error("health source failed, every card counts as unhealthy until it answers: {}", e.getMessage());
                board.update(everyCard);
                sleep();
            }
        }
    }

    private void sleep() {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Stops the loop (it ends within one wait) and closes the source. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(wait.toMillis() + 5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        source.close();
    }
}
