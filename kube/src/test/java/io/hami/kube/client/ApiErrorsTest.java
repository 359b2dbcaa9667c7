package io.hami.kube.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.SocketException;
import org.junit.jupiter.api.Test;

class ApiErrorsTest {

    @Test
    void anAnswerOfTheApiServerIsKeptAsItIs() {
        var e = new KubernetesClientException(
                "Failure executing: PATCH at: https://api/api/v1/nodes/n. Message: conflict.");

        assertThat(ApiErrors.describe(e)).isEqualTo(e.getMessage());
    }

    @Test
    void aRequestWithoutAnAnswerSaysWhatWentWrongInsteadOfFabric8sGenericText() {
        var reset = new KubernetesClientException(
                "An error has occurred.", new IOException(new SocketException("Connection reset")));
        var bare = new KubernetesClientException("An error has occurred.", new IOException());

        assertThat(ApiErrors.describe(reset)).isEqualTo("no answer from the API server (Connection reset)");
        assertThat(ApiErrors.describe(bare)).isEqualTo("no answer from the API server (no answer)");
    }
}
