package io.hami.nativebind.elf;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/** A library file on disk, checked by {@link ElfReader} (symbolic links followed, as the linker does). */
public final class LibraryFiles {
    private LibraryFiles() {}

    /** The verdict on {@code file}, or empty when there is no file there (the caller reports "not found"). */
    public static Optional<ElfVerdict> inspect(Path file, ElfReader.Expected expected) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(damaged(new ElfDamage.Unreadable(reason(e))));
        }
        if (!attributes.isRegularFile()) {
            return Optional.of(damaged(new ElfDamage.NotRegularFile(
                    attributes.isDirectory()
                            ? "a directory"
                            : attributes.isOther() ? "a device, pipe or socket" : "?")));
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return Optional.of(ElfReader.inspect(ElfSource.of(channel), expected));
        } catch (IOException e) {
            return Optional.of(damaged(new ElfDamage.Unreadable(reason(e))));
        }
    }

    private static ElfVerdict damaged(ElfDamage damage) {
        return new ElfVerdict.Damaged(damage);
    }

    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
