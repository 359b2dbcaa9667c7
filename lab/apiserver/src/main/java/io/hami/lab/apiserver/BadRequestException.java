package io.hami.lab.apiserver;

/** A request the real API server rejects with 400 Bad Request (malformed selector, malformed body). */
final class BadRequestException extends RuntimeException {

    BadRequestException(String message) {
        super(message);
    }
}
