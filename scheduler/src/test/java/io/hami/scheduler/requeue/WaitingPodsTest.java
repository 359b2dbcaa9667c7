package io.hami.scheduler.requeue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.scheduler.requeue.WaitingPods.Waiting;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WaitingPodsTest {
    static Waiting pod(String name, String... vendors) {
        return new Waiting("ns", name, Set.of(vendors));
    }

    static List<String> names(List<Waiting> pods) {
        return pods.stream().map(Waiting::name).toList();
    }

    @Test
    void podsOfTheReleasedVendorAreNudgedLongestWaitingFirst() {
        var w = new WaitingPods(10);
        w.unschedulable(pod("a", "NVIDIA"));
        w.unschedulable(pod("b", "HCU"));
        w.unschedulable(pod("c", "NVIDIA", "HCU"));
        w.unschedulable(pod("d", "NVIDIA"));
        w.unschedulable(pod("a", "NVIDIA")); // rejected again: keeps its place
        assertThat(names(w.nudge(Set.of("NVIDIA"), 10))).containsExactly("a", "c", "d");
        assertThat(names(w.nudge(Set.of("HCU"), 10))).containsExactly("b", "c");
        assertThat(w.nudge(Set.of("MLU"), 10)).isEmpty();
        assertThat(w.size()).isEqualTo(4);
    }

    @Test
    void aBurstsCapNudgesTheOthersNextTime() {
        var w = new WaitingPods(10);
        for (String name : List.of("a", "b", "c", "d", "e")) {
            w.unschedulable(pod(name, "NVIDIA"));
        }
        assertThat(w.waitingFor(Set.of("NVIDIA"))).isEqualTo(5);
        assertThat(names(w.nudge(Set.of("NVIDIA"), 2))).containsExactly("a", "b");
        assertThat(names(w.nudge(Set.of("NVIDIA"), 2))).containsExactly("c", "d");
        assertThat(names(w.nudge(Set.of("NVIDIA"), 2))).containsExactly("e", "a");
    }

    @Test
    void forgottenPodsAreNotNudged() {
        var w = new WaitingPods(10);
        w.unschedulable(pod("a", "NVIDIA"));
        w.unschedulable(pod("b", "NVIDIA"));
        w.forget("ns/a");
        w.forget("ns/unknown");
        assertThat(names(w.nudge(Set.of("NVIDIA"), 10))).containsExactly("b");
    }

    @Test
    void memoryIsBoundedByDroppingTheOldest() {
        var w = new WaitingPods(3);
        for (String name : List.of("a", "b", "c", "d")) {
            w.unschedulable(pod(name, "NVIDIA"));
        }
        assertThat(w.size()).isEqualTo(3);
        assertThat(w.view()).containsOnlyKeys("ns/b", "ns/c", "ns/d");
        assertThatThrownBy(() -> new WaitingPods(0)).hasMessage("capacity must be positive: 0");
    }

    @Test
    void aPodAskingForNoVendorIsNotRemembered() {
        var w = new WaitingPods(3);
        w.unschedulable(pod("a"));
        assertThat(w.size()).isZero();
    }
}
