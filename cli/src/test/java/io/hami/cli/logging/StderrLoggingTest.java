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
}
