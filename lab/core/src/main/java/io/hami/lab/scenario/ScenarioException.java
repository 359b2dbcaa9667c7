package io.hami.lab.scenario;

/** A scenario that cannot be read or breaks a rule; the message names the file, the key and what is wrong. */
public final class ScenarioException extends Exception {
    public ScenarioException(String message) {
        super(message);
    }
}
