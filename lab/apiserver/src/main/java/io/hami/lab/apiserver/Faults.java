package io.hami.lab.apiserver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Failures the server answers instead of handling a request, for tests of retry and conflict handling. An injected
 * failure is a {@code Status} response with the given code and the matching reason; the request never reaches the
 * store, so it changes nothing and no watcher sees it.
 *
 * <p>{@link #failNext} rules are checked first, in the order they were added; then {@link #failWrites}. With
 * concurrent clients, which request draws which random number depends on arrival order.
 */
public final class Faults {

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private record NextFailure(String method, Pattern path, int status, int times) {}

    private final List<NextFailure> next = new ArrayList<>();
    private final AtomicInteger injected = new AtomicInteger();
    private double writeProbability;
    private Random writeRandom;
    private int[] writeStatuses;

    Faults() {}

    /**
     * Fails each POST, PUT, PATCH and DELETE with {@code probability}, answering one of {@code statuses} (uniformly,
     * from a generator seeded with {@code seed}). Replaces an earlier {@code failWrites}.
     */
    public synchronized Faults failWrites(double probability, long seed, int... statuses) {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1]: " + probability);
        }
        if (statuses.length == 0) {
            throw new IllegalArgumentException("at least one status is needed");
        }
        for (int status : statuses) {
            requireErrorStatus(status);
        }
        writeProbability = probability;
        writeRandom = new Random(seed);
        writeStatuses = statuses.clone();
        return this;
    }

    /**
     * Fails the next {@code times} requests whose method is {@code method} ({@code "*"} for any) and whose path
     * (without the query) matches {@code pathRegex} as a whole, answering {@code status}.
     */
    public synchronized Faults failNext(String method, String pathRegex, int status, int times) {
        requireErrorStatus(status);
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1: " + times);
        }
        next.add(new NextFailure(method.toUpperCase(Locale.ROOT), Pattern.compile(pathRegex), status, times));
        return this;
    }

    /** Removes every rule; the count of injected failures is kept. */
    public synchronized void clear() {
        next.clear();
        writeProbability = 0;
        writeRandom = null;
        writeStatuses = null;
    }

    /** How many failures have been injected since the server started. */
    public int injectedCount() {
        return injected.get();
    }

    /** The status to fail this request with, if a rule says so; counts it as injected. */
    synchronized OptionalInt failureFor(String method, String path) {
        for (int i = 0; i < next.size(); i++) {
            NextFailure rule = next.get(i);
            if ((rule.method().equals("*") || rule.method().equals(method))
                    && rule.path().matcher(path).matches()) {
                if (rule.times() == 1) {
                    next.remove(i);
                } else {
                    next.set(i, new NextFailure(rule.method(), rule.path(), rule.status(), rule.times() - 1));
                }
                return injectedStatus(rule.status());
            }
        }
        if (writeRandom != null && WRITES.contains(method) && writeRandom.nextDouble() < writeProbability) {
            return injectedStatus(writeStatuses[writeRandom.nextInt(writeStatuses.length)]);
        }
        return OptionalInt.empty();
    }

    private OptionalInt injectedStatus(int status) {
        injected.incrementAndGet();
        return OptionalInt.of(status);
    }

    private static void requireErrorStatus(int status) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("an injected failure needs a 4xx or 5xx status: " + status);
        }
    }
}
