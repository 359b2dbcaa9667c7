package io.hami.deploy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.hami.lab.apiserver.EmbeddedApiServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A client of the embedded API server that records every request it sends, watches (WebSocket upgrades) included,
 * as the access the API server authorizes. The code under test gets this client, so what is recorded is exactly
 * what that code asks of the API server.
 */
final class RecordingClient {
    private final List<ApiAccess> accesses = new CopyOnWriteArrayList<>();
    private final List<String> unparsed = new CopyOnWriteArrayList<>();

    KubernetesClient connect(EmbeddedApiServer server) {
        return new KubernetesClientBuilder()
                .withConfig(server.clientConfig())
                .withHttpClientBuilderConsumer(b ->
                        b.addOrReplaceInterceptor("hami-deploy-recorder", new Interceptor() {
                            @Override
                            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                                try {
                                    accesses.add(ApiAccess.of(request.method(), request.uri()));
                                } catch (IllegalArgumentException e) {
                                    unparsed.add(e.getMessage());
                                }
                            }
                        }))
                .build();
    }

    /** Every resource access so far, in order. */
    List<ApiAccess> accesses() {
        return List.copyOf(accesses);
    }

    /** Requests that were not resource accesses (discovery, /version): RBAC for them is the cluster's default. */
    List<String> nonResourceRequests() {
        return List.copyOf(unparsed);
    }
}
