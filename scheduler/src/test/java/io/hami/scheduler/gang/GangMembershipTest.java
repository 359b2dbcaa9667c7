package io.hami.scheduler.gang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GangMembershipTest {

    static Pod pod(Map<String, String> labels, Map<String, String> annotations) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("ns")
                .withLabels(labels)
                .withAnnotations(annotations)
                .endMetadata()
                .build();
    }

    @Test
    void aPodGroupLabelOrAVolcanoAnnotationMakesAGangMember() {
        assertThat(GangMembership.group(pod(Map.of("scheduling.x-k8s.io/pod-group", "train"), Map.of())))
                .contains("train");
        assertThat(GangMembership.group(pod(Map.of(), Map.of("scheduling.k8s.io/group-name", "job-1"))))
                .contains("job-1");
        assertThat(GangMembership.group(pod(
                        Map.of("scheduling.x-k8s.io/pod-group", "train"),
                        Map.of("scheduling.k8s.io/group-name", "job-1"))))
                .as("the label first")
                .contains("train");
    }

    @Test
    void otherPodsAreNot() {
        assertThat(GangMembership.group(pod(null, null))).isEmpty();
        assertThat(GangMembership.group(pod(Map.of("scheduling.x-k8s.io/pod-group", " "), Map.of())))
                .as("a blank group names none")
                .isEmpty();
        assertThat(GangMembership.group(pod(Map.of("scheduling.k8s.io/group-name", "x"), Map.of())))
                .as("Volcano's key is an annotation, not a label")
                .isEmpty();
        assertThat(GangMembership.group(pod(Map.of(), Map.of("scheduling.x-k8s.io/pod-group", "x"))))
                .as("coscheduling's key is a label, not an annotation")
                .isEmpty();
        assertThat(GangMembership.group(new Pod())).isEmpty();
    }

    @Test
    void theWaitStaysWellInsideTheExtenderTimeout() {
        assertThat(GangLockWait.check(Duration.ZERO)).isZero();
        assertThat(GangLockWait.check(Duration.ofMillis(24_999))).isEqualTo(Duration.ofMillis(24_999));
        assertThatThrownBy(() -> GangLockWait.check(Duration.ofSeconds(25)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--gang-lock-wait must be below 25s, got 25s: a bind must answer within kube-scheduler's"
                        + " extender httpTimeout (30s in deploy/), after the wait and its own API calls");
        assertThatThrownBy(() -> GangLockWait.check(Duration.ofMillis(-1500)))
                .hasMessage("--gang-lock-wait must not be negative (0 turns waiting off), got -1500ms");
        assertThat(new GangWaits(Duration.ZERO, new NodeLockQueue()).on()).isFalse();
        assertThat(new GangWaits(GangLockWait.DEFAULT, new NodeLockQueue()).on())
                .isTrue();
    }
}
