package io.hami.lab.apiserver;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A server and a fabric8 client for it, for {@code @RegisterExtension}: one for the whole class when the field is
 * static, a fresh one for each test otherwise.
 */
final class ApiServer implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private EmbeddedApiServer server;
    private KubernetesClient client;
    private boolean perClass;

    EmbeddedApiServer server() {
        return server;
    }

    KubernetesClient client() {
        return client;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
        open();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!perClass) {
            open();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            close();
        }
    }

    private void open() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
    }

    private void close() {
        client.close();
        server.close();
    }
}
