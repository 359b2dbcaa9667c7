package io.hami.cli.options;

import java.net.InetSocketAddress;
import picocli.CommandLine;

/** {@code host:port}, {@code :port} (all interfaces) or {@code [::1]:port}, as Go's listen flags take them. */
public final class HostPortConverter implements CommandLine.ITypeConverter<InetSocketAddress> {
    @Override
    public InetSocketAddress convert(String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new CommandLine.TypeConversionException("invalid address \"" + value + "\", want host:port or :port");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("invalid port in \"" + value + "\"");
        }
        if (port < 0 || port > 65535) {
            throw new CommandLine.TypeConversionException("port out of range in \"" + value + "\"");
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }
}
