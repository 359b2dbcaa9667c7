package io.hami.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The hami command's logging, set up in code rather than from a logback.xml: logback's XML configuration loads about
 * 600 classes (its model, Joran, an XML parser), a third of a second of a plugin's start on a loaded node. Logs go
 * to stderr so that stdout carries only command output (hami inspect -o json, annotation decode); the root level is
 * env {@code HAMI_LOG_LEVEL} (default INFO); the libraries' chatter is kept to WARN. A configuration file named by
 * {@code -Dlogback.configurationFile}, or a logback-test.xml on the class path (tests), still wins.
 */
public final class StderrLogging extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX} %-5level %logger{24} - %msg%n";
    private static final String[] QUIET = {"io.fabric8", "io.netty", "io.grpc", "io.vertx"};

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (defers(
                System.getProperty("logback.configurationFile"),
                StderrLogging.class.getClassLoader().getResource("logback-test.xml") != null)) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        apply(context, System.getenv("HAMI_LOG_LEVEL"));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Whether logback's own file configuration should run instead: a file was named, or tests bring theirs. */
    static boolean defers(String configurationFile, boolean testFileOnClassPath) {
        return configurationFile != null || testFileOnClassPath;
    }

    void apply(LoggerContext context, String level) {
        var encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        var appender = new ConsoleAppender<ILoggingEvent>();
        appender.setContext(context);
        appender.setName("STDERR");
        appender.setTarget("System.err");
        appender.setEncoder(encoder);
        appender.start();
        for (String name : QUIET) {
            context.getLogger(name).setLevel(Level.WARN);
        }
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(rootLevel(level));
        root.addAppender(appender);
    }

    /** {@code HAMI_LOG_LEVEL} as a level; unset or not a level name is INFO. */
    static Level rootLevel(String value) {
        return value == null || value.isBlank() ? Level.INFO : Level.toLevel(value.strip(), Level.INFO);
    }
}
