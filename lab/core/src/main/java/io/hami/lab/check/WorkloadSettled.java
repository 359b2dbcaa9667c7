package io.hami.lab.check;

import io.hami.lab.scenario.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the lab sees of its workload each second, and the rule for when it has settled: every pod arrived and every
 * fault is done, kube-scheduler has nothing in hand, no pod is pending or allocating, no running pod has a lifetime
 * left, and nothing changed for the scenario's settle time. A run that reaches its timeout first did not settle:
 * its other invariants were checked on a cluster still moving, so it fails ({@link #invariant}).
 *
 * @param allSubmitted     the workload driver has submitted every planned pod
 * @param faultsDone       every scheduled fault has been injected
 * @param inScheduler      pods kube-scheduler (simulated or real) has in hand
 * @param pending          pods pending (not bound, or bound and waiting for their devices)
 * @param allocating       pods whose devices are being allocated
 * @param lifetimesLeft    running pods that will end by themselves (they have a lifetime)
 * @param quietFor         how long the cluster has not changed
 * @param settle           how long it must stay unchanged (the scenario's {@code settle})
 */
public record WorkloadSettled(
        boolean allSubmitted,
        boolean faultsDone,
        int inScheduler,
        int pending,
        int allocating,
        int lifetimesLeft,
        Duration quietFor,
        Duration settle) {

    /** What is still moving, one phrase each; empty when the workload has settled. */
    public List<String> moving() {
        var moving = new ArrayList<String>();
        if (!allSubmitted) {
            moving.add("pods still to be submitted");
        }
        if (!faultsDone) {
            moving.add("faults still to be injected");
        }
        if (inScheduler > 0) {
            moving.add(pods(inScheduler) + " in kube-scheduler's hands");
        }
        if (pending > 0) {
            moving.add(pods(pending) + " pending");
        }
        if (allocating > 0) {
            moving.add(pods(allocating) + " allocating");
        }
        if (lifetimesLeft > 0) {
            moving.add(pods(lifetimesLeft) + " running with a lifetime left");
        }
        if (moving.isEmpty() && quietFor.compareTo(settle) < 0) {
            moving.add("the cluster changed " + DurationText.format(quietFor) + " ago (settle: "
                    + DurationText.format(settle) + ")");
        }
        return moving;
    }

    public boolean settled() {
        return moving().isEmpty();
    }

    /**
     * The invariant every run checks: the workload settled before {@code timeout}. {@code atTimeout} is what the lab
     * saw last when the run stopped at its timeout, or null when it settled in time.
     */
    public static Invariant invariant(Duration timeout, WorkloadSettled atTimeout) {
        List<String> violations = atTimeout == null
                ? List.of()
                : List.of("the timeout of " + DurationText.format(timeout) + " was reached with "
                        + String.join(", ", atTimeout.moving()));
        return new Invariant(
                "settled",
                "the workload settled before the scenario's timeout of " + DurationText.format(timeout),
                1,
                violations);
    }

    private static String pods(int n) {
        return n == 1 ? "1 pod" : n + " pods";
    }
}
