package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A watch starts after the {@code resourceVersion} it names (objects written later arrive as ADDED, older ones are not
 * repeated); without one it starts with ADDED for every selected object. Events then follow in write order.
 */
class WatchFromResourceVersionTest {

    @RegisterExtension
    static final ApiServer api = new ApiServer();

    private static List<String> watched(String resourceVersion, Runnable thenWrite) throws InterruptedException {
        RecordingHandler<Pod> events = new RecordingHandler<>();
        Watch watch = api.client()
                .pods()
                .watch(
                        new ListOptionsBuilder()
                                .withResourceVersion(resourceVersion)
                                .build(),
                        events);
        try {
            thenWrite.run();
            return events.drain(Duration.ofMillis(400)).stream()
                    .map(e -> e.type() + " " + e.name())
                    .toList();
        } finally {
            watch.close();
        }
    }

    @Test
    void startsAfterTheGivenVersionAndKeepsWriteOrder() throws InterruptedException {
        api.client().pods().resource(Fixtures.pod("old")).create();
        String listed = api.client().pods().list().getMetadata().getResourceVersion();
        api.client().pods().resource(Fixtures.pod("newer")).create();

        List<String> events = watched(listed, () -> {
            api.client().pods().withName("newer").edit(p -> {
                p.getMetadata().setLabels(Map.of("step", "1"));
                return p;
            });
            api.client().pods().withName("old").delete();
        });

        assertThat(events).containsExactly("ADDED newer", "MODIFIED newer", "DELETED old");
        assertThat(watched(null, () -> {})).containsExactly("ADDED newer");
    }
}
