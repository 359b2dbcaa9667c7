package io.hami.controlplane.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against a real etcd and kube-apiserver ({@link io.hami.controlplane.KubeControlPlane}),
 * started once per test JVM and shared by every class that asks for it. Fields (static or not) of type
 * {@code KubeControlPlane} get the control plane, fields of type {@code KubernetesClient} an administrator's client
 * closed after the class; test and lifecycle methods may take either as a parameter. kube-scheduler is started on
 * request: {@code controlPlane.startKubeScheduler(KubeSchedulerConfig.extender(url, caFile))}.
 *
 * <p>Logs and certificates: {@code target/control-plane/<time>/} of the module under test.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KubeControlPlaneExtension.class)
public @interface EnableKubeControlPlane {}
