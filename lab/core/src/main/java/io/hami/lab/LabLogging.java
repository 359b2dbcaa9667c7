package io.hami.lab;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Sends the logs of every component of a run (scheduler, plugins, API server, lab) to one file, so that the console
 * shows the run's progress and summary only. For the lab command; tests keep their own logging.
 */
public final class LabLogging {
    private LabLogging() {}

    /** From now on, INFO and above of every logger go to {@code file} and nowhere else. */
    public static void toFile(Path file) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return; // another logging backend: leave it as configured
        }
        var encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n");
        encoder.start();
        var appender = new FileAppender<ILoggingEvent>();
        appender.setContext(context);
        appender.setName("lab-file");
        appender.setFile(file.toString());
        appender.setEncoder(encoder);
        appender.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.detachAndStopAllAppenders();
        root.addAppender(appender);
        root.setLevel(Level.INFO);
        // grpc's shaded netty warns on every Unix-socket connection that SO_KEEPALIVE does not apply.
        context.getLogger("io.grpc.netty.shaded.io.netty.bootstrap").setLevel(Level.ERROR);
    }
}
