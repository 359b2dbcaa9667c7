package io.hami.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.jul.LevelChangePropagator;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The hami command's logging, set up in code rather than from a logback.xml: logback's XML configuration loads about
 * 600 classes (its model, Joran, an XML parser), a third of a second of a plugin's start on a loaded node. Logs go
 * to stderr so that stdout carries only command output (hami inspect -o json, annotation decode); the root level is
 * env {@code HAMI_LOG_LEVEL} (default INFO); the libraries' chatter is kept to WARN. java.util.logging (grpc-java
 * logs through it) is routed to SLF4J, so its records take the same appender, format and levels instead of JUL's
 * own two-line console output. A configuration file named by {@code -Dlogback.configurationFile}, or a
 * logback-test.xml on the class path (tests), still wins.
 */
public final class StderrLogging extends ContextAwareBase implements Configurator {
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX} %-5level %logger{24} - %msg%n";
    static final String APPENDER = "STDERR";
    private static final String[] QUIET = {"io.fabric8", "io.netty", "io.grpc", "io.vertx"};

    /** The log line formats of {@code --log-format}. */
    public enum Format {
        /** One line of text per event ({@link #PATTERN}). */
        text,
        /** One JSON object per line: logback's own {@link JsonEncoder}, for log collectors. */
        json
    }

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
        var appender = new ConsoleAppender<ILoggingEvent>();
        appender.setContext(context);
        appender.setName(APPENDER);
        appender.setTarget("System.err");
        appender.setEncoder(encoder(context, Format.text));
        appender.start();
        for (String name : QUIET) {
            context.getLogger(name).setLevel(Level.WARN);
        }
        // KubeClients names a failed exec plugin itself (file, user, exit code); fabric8's warning would repeat it.
        context.getLogger("io.fabric8.kubernetes.client.internal.KubeConfigUtils")
                .setLevel(Level.ERROR);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(rootLevel(level));
        root.addAppender(appender);
        bridgeJavaUtilLogging(context);
    }

    /**
     * Routes java.util.logging to SLF4J (jul-to-slf4j), replacing JUL's console handler, which wrote grpc-java's
     * SEVERE records with their stack traces straight to stderr, past the lab's log file and the level settings. The
     * propagator sets JUL's levels from logback's, so JUL does not build records that logback would drop.
     */
    static void bridgeJavaUtilLogging(LoggerContext context) {
        var propagator = new LevelChangePropagator();
        propagator.setContext(context);
        propagator.setResetJUL(true);
        propagator.start();
        context.addListener(propagator);
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
    }

    /**
     * Switches the stderr appender of the running logging to {@code format} ({@code --log-format}); does nothing when a
     * configuration file set logging up (it decides the format then).
     */
    public static void use(Format format) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        use(context, format);
    }

    static void use(LoggerContext context, Format format) {
        var appender = (ConsoleAppender<ILoggingEvent>)
                context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(APPENDER);
        if (appender == null) {
            return;
        }
        appender.stop();
        appender.setEncoder(encoder(context, format));
        appender.start();
    }

    private static Encoder<ILoggingEvent> encoder(LoggerContext context, Format format) {
        Encoder<ILoggingEvent> encoder = switch (format) {
            case text -> {
                var pattern = new PatternLayoutEncoder();
                pattern.setPattern(PATTERN);
                yield pattern;
            }
            case json -> {
                var json = new JsonEncoder();
                // The text with its arguments filled in, as collectors show it; "message" keeps the template.
                json.setWithFormattedMessage(true);
                yield json;
            }
        };
        encoder.setContext(context);
        encoder.start();
        return encoder;
    }

    /** {@code HAMI_LOG_LEVEL} as a level; unset or not a level name is INFO. */
    static Level rootLevel(String value) {
        return value == null || value.isBlank() ? Level.INFO : Level.toLevel(value.strip(), Level.INFO);
    }
}
