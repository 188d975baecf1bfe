package io.fsindex.examples;

import static io.fsindex.examples.CliText.escaped;

import io.fsindex.api.ScanScope;
import io.fsindex.core.FsIndex;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The {@code scope} command, which shows and changes the rules stored for roots, and the rule options it shares. */
final class ScopeCommands {
    private ScopeCommands() {
    }

    /** The rule options of {@code scan} and {@code scope set}. */
    static final class RuleOptions {
        @Option(names = "--exclude", paramLabel = "PATTERN",
                description = "leave out what PATTERN matches (.gitignore syntax, relative to the root; repeatable,"
                        + " the last matching pattern wins, !PATTERN re-includes)")
        List<String> excludes = new ArrayList<>();
        @Option(names = "--ignore-case", description = "patterns ignore ASCII letter case")
        boolean ignoreCase;
        @Option(names = {"-x", "--one-file-system"}, description = "record mount points below the root but do not"
                + " list them")
        boolean oneFileSystem;
        @Option(names = "--max-depth", paramLabel = "N", description = "record N levels below the root, list no"
                + " deeper")
        Integer maxDepth;
        @Option(names = "--prune-fs", paramLabel = "TYPE", split = ",",
                description = "filesystem types whose mount points are recorded but not listed (default: kernel"
                        + " filesystems such as proc, sysfs, devtmpfs, cgroup2; 'none' for none)")
        List<String> pruneFs;

        /** True if any rule option was given. */
        boolean given() {
            return !excludes.isEmpty() || ignoreCase || oneFileSystem || maxDepth != null || pruneFs != null;
        }

        ScanScope scope() {
            ScanScope s = ScanScope.defaults().withExcludes(excludes).withIgnoreCase(ignoreCase)
                    .withOneFileSystem(oneFileSystem);
            if (maxDepth != null) {
                s = s.withMaxDepth(maxDepth);
            }
            if (pruneFs != null) {
                Set<String> types = new TreeSet<>(pruneFs);
                types.remove("none");
                s = s.withPrunedFsTypes(types);
            }
            return s;
        }
    }

    @Command(name = "scope", description = "Show or change the rules stored for roots: every scan of a root or a path"
            + " below it, from any process, applies them.",
            subcommands = {ShowCommand.class, SetCommand.class, ClearCommand.class})
    static final class ScopeCommand extends FsIndexCli.IndexCommand {
        @Override
        public Integer call() {
            throw new CommandLine.ParameterException(spec.commandLine(), "say show, set or clear");
        }
    }

    @Command(name = "show", description = "Print the rules stored for each root (or only for PATH).")
    static final class ShowCommand extends FsIndexCli.IndexCommand {
        @Parameters(paramLabel = "PATH", arity = "0..1", description = "only this root")
        Path path;

        @Override
        public Integer call() {
            PrintWriter out = out();
            try (FsIndex index = open()) {
                Map<Path, ScanScope> scopes = index.scopes();
                if (path != null) {
                    Path real = real(path);
                    ScanScope s = index.scope(real).orElse(null);
                    if (s == null) {
                        err().println("fsindex: no rules stored for " + escaped(real) + "; scans of it apply those of"
                                + " a root above it, if any, else the defaults");
                        return 1;
                    }
                    scopes = Map.of(real, s);
                }
                scopes.forEach((root, s) -> print(root, s, out));
                return 0;
            }
        }
    }

    /** The path as the index keys rules: its real path where it exists. */
    static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (java.io.IOException missing) {
            return path.toAbsolutePath().normalize();
        }
    }

    static void print(Path root, ScanScope s, PrintWriter out) {
        out.println(escaped(root) + ":");
        for (String p : s.excludes()) {
            out.println("  exclude " + escaped(p));
        }
        out.println("  ignore-case " + s.ignoreCase());
        out.println("  one-file-system " + s.oneFileSystem());
        out.println("  max-depth " + (s.maxDepth() == ScanScope.UNLIMITED ? "unlimited" : s.maxDepth()));
        out.println("  prune-fs " + (s.prunedFsTypes().isEmpty() ? "none" : String.join(",", s.prunedFsTypes())));
    }

    @Command(name = "set", description = "Store the rules for PATH, replacing what was stored; the next scan of it"
            + " removes what they now exclude and adds what they now include.")
    static final class SetCommand extends FsIndexCli.IndexCommand {
        @Parameters(paramLabel = "PATH", description = "the root")
        Path path;
        @CommandLine.Mixin
        RuleOptions rules = new RuleOptions();

        @Override
        public Integer call() {
            try (FsIndex index = open()) {
                ScanScope s = rules.scope();
                index.setScope(path, s);
                print(real(path), s, out());
                return 0;
            }
        }
    }

    @Command(name = "clear", description = "Remove the rules stored for PATH; its scans then apply those of a root"
            + " above it, if any, else the defaults.")
    static final class ClearCommand extends FsIndexCli.IndexCommand {
        @Parameters(paramLabel = "PATH", description = "the root")
        Path path;

        @Override
        public Integer call() {
            try (FsIndex index = open()) {
                index.setScope(path, null);
                return 0;
            }
        }
    }
}
