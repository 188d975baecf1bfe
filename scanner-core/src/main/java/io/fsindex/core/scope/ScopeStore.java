package io.fsindex.core.scope;

import io.fsindex.api.FsIndexException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanScope;
import io.fsindex.api.ScopeException;
import io.fsindex.api.Walker;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.TableNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Keeps the rules and devices stored per directory in the {@code <prefix>scopes} table, and plans each scan's scope
 * from them ({@link ScopePlanner}): the rules stored for a root apply to every scan of it or below it, from any
 * process. Internal to fsindex.
 */
public final class ScopeStore {
    /** What the table holds: stored rules per root, recorded device per directory. */
    private record Stored(Map<Path, ScanScope> scopes, Map<Path, Long> devices) {
    }

    private final Database db;
    private final String table;
    /** The index's own files, never scanned as content; read once, on first need. */
    private volatile Set<Path> ownFiles;

    public ScopeStore(Database db, TableNames t) {
        this.db = db;
        this.table = t.scopesName();
    }

    /**
     * Plans a scan of {@code root}: stores the rules the options bring where none govern it yet, and the root's device;
     * returns the walker that applies the rules.
     *
     * @throws ScopeException                        if the options' rules differ from the stored ones, or they exclude
     *                                               the root
     * @throws io.fsindex.api.MountChangedException if the root or a recorded directory above it changed device
     */
    public ScopedWalker prepare(Connection c, Path root, ScanOptions options, Walker walker) throws SQLException {
        Stored stored = read(c);
        ScopePlanner.Plan plan = ScopePlanner.plan(walker, root, stored.scopes(), stored.devices(), options.scope(),
                options.acceptMountChanges(), ownFiles(c));
        if (plan.storeRules() != null) {
            // Another process may store rules for the same root at the same moment: the first wins, the other fails.
            write(c, plan.root(), plan.storeRules(), true, null);
            ScanScope now = read(c).scopes().get(plan.root());
            if (!plan.storeRules().equals(now)) {
                throw new ScopeException("another process stored other rules for " + plan.root() + " meanwhile ("
                        + ScopeCodec.describe(now) + "); nothing was scanned. Scan without rules to apply them");
            }
        }
        if (plan.rootDevice() != null) {
            write(c, plan.root(), null, false, plan.rootDevice());
        }
        return plan.walker();
    }

    /** Records the mount points a completed scan found (a {@link ScopePlanner#NO_DEVICE} drops the record). */
    public void recordMounts(Connection c, Walker scanWalker) throws SQLException {
        if (scanWalker instanceof ScopedWalker scoped) {
            for (Map.Entry<Path, Long> m : scoped.foundMounts().entrySet()) {
                write(c, m.getKey(), null, false, m.getValue());
            }
        }
    }

    /** Every root with stored rules, by real path. */
    public Map<Path, ScanScope> scopes() {
        return new TreeMap<>(db.read(this::read).scopes());
    }

    /** Stores {@code rules} for {@code root} (null: removes them), replacing what was stored. */
    public void set(Path root, ScanScope rules) {
        try (Connection c = db.connect()) {
            write(c, realPath(root), rules, false, null);
        } catch (SQLException e) {
            throw new FsIndexException(db.describe(e), e);
        }
    }

    public static Path realPath(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        try {
            return abs.toRealPath();
        } catch (IOException missing) {
            return abs;
        }
    }

    private Stored read(Connection c) throws SQLException {
        Map<Path, ScanScope> scopes = new HashMap<>();
        Map<Path, Long> devices = new HashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT path, rules, device FROM " + table);
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                Path path = Path.of(rs.getString("path"));
                String rules = rs.getString("rules");
                long device = rs.getLong("device");
                if (!rs.wasNull()) {
                    devices.put(path, device);
                }
                if (rules != null) {
                    try {
                        scopes.put(path, ScopeCodec.decode(rules));
                    } catch (IllegalArgumentException e) {
                        throw new FsIndexException("cannot read the rules stored for " + path + ": "
                                + e.getMessage());
                    }
                }
            }
        }
        return new Stored(scopes, devices);
    }

    /**
     * Writes one directory's row: its rules ({@code setRules}; with {@code onlyIfNone}, only where it has none) or,
     * with a non-null {@code device}, its device ({@link ScopePlanner#NO_DEVICE}: none).
     */
    private void write(Connection c, Path path, ScanScope rules, boolean onlyIfNone, Long device)
            throws SQLException {
        boolean setRules = device == null;
        String text = rules == null ? null : ScopeCodec.encode(rules);
        Long dev = device == null || device == ScopePlanner.NO_DEVICE ? null : device;
        String hash = hash(path);
        long now = System.currentTimeMillis();
        SQLException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                db.write(c, conn -> {
                    String set = setRules ? "rules = ?" : "device = ?";
                    try (PreparedStatement u = conn.prepareStatement("UPDATE " + table + " SET " + set
                            + ", updated_at = ? WHERE path_hash = ?" + (onlyIfNone ? " AND rules IS NULL" : ""))) {
                        if (setRules) {
                            bindText(u, 1, text);
                        } else {
                            bindLong(u, 1, dev);
                        }
                        u.setLong(2, now);
                        u.setString(3, hash);
                        if (u.executeUpdate() > 0 || onlyIfNone && exists(conn, hash)) {
                            return null;
                        }
                    }
                    try (PreparedStatement i = conn.prepareStatement("INSERT INTO " + table
                            + " (path_hash, path, rules, device, updated_at) VALUES (?, ?, ?, ?, ?)")) {
                        i.setString(1, hash);
                        i.setString(2, path.toString());
                        bindText(i, 3, setRules ? text : null);
                        bindLong(i, 4, setRules ? null : dev);
                        i.setLong(5, now);
                        i.executeUpdate();
                    }
                    return null;
                });
                return;
            } catch (SQLException e) {
                if (db.isRetryable(e)) {
                    throw e;                    // retried for the whole retry timeout already
                }
                // Most likely another process inserted the same row first: the next attempt updates it.
                if (last != null) {
                    e.addSuppressed(last);
                }
                last = e;
            }
        }
        throw last;
    }

    private boolean exists(Connection c, String hash) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM " + table + " WHERE path_hash = ?")) {
            s.setString(1, hash);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void bindText(PreparedStatement s, int i, String value) throws SQLException {
        if (value == null) {
            s.setNull(i, java.sql.Types.VARCHAR);
        } else {
            s.setString(i, value);
        }
    }

    private static void bindLong(PreparedStatement s, int i, Long value) throws SQLException {
        if (value == null) {
            s.setNull(i, java.sql.Types.BIGINT);
        } else {
            s.setLong(i, value);
        }
    }

    private Set<Path> ownFiles(Connection c) throws SQLException {
        Set<Path> files = ownFiles;
        if (files == null) {
            files = db.connections().databaseFiles(c);
            ownFiles = files;
        }
        return files;
    }

    static String hash(Path path) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(path.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
