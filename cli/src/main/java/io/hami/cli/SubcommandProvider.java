package io.hami.cli;

import java.util.List;

/**
 * Subcommands of {@code hami} that are not part of the production distribution, found at run time through
 * {@link java.util.ServiceLoader}: the lab's ({@code hami lab}, the hidden {@code hami plugin-training}) come from
 * {@code lab/cli}, whose jars the {@code ./hami} launcher puts on the class path and the images do not hold. Without
 * a provider on the class path, {@code hami} simply has no such subcommand.
 */
public interface SubcommandProvider {
    /** picocli {@code @Command} classes, made by the command line's factory and listed after {@code inspect}. */
    List<Class<?>> commands();
}
