package io.hami.monitor.priority;

import java.nio.file.Path;

/** New values of a region's scheduling-feedback fields, to be written to {@code file}. */
public record ControlWrite(Path file, int recentKernel, int utilizationSwitch) {}
