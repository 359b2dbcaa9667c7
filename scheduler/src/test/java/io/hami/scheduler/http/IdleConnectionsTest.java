package io.hami.scheduler.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** kube-scheduler's client keeps idle connections 90 s; the server must not close them first (JDK default: 30 s). */
class IdleConnectionsTest {
    static final String PROPERTY = "sun.net.httpserver.idleInterval";
    final String before = System.getProperty(PROPERTY);

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, before);
        }
    }

    @Test
    void idleConnectionsOutliveTheGoClientsNinetySeconds() {
        System.clearProperty(PROPERTY);

        SchedulerHttpServer.keepIdleConnectionsLongerThanClients();

        assertThat(Long.parseLong(System.getProperty(PROPERTY))).isGreaterThan(90);
    }

    @Test
    void anOperatorsOwnSettingStands() {
        System.setProperty(PROPERTY, "45");

        SchedulerHttpServer.keepIdleConnectionsLongerThanClients();

        assertThat(System.getProperty(PROPERTY)).isEqualTo("45");
    }
}
