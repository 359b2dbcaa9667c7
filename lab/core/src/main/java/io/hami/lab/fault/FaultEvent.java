package io.hami.lab.fault;

import java.time.Duration;

/**
 * Something the fault injector did, for the console and the report.
 *
 * @param at     when, from the start of the run
 * @param what   what was done
 * @param failed whether doing it failed (then {@code what} says why)
 */
public record FaultEvent(Duration at, String what, boolean failed) {}
