package io.hami.lab.cli;

import io.hami.cli.lifecycle.UntilStopped;
import io.hami.lab.apiserver.EmbeddedApiServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hami lab apiserver}: the lab's API server alone, for kubectl and other clients. */
@Command(
        name = "apiserver",
        mixinStandardHelpOptions = true,
        description =
                "Run the lab's embedded Kubernetes API server alone (plain HTTP on 127.0.0.1, in memory, empty at "
                        + "start), write a kubeconfig for it, and serve until interrupted (Ctrl-C).")
public final class LabApiServerCommand implements Callable<Integer> {

    @Option(
            names = "--port",
            paramLabel = "P",
            defaultValue = "0",
            description = "Port on 127.0.0.1; 0 picks a free one. Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            required = true,
            description = "Where to write the kubeconfig (kubectl --kubeconfig FILE ...).")
    Path kubeconfig;

    @Override
    public Integer call() throws InterruptedException {
        EmbeddedApiServer server = EmbeddedApiServer.start(port);
        server.writeKubeconfig(kubeconfig);
        System.out.println(
                "API server on " + server.url() + "; kubeconfig " + kubeconfig.toAbsolutePath() + "; Ctrl-C stops it");
        System.out.flush();
        UntilStopped.await(server);
        return 0;
    }
}
