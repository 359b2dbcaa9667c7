package io.hami.plugin.server;

import io.grpc.Status;
import java.time.Duration;

/** What the kubelet-facing service reports about its calls (the plugin's metrics record it). */
public interface ServerObserver {
    /** Records nothing. */
    ServerObserver NONE = new ServerObserver() {
        @Override
        public void allocated(String resource, Status.Code code, Duration took) {}

        @Override
        public void listSent(String resource) {}
    };

    /** One Allocate of {@code resource} answered with {@code code} ({@code OK} when granted) after {@code took}. */
    void allocated(String resource, Status.Code code, Duration took);

    /** One ListAndWatch list of {@code resource} was sent to the kubelet. */
    void listSent(String resource);
}
