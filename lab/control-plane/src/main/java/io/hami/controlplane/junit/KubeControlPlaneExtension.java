package io.hami.controlplane.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.ControlPlaneBinaries;
import io.hami.controlplane.KubeControlPlane;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/** See {@link EnableKubeControlPlane}. */
public final class KubeControlPlaneExtension
        implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {
    private static final ExtensionContext.Namespace NS =
            ExtensionContext.Namespace.create(KubeControlPlaneExtension.class);

    /** Closed by JUnit when the root context closes: at the end of the test run of this JVM. */
    private record Shared(KubeControlPlane plane) implements AutoCloseable {
        @Override
        public void close() {
            plane.close();
        }
    }

    static KubeControlPlane shared(ExtensionContext context) {
        return context.getRoot()
                .getStore(NS)
                .getOrComputeIfAbsent(
                        Shared.class,
                        k -> {
                            Path base = Path.of(System.getProperty("basedir", "."))
                                    .toAbsolutePath()
                                    .resolve("target/control-plane");
                            Path work = base.resolve(LocalDateTime.now(ZoneId.systemDefault())
                                    .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")));
                            return new Shared(KubeControlPlane.start(ControlPlaneBinaries.locate(), work));
                        },
                        Shared.class)
                .plane();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        KubeControlPlane plane = shared(context);
        inject(context, null, plane);
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) throws Exception {
        inject(context, testInstance, shared(context));
    }

    private static void inject(ExtensionContext context, Object instance, KubeControlPlane plane)
            throws IllegalAccessException {
        for (Class<?> c = context.getRequiredTestClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) != (instance == null) || Modifier.isFinal(f.getModifiers())) {
                    continue;
                }
                Object value = valueFor(f.getType(), context, plane);
                if (value != null) {
                    f.setAccessible(true);
                    f.set(instance, value);
                }
            }
        }
    }

    private static Object valueFor(Class<?> type, ExtensionContext context, KubeControlPlane plane) {
        if (type == KubeControlPlane.class) {
            return plane;
        }
        if (type == KubernetesClient.class) {
            // One client per test class, closed with it.
            ExtensionContext classContext = context;
            while (classContext.getTestMethod().isPresent()
                    && classContext.getParent().isPresent()) {
                classContext = classContext.getParent().get();
            }
            return classContext
                    .getStore(NS)
                    .getOrComputeIfAbsent(ClassClient.class, k -> new ClassClient(plane.newClient()), ClassClient.class)
                    .client();
        }
        return null;
    }

    private record ClassClient(KubernetesClient client) implements AutoCloseable {
        @Override
        public void close() {
            client.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        Class<?> t = p.getParameter().getType();
        return t == KubeControlPlane.class || t == KubernetesClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        return valueFor(p.getParameter().getType(), e, shared(e));
    }
}
