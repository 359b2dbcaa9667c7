package io.hami.kube.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/** A client on a raw socket, for requests no polite client sends: partial headers, lying lengths, endless chunks. */
public final class RawHttp {
    private RawHttp() {}

    /** A connected socket whose reads give up after {@code readTimeout}, so a test never hangs on one. */
    public static Socket connect(InetSocketAddress server, Duration readTimeout) throws IOException {
        var socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.getPort()), 10_000);
        socket.setSoTimeout((int) readTimeout.toMillis());
        return socket;
    }

    /** Request line and headers of a POST to {@code path}; {@code length} null: chunked. */
    public static String head(String path, Long length) {
        return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + (length == null ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + length + "\r\n")
                + "\r\n";
    }

    public static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** One HTTP response: status and body. */
    public record Response(int status, String body) {}

    /** Reads one response (a Content-Length body, as the scheduler answers). */
    public static Response response(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        String head = headText(in);
        int status = Integer.parseInt(head.substring(9, 12));
        int length = 0;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return new Response(status, new String(in.readNBytes(length), StandardCharsets.UTF_8));
    }

    private static String headText(InputStream in) throws IOException {
        var out = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before a response: " + out);
            }
            out.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** How a connection ended, seen from the client. */
    public record Ending(long atNanos, String received, boolean closedByServer) {}

    /**
     * Reads until the server closes the connection (end of stream or reset) or the socket's read timeout passes
     * ({@code closedByServer} false then); returns when, and what the server sent.
     */
    public static Ending untilClosed(Socket socket) {
        var received = new ByteArrayOutputStream();
        boolean closed;
        try {
            socket.getInputStream().transferTo(received);
            closed = true;
        } catch (SocketTimeoutException e) {
            closed = false;
        } catch (SocketException e) { // reset: the server closed with our unread bytes in its buffer
            closed = true;
        } catch (IOException e) {
            closed = true;
        }
        return new Ending(System.nanoTime(), received.toString(StandardCharsets.ISO_8859_1), closed);
    }
}
