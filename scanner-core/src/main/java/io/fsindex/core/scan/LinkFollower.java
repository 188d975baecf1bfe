package io.fsindex.core.scan;

import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanError;
import io.fsindex.api.WalkedEntry;
import io.fsindex.api.Walker;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Follows the symbolic links of a listing for a scan that follows links, refusing those that loop. */
final class LinkFollower {
    private final Walker walker;

    LinkFollower(Walker walker) {
        this.walker = walker;
    }

    /**
     * Replaces each link with what it points to, unless that would loop back to an ancestor. A dangling link is
     * recorded as the link; one that cannot be followed for another reason is reported and its row kept as it was.
     */
    List<WalkedEntry> follow(Path dir, List<WalkedEntry> entries, Ancestors ancestors,
                                          java.util.function.Consumer<ScanError> report) {
        List<WalkedEntry> out = new ArrayList<>(entries.size());
        for (WalkedEntry e : entries) {
            if (!e.isReadable() || e.stat().kind() != FileKind.SYMLINK) {
                out.add(e);
                continue;
            }
            Path link = dir.resolve(e.name());
            try {
                FileStat target = walker.statFollowingLinks(link);
                if (target.isDirectory() && ancestors.contains(target.fileKey())) {
                    report.accept(new ScanError(link, ScanError.Reason.SYMLINK_LOOP,
                            "link to " + e.stat().linkTarget() + " leads back to one of its own ancestors;"
                                    + " recorded as a link, not followed"));
                    out.add(e);
                } else {
                    out.add(new WalkedEntry(e.name(), new FileStat(target.kind(), target.size(), target.mtimeNanos(),
                            e.stat().linkTarget(), target.fileKey())));
                }
            } catch (NoSuchFileException dangling) {
                out.add(e);
            } catch (AccessDeniedException denied) {
                report.accept(new ScanError(link, ScanError.Reason.ACCESS_DENIED, "cannot follow link to "
                        + e.stat().linkTarget() + ": permission denied; its row was kept as it was"));
                out.add(new WalkedEntry(e.name(), null));
            } catch (FileSystemException failed) {
                if (isLinkLoop(failed)) {
                    report.accept(new ScanError(link, ScanError.Reason.SYMLINK_LOOP, "link to " + e.stat().linkTarget()
                            + " never reaches a file (" + failed.getReason() + "); recorded as a link"));
                    out.add(e);
                } else {
                    report.accept(new ScanError(link, ScanError.Reason.IO_ERROR, "cannot follow link to "
                            + e.stat().linkTarget() + " (" + failed + "); its row was kept as it was"));
                    out.add(new WalkedEntry(e.name(), null));
                }
            } catch (IOException failed) {
                report.accept(new ScanError(link, ScanError.Reason.IO_ERROR, "cannot follow link to "
                        + e.stat().linkTarget() + " (" + failed + "); its row was kept as it was"));
                out.add(new WalkedEntry(e.name(), null));
            }
        }
        return out;
    }

    /**
     * True if resolving failed with ELOOP (a chain of links that never ends, such as {@code a -> b -> a}). NIO has no
     * errno, but its ELOOP message always ends with this English phrase of its own, whatever the locale.
     */
    private static boolean isLinkLoop(FileSystemException e) {
        String reason = String.valueOf(e.getReason());
        return reason.contains("unable to access attributes of symbolic link")
                || reason.contains("Too many levels of symbolic links");
    }
}
