package io.hami.protocol.testing;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Enforces {@link PatientTimeout}: the limit it names times {@link Patience#FACTOR}, on the test's own thread, which
 * a timer interrupts at the deadline.
 */
public final class PatientTimeoutExtension implements InvocationInterceptor {
    /** JUnit's own switch for {@code @Timeout}, honoured the same way. */
    static final String MODE = "junit.jupiter.execution.timeout.mode";

    /** One daemon thread for every deadline of the JVM: it only interrupts. */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("hami-patient-timeout").daemon().factory());

    @Override
    public void interceptTestMethod(
            Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        intercept(invocation, call, context, testable(call.getExecutable(), context));
    }

    @Override
    public void interceptTestTemplateMethod(
            Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        intercept(invocation, call, context, testable(call.getExecutable(), context));
    }

    @Override
    public <T> T interceptTestFactoryMethod(
            Invocation<T> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        return intercept(invocation, call, context, testable(call.getExecutable(), context));
    }

    @Override
    public void interceptBeforeAllMethod(
            Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        intercept(invocation, call, context, own(call.getExecutable()));
    }

    @Override
    public void interceptBeforeEachMethod(
            Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        intercept(invocation, call, context, own(call.getExecutable()));
    }

    @Override
    public void interceptAfterEachMethod(
            Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        intercept(invocation, call, context, own(call.getExecutable()));
    }

    @Override
    public void interceptAfterAllMethod(
            Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        intercept(invocation, call, context, own(call.getExecutable()));
    }

    /** A lifecycle method's own annotation: a class's does not limit them, as with JUnit's {@code @Timeout}. */
    private static Optional<PatientTimeout> own(Method method) {
        return AnnotationSupport.findAnnotation(method, PatientTimeout.class);
    }

    /** The method's own annotation, else that of the nearest class around it (a {@code @Nested} class's outers). */
    static Optional<PatientTimeout> testable(Method method, ExtensionContext context) {
        Optional<PatientTimeout> found = own(method);
        for (Optional<ExtensionContext> c = Optional.of(context); found.isEmpty() && c.isPresent(); ) {
            found = c.get().getTestClass().flatMap(k -> AnnotationSupport.findAnnotation(k, PatientTimeout.class));
            c = c.get().getParent();
        }
        return found;
    }

    private static <T> T intercept(
            Invocation<T> invocation,
            ReflectiveInvocationContext<Method> call,
            ExtensionContext context,
            Optional<PatientTimeout> annotation)
            throws Throwable {
        if (annotation.isEmpty() || disabled(context)) {
            return invocation.proceed();
        }
        PatientTimeout a = annotation.get();
        Duration idle = Duration.of(a.value(), a.unit().toChronoUnit());
        return new Deadline(Patience.of(idle), idle, call.getExecutable().getName() + "()").run(invocation);
    }

    private static boolean disabled(ExtensionContext context) {
        String mode = context.getConfigurationParameter(MODE)
                .orElse("enabled")
                .strip()
                .toLowerCase(Locale.ROOT);
        return switch (mode) {
            case "disabled" -> true;
            case "disabled_on_debug" ->
                ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .anyMatch(arg -> arg.startsWith("-agentlib:jdwp") || arg.startsWith("-Xrunjdwp"));
            default -> false;
        };
    }

    /** One invocation under one limit; the timer's interrupt and the invocation's end exclude each other. */
    static final class Deadline {
        private final Duration limit;
        private final Duration idle;
        private final String what;
        private final Thread thread = Thread.currentThread();
        /** Guarded by {@code this}. */
        private boolean over;
        /** Guarded by {@code this}: set when the timer fired, the test thread's stack at that moment. */
        private StackTraceElement[] stackAtDeadline;

        Deadline(Duration limit, Duration idle, String what) {
            this.limit = limit;
            this.idle = idle;
            this.what = what;
        }

        <T> T run(Invocation<T> invocation) throws Throwable {
            ScheduledFuture<?> timer = TIMER.schedule(this::expire, limit.toNanos(), TimeUnit.NANOSECONDS);
            T result = null;
            Throwable failure = null;
            try {
                result = invocation.proceed();
            } catch (Throwable t) {
                failure = t;
            }
            timer.cancel(false);
            StackTraceElement[] atDeadline;
            synchronized (this) {
                over = true; // from here on the timer no longer interrupts
                atDeadline = stackAtDeadline;
            }
            if (atDeadline == null) {
                if (failure != null) {
                    throw failure;
                }
                return result;
            }
            boolean unused = Thread.interrupted(); // the timer's interrupt must not reach the next test
            var timedOut = new TimeoutException(what + " timed out after " + describe(limit) + " (" + describe(idle)
                    + " × patience " + factor() + ")");
            var stack = new Throwable("the test thread " + thread.getName() + " at the deadline");
            stack.setStackTrace(atDeadline);
            timedOut.addSuppressed(stack);
            if (failure != null) {
                timedOut.addSuppressed(failure);
            }
            throw timedOut;
        }

        private synchronized void expire() {
            if (!over) {
                stackAtDeadline = thread.getStackTrace();
                thread.interrupt();
            }
        }
    }

    /** The factor as typed: {@code 2}, {@code 2.5}. */
    static String factor() {
        double f = Patience.FACTOR;
        return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
    }

    /** {@code 90 s}, {@code 2 min}, {@code 250 ms}: the largest unit that keeps it whole. */
    static String describe(Duration d) {
        if (d.toMillis() % 60_000 == 0 && d.toMinutes() > 0) {
            return d.toMinutes() + " min";
        }
        if (d.toMillis() % 1_000 == 0 && d.toSeconds() > 0) {
            return d.toSeconds() + " s";
        }
        return d.toMillis() + " ms";
    }
}
