package io.hami.plugin.registration;

import io.hami.plugin.kubeletapi.DevicePluginOptions;
import io.hami.plugin.server.ResourceServer;

/** One resource as the kubelet knows it: its name, its server and the options it registers with. */
public record Endpoint(String resource, ResourceServer server, DevicePluginOptions options) {}
