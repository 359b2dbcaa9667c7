package io.hami.protocol.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * JUnit's {@link org.junit.jupiter.api.Timeout @Timeout} with the limit scaled by {@link Patience}: a test, test
 * factory or test template that runs longer than {@code value} {@code unit} times the factor fails with a
 * {@link java.util.concurrent.TimeoutException} saying "timed out after X (N × patience F)". JUnit has no setting
 * that scales its own {@code @Timeout} (only defaults for methods without one), hence this annotation.
 *
 * <p>As {@code @Timeout} in its default {@code SAME_THREAD} mode: the test runs on its own thread, which a timer
 * interrupts at the deadline (a test that swallows the interrupt still fails once it ends); the failure carries the
 * test thread's stack at the deadline, so a hang shows where it hung. On a class it applies to every test, test
 * factory and test template method of the class, its subclasses and its {@code @Nested} classes; on a method it
 * overrides the class's. Lifecycle methods ({@code @BeforeEach}, ...) are limited only by their own annotation, and
 * only in a class that declares one too (the class's annotation registers the extension). JUnit's
 * {@code junit.jupiter.execution.timeout.mode} ({@code disabled}, {@code disabled_on_debug}) applies as to
 * {@code @Timeout}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(PatientTimeoutExtension.class)
public @interface PatientTimeout {
    /** The limit on an idle machine, before {@link Patience} scales it. */
    long value();

    TimeUnit unit() default TimeUnit.SECONDS;
}
