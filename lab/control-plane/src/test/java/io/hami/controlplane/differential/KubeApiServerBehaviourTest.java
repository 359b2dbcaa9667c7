package io.hami.controlplane.differential;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;

/** {@link ApiBehaviourContract} against a real etcd and kube-apiserver: the reference the embedded server must match. */
@EnableKubeControlPlane
class KubeApiServerBehaviourTest extends ApiBehaviourContract {

    private KubeControlPlane plane;
    private KubernetesClient client;

    @Override
    protected KubernetesClient client() {
        return client;
    }

    @Override
    protected void prepareNamespace(String namespace) {
        plane.ensureNamespace(namespace);
    }
}
