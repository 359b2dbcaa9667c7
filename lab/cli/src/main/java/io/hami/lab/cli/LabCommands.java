package io.hami.lab.cli;

import io.hami.cli.SubcommandProvider;
import java.util.List;

/** The lab's subcommands of {@code hami}: {@code hami lab} (with {@code apiserver}) and {@code hami plugin-training}. */
public final class LabCommands implements SubcommandProvider {
    @Override
    public List<Class<?>> commands() {
        return List.of(LabCommand.class, PluginTrainingCommand.class);
    }
}
