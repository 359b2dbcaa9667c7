package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.hami.protocol.testing.Patience;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A LIST with {@code limit} is answered in pages, each with a {@code continue} token, all of one snapshot as the API
 * server's are: informers that list page by page (the scheduler's list 500 at a time) see every object once.
 */
class PagedListTest {
    @RegisterExtension
    final ApiServer api = new ApiServer();

    @BeforeEach
    void start() {
        for (int i = 0; i < 7; i++) {
            api.client().pods().resource(Fixtures.pod("p" + i)).create();
        }
    }

    private PodList page(long limit, String token) {
        return api.client()
                .pods()
                .inAnyNamespace()
                .list(new ListOptionsBuilder()
                        .withLimit(limit)
                        .withContinue(token)
                        .build());
    }

    @Test
    void pagesCoverEveryObjectOnceFromOneSnapshot() {
        PodList first = page(3, null);
        assertThat(first.getItems()).hasSize(3);
        assertThat(first.getMetadata().getContinue()).isNotEmpty();
        api.client().pods().resource(Fixtures.pod("later")).create(); // after the snapshot: not in its pages
        var names = new ArrayList<String>();
        first.getItems().forEach(p -> names.add(p.getMetadata().getName()));
        String token = first.getMetadata().getContinue();
        int pages = 1;
        while (token != null && !token.isEmpty()) {
            PodList next = page(3, token);
            assertThat(next.getMetadata().getResourceVersion())
                    .isEqualTo(first.getMetadata().getResourceVersion());
            next.getItems().forEach(p -> names.add(p.getMetadata().getName()));
            token = next.getMetadata().getContinue();
            pages++;
        }
        assertThat(pages).isEqualTo(3);
        assertThat(names).containsExactlyInAnyOrder("p0", "p1", "p2", "p3", "p4", "p5", "p6");
        // Without a limit, or with one above the count, one answer as before.
        assertThat(page(100, null).getItems()).hasSize(8);
        assertThat(page(100, null).getMetadata().getContinue()).isNullOrEmpty();
        assertThat(api.client().pods().inAnyNamespace().list().getItems()).hasSize(8);
    }

    @Test
    void anUnknownTokenIsGone() {
        assertThatThrownBy(() -> page(3, "99:0"))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(410));
    }

    @Test
    void anInformerListingPageByPageSeesEveryPodAndThenTheWatch() throws InterruptedException {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        try (var informer = api.client().pods().inAnyNamespace().withLimit(2L).inform(new ResourceEventHandler<Pod>() {
            @Override
            public void onAdd(Pod pod) {
                synchronized (seen) {
                    seen.add(pod.getMetadata().getName());
                    seen.notifyAll();
                }
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {}

            @Override
            public void onDelete(Pod pod, boolean unknown) {
                synchronized (seen) {
                    seen.remove(pod.getMetadata().getName());
                    seen.notifyAll();
                }
            }
        })) {
            awaitSize(seen, 7);
            api.client().pods().resource(Fixtures.pod("after")).create();
            awaitSize(seen, 8);
            assertThat(List.copyOf(seen)).contains("after", "p0", "p6");
        }
    }

    /** Waits until the informer's handler has seen {@code size} pods: it wakes this wait on every change. */
    private static void awaitSize(Set<String> seen, int size) throws InterruptedException {
        long deadline = System.nanoTime() + Patience.seconds(10).toNanos();
        synchronized (seen) {
            for (long left = deadline - System.nanoTime(); seen.size() < size && left > 0; ) {
                TimeUnit.NANOSECONDS.timedWait(seen, left);
                left = deadline - System.nanoTime();
            }
            assertThat(seen).hasSize(size);
        }
    }
}
