package io.hami.fake;

import io.hami.protocol.config.ConfigReader;
import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfigException;

/** Section {@code fake} of the device config: the fake vendor's own, read by the generic loader with no edit there. */
record FakeConfig(String resourceCountName, int tasksPerXpu) {

    static final FakeConfig DEFAULTS = new FakeConfig(FakeKeys.COUNT, FakeKeys.TASKS_PER_XPU);

    static final ConfigSection<FakeConfig> SECTION = new ConfigSection<>() {
        @Override
        public String name() {
            return "fake";
        }

        @Override
        public FakeConfig defaults() {
            return DEFAULTS;
        }

        @Override
        public FakeConfig read(ConfigReader section) throws DeviceConfigException {
            return new FakeConfig(
                    section.string("resourceCountName", DEFAULTS.resourceCountName()),
                    section.int32("tasksPerXpu", DEFAULTS.tasksPerXpu(), 1));
        }
    };
}
