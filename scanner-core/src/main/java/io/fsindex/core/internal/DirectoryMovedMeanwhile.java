package io.fsindex.core.internal;

import java.sql.SQLException;

/**
 * Another scan moved a directory after this scan listed what it is writing: the paths the transaction was about to
 * record its changes at may be the old ones. The transaction is undone and retried, and the retry records its
 * changes at the paths the index has then.
 */
public final class DirectoryMovedMeanwhile extends SQLException {
    private static final long serialVersionUID = 1L;

    public DirectoryMovedMeanwhile() {
        super("another scan moved a directory while this one wrote below it; the transaction is retried");
    }
}
