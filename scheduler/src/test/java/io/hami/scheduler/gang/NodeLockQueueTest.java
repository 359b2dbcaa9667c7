package io.hami.scheduler.gang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

@PatientTimeout(value = 30, unit = TimeUnit.SECONDS)
class NodeLockQueueTest {
    /** Long enough that only a release or a change of line wakes a waiter within a test. */
    static final Duration NO_POLL = Duration.ofMinutes(5);

    @Test
    void onlyTheFirstInLineGetsATurnAndTheNextGetsItWhenTheFirstLeaves() throws Exception {
        var queue = new NodeLockQueue(NO_POLL);
        var a = queue.join("n1");
        var b = queue.join("n1");
        var c = queue.join("n1");
        assertThat(queue.size("n1")).isEqualTo(3);

        assertThat(queue.awaitTurn(a, NodeLockQueue.deadline(Duration.ofSeconds(5))))
                .as("the first tries at once")
                .isTrue();
        assertThat(queue.awaitTurn(b, NodeLockQueue.deadline(Duration.ofMillis(200))))
                .as("the second waits its turn until its deadline")
                .isFalse();
        assertThat(queue.awaitTurn(c, NodeLockQueue.deadline(Duration.ofMillis(50))))
                .isFalse();

        queue.leave(a);
        long start = System.nanoTime();
        assertThat(queue.awaitTurn(b, NodeLockQueue.deadline(Duration.ofSeconds(5))))
                .as("the second's turn once the first left")
                .isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Patience.seconds(1));
        assertThat(queue.awaitTurn(c, NodeLockQueue.deadline(Duration.ofMillis(50))))
                .isFalse();
        queue.leave(b);
        queue.leave(c);
        assertThat(queue.waiting("n1"))
                .as("no state is kept for a node nobody waits on")
                .isFalse();
        assertThat(queue.size("n1")).isZero();
    }

    @Test
    void theFirstInLineTriesAgainWhenTheLockIsReleasedAndNotBefore() throws Exception {
        var queue = new NodeLockQueue(NO_POLL);
        var first = queue.join("n1");
        assertThat(queue.awaitTurn(first, NodeLockQueue.deadline(Duration.ofSeconds(1))))
                .isTrue();
        // Its try found the lock held: without a release it waits out its deadline.
        long start = System.nanoTime();
        assertThat(queue.awaitTurn(first, NodeLockQueue.deadline(Duration.ofMillis(300))))
                .isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));

        // The releases come once the first waits (parked with its deadline), n2's before n1's; it must wake for
        // n1's and not before it.
        Thread waiter = Thread.currentThread();
        var n1Released = new AtomicBoolean();
        Thread releaser = Thread.ofVirtual().start(() -> {
            await("the first waiting")
                    .atMost(Patience.seconds(10))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
            queue.released("n2"); // another node: not ours
            // Not a wait for an event: the time in which a wake by n2's release would show (an absence has no
            // event); load can only hide that bug here, not fail a correct build.
            sleep(150);
            n1Released.set(true);
            queue.released("n1");
        });
        assertThat(queue.awaitTurn(first, NodeLockQueue.deadline(Patience.seconds(30))))
                .as("woken before its deadline")
                .isTrue();
        assertThat(n1Released).as("woken by n1's release, not n2's").isTrue();
        releaser.join();
        queue.leave(first);
    }

    @Test
    void aReleaseWhileTheFirstIsTryingIsNotLost() throws Exception {
        var queue = new NodeLockQueue(NO_POLL);
        var first = queue.join("n1");
        assertThat(queue.awaitTurn(first, NodeLockQueue.deadline(Duration.ofSeconds(1))))
                .isTrue();
        queue.released("n1"); // between its try and its next wait
        assertThat(queue.awaitTurn(first, NodeLockQueue.deadline(Duration.ofMillis(100))))
                .isTrue();
        queue.leave(first);
    }

    @Test
    void withoutAReleaseTheFirstPollsWithJitter() throws Exception {
        var queue = new NodeLockQueue(Duration.ofMillis(200));
        var first = queue.join("n1");
        assertThat(queue.awaitTurn(first, NodeLockQueue.deadline(Duration.ofSeconds(1))))
                .isTrue();
        var gaps = new ArrayList<Duration>();
        for (int i = 0; i < 5; i++) {
            long start = System.nanoTime();
            assertThat(queue.awaitTurn(first, NodeLockQueue.deadline(Duration.ofSeconds(5))))
                    .isTrue();
            gaps.add(Duration.ofNanos(System.nanoTime() - start));
        }
        queue.leave(first);
        assertThat(gaps)
                .as("each poll between half and one and a half of 200 ms (plus scheduling slack)")
                .allSatisfy(g -> assertThat(g)
                        .isBetween(Duration.ofMillis(95), Duration.ofMillis(300).plus(Patience.millis(600))));
    }

    @Test
    void waitersTakeTheirTurnsInArrivalOrder() throws Exception {
        var queue = new NodeLockQueue(Duration.ofMillis(50));
        int n = 8;
        var tickets = new ArrayList<NodeLockQueue.Ticket>();
        for (int i = 0; i < n; i++) {
            tickets.add(queue.join("n1"));
        }
        List<Integer> order = new CopyOnWriteArrayList<>();
        var done = new CountDownLatch(n);
        // Started in reverse: arrival in the line, not thread start, decides.
        for (int i = n - 1; i >= 0; i--) {
            int id = i;
            Thread.ofVirtual().start(() -> {
                try {
                    if (queue.awaitTurn(tickets.get(id), NodeLockQueue.deadline(Duration.ofSeconds(20)))) {
                        order.add(id);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    queue.leave(tickets.get(id)); // took the lock: the next one's turn
                    done.countDown();
                }
            });
        }
        assertThat(done.await(Patience.seconds(20).toMillis(), TimeUnit.MILLISECONDS))
                .isTrue();
        assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(queue.waiting("n1")).isFalse();
    }

    @Test
    void linesOfDifferentNodesDoNotWaitForEachOther() throws Exception {
        var queue = new NodeLockQueue(NO_POLL);
        var n1 = queue.join("n1");
        var n2 = queue.join("n2");
        assertThat(queue.awaitTurn(n2, NodeLockQueue.deadline(Duration.ofSeconds(1))))
                .isTrue();
        assertThat(queue.awaitTurn(n1, NodeLockQueue.deadline(Duration.ofSeconds(1))))
                .isTrue();
        queue.leave(n1);
        assertThat(queue.waiting("n1")).isFalse();
        assertThat(queue.waiting("n2")).isTrue();
        queue.leave(n2);
    }

    @Test
    void aPollMustBePositive() {
        assertThatThrownBy(() -> new NodeLockQueue(Duration.ZERO)).hasMessageContaining("must be positive");
    }

    /** Only for the window in which a wrong wake would show (see its caller), not a wait for an event. */
    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
