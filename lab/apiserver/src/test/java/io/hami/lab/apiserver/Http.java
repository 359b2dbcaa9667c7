package io.hami.lab.apiserver;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Plain HTTP requests, for what a fabric8 client hides (bodies of 404s, raw wire form). */
final class Http {

    private Http() {}

    static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
