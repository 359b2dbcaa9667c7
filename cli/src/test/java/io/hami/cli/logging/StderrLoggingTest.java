package io.hami.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class StderrLoggingTest {

    @Test
    void logbackFindsItAsAService() {
        assertThat(ServiceLoader.load(Configurator.class).stream()
                        .map(p -> p.type().getName()))
                .contains(StderrLogging.class.getName());
    }

    @Test
    void logsGoToStderrWithTheLibrariesAtWarn() {
        var context = new LoggerContext();
        var logging = new StderrLogging();
        logging.setContext(context);
        logging.apply(context, null);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        var appender = (ConsoleAppender<?>) root.getAppender("STDERR");
        assertThat(appender.getTarget()).isEqualTo("System.err");
        assertThat(appender.isStarted()).isTrue();
        assertThat(((PatternLayoutEncoder) appender.getEncoder()).getPattern()).isEqualTo(StderrLogging.PATTERN);
        for (String quiet : new String[] {"io.fabric8", "io.netty", "io.grpc", "io.vertx"}) {
            assertThat(context.getLogger(quiet + ".x").getEffectiveLevel())
                    .as(quiet)
                    .isEqualTo(Level.WARN);
        }
        assertThat(context.getLogger("io.hami.plugin.PluginApp").getEffectiveLevel())
                .isEqualTo(Level.INFO);
    }

    @Test
    void theRootLevelComesFromHamiLogLevel() {
        var context = new LoggerContext();
        new StderrLogging().apply(context, "debug");
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.DEBUG);
        assertThat(StderrLogging.rootLevel(" WARN ")).isEqualTo(Level.WARN);
        assertThat(StderrLogging.rootLevel("")).isEqualTo(Level.INFO);
        assertThat(StderrLogging.rootLevel("loud")).isEqualTo(Level.INFO);
    }

    @Test
    void aConfigurationFileStillWins() {
        assertThat(StderrLogging.defers("/etc/hami/logback.xml", false)).isTrue();
        assertThat(StderrLogging.defers(null, true)).isTrue();
        assertThat(StderrLogging.defers(null, false)).isFalse();
    }

    @Test
    void jsonFormatWritesOneJsonObjectPerLine() {
        var context = new LoggerContext();
        var logging = new StderrLogging();
        logging.setContext(context);
        logging.apply(context, null);

        StderrLogging.use(context, StderrLogging.Format.json);
        String info = written(context, context.getLogger("io.hami.scheduler.SchedulerApp"), Level.INFO, null);
        String warn = written(
                context,
                context.getLogger("io.hami.plugin.PluginApp"),
                Level.WARN,
                new IllegalStateException("kubelet gone"));

        var json = tools.jackson.databind.json.JsonMapper.builder().build();
        assertThat(info.lines()).hasSize(1);
        assertThat(warn.lines()).hasSize(1);
        var first = json.readTree(info);
        var second = json.readTree(warn);
        assertThat(first.get("level").asString()).isEqualTo("INFO");
        assertThat(first.get("loggerName").asString()).isEqualTo("io.hami.scheduler.SchedulerApp");
        assertThat(first.get("formattedMessage").asString()).isEqualTo("extender listening on :9443");
        assertThat(first.get("message").asString()).isEqualTo("extender listening on {}");
        assertThat(second.get("level").asString()).isEqualTo("WARN");
        assertThat(second.get("throwable").get("message").asString()).isEqualTo("kubelet gone");

        StderrLogging.use(context, StderrLogging.Format.text);
        assertThat(written(context, context.getLogger("io.hami.x"), Level.INFO, null))
                .endsWith(" INFO  io.hami.x - extender listening on :9443\n");
    }

    /** What the stderr appender's encoder writes for one event. */
    @SuppressWarnings("unchecked")
    private static String written(LoggerContext context, Logger logger, Level level, Throwable thrown) {
        var appender = (ConsoleAppender<ch.qos.logback.classic.spi.ILoggingEvent>)
                context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(StderrLogging.APPENDER);
        var event = new ch.qos.logback.classic.spi.LoggingEvent(
                Logger.class.getName(), logger, level, "extender listening on {}", thrown, new Object[] {":9443"});
        event.setMDCPropertyMap(java.util.Map.of());
        return new String(appender.getEncoder().encode(event), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void javaUtilLoggingGoesThroughLogbackAtTheMatchingLevel() {
        var context = (LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();
        var seen = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
        seen.setContext(context);
        seen.start();
        Logger grpc = context.getLogger("io.grpc.internal.SomeGrpcClass");
        grpc.addAppender(seen);
        try {
            StderrLogging.bridgeJavaUtilLogging(context);
            var jul = java.util.logging.Logger.getLogger("io.grpc.internal.SomeGrpcClass");
            jul.log(java.util.logging.Level.SEVERE, "Exception while executing runnable", new RuntimeException("x"));
            jul.fine("not at this level");

            assertThat(seen.list).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.ERROR);
                assertThat(e.getFormattedMessage()).isEqualTo("Exception while executing runnable");
                assertThat(e.getThrowableProxy().getMessage()).isEqualTo("x");
            });
            // JUL's own console handler is gone: the record is written once, by logback.
            assertThat(java.util.logging.Logger.getLogger("").getHandlers())
                    .allMatch(h -> h instanceof org.slf4j.bridge.SLF4JBridgeHandler);
        } finally {
            grpc.detachAppender(seen);
        }
    }
}
