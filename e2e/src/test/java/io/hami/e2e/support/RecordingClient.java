package io.hami.e2e.support;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A client with one identity (a ServiceAccount's token, a user's certificate) that records every request it sends
 * (watches included) and every answer kube-apiserver gave. The code under test gets this client, so the record is
 * exactly what that code asked of the real API server, and what it was told: a 403 anywhere shows here.
 */
public final class RecordingClient implements AutoCloseable {
    /** An answer: the request and its HTTP status. */
    public record Answer(ApiCall call, int code) {
        @Override
        public String toString() {
            return code + " " + call;
        }
    }

    private final List<ApiCall> calls = new CopyOnWriteArrayList<>();
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final List<String> connectionFailures = new CopyOnWriteArrayList<>();
    private final KubernetesClient client;

    public RecordingClient(Config identity) {
        this.client = new KubernetesClientBuilder()
                .withConfig(identity)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("hami-e2e-recorder", new Interceptor() {
                    @Override
                    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                        calls.add(new ApiCall(request.method(), request.uri()));
                    }

                    @Override
                    public void after(
                            HttpRequest request,
                            HttpResponse<?> response,
                            AsyncBody.Consumer<List<ByteBuffer>> consumer) {
                        answers.add(new Answer(new ApiCall(request.method(), request.uri()), response.code()));
                    }

                    @Override
                    public CompletableFuture<Boolean> afterFailure(
                            BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
                        answers.add(new Answer(
                                new ApiCall(
                                        response.request().method(),
                                        response.request().uri()),
                                response.code()));
                        return CompletableFuture.completedFuture(false);
                    }

                    @Override
                    public void afterConnectionFailure(HttpRequest request, Throwable failure) {
                        connectionFailures.add(new ApiCall(request.method(), request.uri()) + ": " + failure);
                    }
                }))
                .build();
    }

    public KubernetesClient client() {
        return client;
    }

    /** Every request so far, in order. */
    public List<ApiCall> calls() {
        return List.copyOf(calls);
    }

    /** The resource accesses of {@link #calls()}, as the authorizer sees them. */
    public List<ApiCall.Access> accesses() {
        return calls.stream().flatMap(c -> c.access().stream()).toList();
    }

    /** Every answer so far, in order (an error answer may be listed twice: seen as response and as failure). */
    public List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** Answers with this status. */
    public List<Answer> answered(int code) {
        return answers.stream().filter(a -> a.code() == code).distinct().toList();
    }

    public List<String> connectionFailures() {
        return List.copyOf(connectionFailures);
    }

    @Override
    public void close() {
        client.close();
    }
}
