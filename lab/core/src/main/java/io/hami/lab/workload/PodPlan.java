package io.hami.lab.workload;

import io.hami.lab.scenario.Workload;
import java.time.Duration;

/**
 * One pod the workload will create.
 *
 * @param name     pod name
 * @param workload the workload it belongs to
 * @param arrival  when it is created, from the start of the run
 * @param lifetime how long it runs; null: until the end of the run
 */
public record PodPlan(String name, Workload workload, Duration arrival, Duration lifetime) {}
