package io.hami.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.lab.scenario.ScenarioLoader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PodFactoryTest {
    @Test
    void buildsThePodAUserWouldSubmit() throws Exception {
        var s = ScenarioLoader.parse("""
                name: pods
                nodes: [{name: gpu, devices: [{vendor: nvidia, model: A100, memory: 1000}]}]
                workloads:
                  - name: job
                    annotations: {hami.io/gpu-scheduler-policy: binpack}
                    initContainers: [{name: warm, resources: {nvidia.com/gpu: 1}}]
                    containers: [{name: main, resources: {nvidia.com/gpumem: 4000}, env: {CUDA_DISABLE_CONTROL: "true"}}]
                """, "pods.yaml");
        Pod pod = PodFactory.build(
                new PodPlan("job-3", s.workloads().getFirst(), Duration.ZERO, Duration.ofMillis(1500)));

        assertThat(pod.getMetadata().getName()).isEqualTo("job-3");
        assertThat(pod.getMetadata().getLabels()).containsEntry(LabKeys.WORKLOAD, "job");
        assertThat(pod.getMetadata().getAnnotations())
                .containsEntry("hami.io/gpu-scheduler-policy", "binpack")
                .containsEntry(LabKeys.LIFETIME_MS, "1500");
        assertThat(pod.getSpec().getSchedulerName()).isNull();
        assertThat(pod.getSpec()
                        .getInitContainers()
                        .getFirst()
                        .getResources()
                        .getLimits()
                        .get("nvidia.com/gpu")
                        .toString())
                .isEqualTo("1");
        assertThat(pod.getSpec().getContainers().getFirst().getEnv().getFirst().getValue())
                .isEqualTo("true");
    }
}
