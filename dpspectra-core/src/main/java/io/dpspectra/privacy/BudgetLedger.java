package io.dpspectra.privacy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@link PrivacyAccountant} that outlives one process: a text file holding a total budget and every
 * spend charged against it, so that several releases from the same data, made by separate commands,
 * are jointly bounded.
 *
 * <p>{@link #charge} checks and records a spend atomically, and is meant to run BEFORE the data are
 * read: it takes an exclusive lock on a sidecar file {@code FILE.lock} (so concurrent commands are
 * serialised across processes; within one JVM the method is synchronized, since file locks are held
 * per JVM), reads the ledger, replays its entries into an accountant and charges the new spend there (an overspend throws {@link BudgetExceededException} naming what remains, and the
 * file is left unchanged), then writes the new ledger to a temporary file in the same directory and
 * renames it over the old one (so a crash leaves either the old or the new ledger, never half of one).
 * A spend is recorded even if the release later fails: the budget is spent when data are touched.
 *
 * <p>Composition: basic (Σε, Σδ; Dwork &amp; Roth 2014, Theorem 3.16), valid for any sequence of
 * releases on the same rows under one neighbouring relation. Tighter (zCDP/RDP) accounting is not
 * applied across calls.
 *
 * <p>Format (UTF-8 lines; '#' lines are comments):
 * <pre>
 * dpspectra-ledger 1
 * total epsilon=2.0 delta=1.0E-6
 * spend epsilon=0.5 delta=0.0 at=2026-11-23T21:00:00Z purpose=fit --algorithm it-u on data.csv
 * </pre>
 */
public final class BudgetLedger {
    private static final String MAGIC = "dpspectra-ledger 1";

    /** One recorded spend. */
    public record Spend(PrivacyParams params, String at, String purpose) {
    }

    /** The ledger's content: its total and its spends, oldest first. */
    public record State(PrivacyParams total, List<Spend> spends) {
        /** The basic composition of the spends (zero when none). */
        public double spentEpsilon() {
            return spends.stream().mapToDouble(s -> s.params().epsilon()).sum();
        }

        public double spentDelta() {
            return spends.stream().mapToDouble(s -> s.params().delta()).sum();
        }

        /** An accountant over the total with every spend replayed. */
        public PrivacyAccountant accountant() {
            PrivacyAccountant a = PrivacyAccountant.total(total);
            for (Spend s : spends) {
                a.spend(s.purpose(), s.params());
            }
            return a;
        }
    }

    private BudgetLedger() {
    }

    /** Creates a new ledger at {@code file} with the total budget; refuses to overwrite an existing one. */
    public static void init(Path file, PrivacyParams total) {
        Objects.requireNonNull(total, "total");
        if (Files.exists(file)) {
            throw new IllegalArgumentException("ledger " + file + " already exists; a ledger's total cannot be reset "
                    + "(that would forget what was spent); choose a new file name");
        }
        try {
            Path tmp = tempFile(file);
            Files.writeString(tmp, render(new State(total, List.of())), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException e) {
                Files.deleteIfExists(tmp);
                throw new IllegalArgumentException("ledger " + file + " already exists; choose a new file name", e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create ledger " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a ledger (without locking: for display). */
    public static State read(Path file) {
        try {
            return parse(file, Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read ledger " + file + ": " + e.getMessage()
                    + " (create one with 'dpspectra ledger init')", e);
        }
    }

    /**
     * Charges {@code params} for {@code purpose} against the ledger, atomically (see the class comment),
     * and returns the ledger after the charge.
     *
     * @throws BudgetExceededException when the spend would exceed the total (nothing is recorded)
     */
    public static synchronized State charge(Path file, String purpose, PrivacyParams params) {
        Objects.requireNonNull(params, "params");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("ledger " + file + " does not exist; create it first with "
                    + "'dpspectra ledger init --epsilon E --delta D " + file + "'");
        }
        Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = ch.lock()) {
            State state = parse(file, Files.readAllLines(file, StandardCharsets.UTF_8));
            PrivacyAccountant accountant = state.accountant();
            String oneLine = purpose.replaceAll("[\\r\\n]+", " ");
            try {
                accountant.spend(oneLine, params);
            } catch (BudgetExceededException e) {
                throw new BudgetExceededException("ledger " + file + " refuses " + params + " for " + oneLine
                        + ": " + String.format(Locale.ROOT, "(ε=%s, δ=%s)", state.spentEpsilon(), state.spentDelta())
                        + " of its total " + state.total() + " is spent, leaving " + remaining(state)
                        + "; lower --epsilon/--delta, or start a new ledger for new data", params, e.remaining(),
                        e.spent());
            }
            List<Spend> spends = new ArrayList<>(state.spends());
            spends.add(new Spend(params, Instant.now().toString(), oneLine));
            State next = new State(state.total(), List.copyOf(spends));
            Path tmp = tempFile(file);
            Files.writeString(tmp, render(next), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return next;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot update ledger " + file + ": " + e.getMessage()
                    + "; nothing was charged and no data were read", e);
        }
    }

    /** What remains, as text. */
    public static String remaining(State s) {
        double e = Math.max(0, s.total().epsilon() - s.spentEpsilon());
        double d = Math.max(0, s.total().delta() - s.spentDelta());
        return String.format(Locale.ROOT, "(ε=%s, δ=%s)", round(e), round(d));
    }

    private static double round(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.12g", v));
    }

    private static Path tempFile(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        return Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
    }

    static String render(State s) {
        StringBuilder sb = new StringBuilder(MAGIC).append('\n');
        sb.append("# a dpspectra privacy-budget ledger: every private command run with --ledger charges it before "
                + "reading data (basic composition). Do not edit by hand.\n");
        sb.append("total epsilon=").append(s.total().epsilon()).append(" delta=").append(s.total().delta()).append('\n');
        for (Spend p : s.spends()) {
            sb.append("spend epsilon=").append(p.params().epsilon()).append(" delta=").append(p.params().delta())
                    .append(" at=").append(p.at()).append(" purpose=").append(p.purpose()).append('\n');
        }
        return sb.toString();
    }

    static State parse(Path file, List<String> lines) {
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
            throw new IllegalArgumentException(file + " is not a dpspectra ledger (its first line is not \"" + MAGIC
                    + "\"); create one with 'dpspectra ledger init'");
        }
        PrivacyParams total = null;
        List<Spend> spends = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                if (line.startsWith("total ")) {
                    total = new PrivacyParams(field(line, "epsilon="), field(line, "delta="));
                } else if (line.startsWith("spend ")) {
                    int p = line.indexOf(" purpose=");
                    int a = line.indexOf(" at=");
                    String at = a < 0 ? "" : line.substring(a + 4, p < 0 ? line.length() : p);
                    spends.add(new Spend(new PrivacyParams(field(line, "epsilon="), field(line, "delta=")), at,
                            p < 0 ? "" : line.substring(p + 9)));
                } else {
                    throw new IllegalArgumentException("unknown entry");
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("ledger " + file + " line " + (i + 1) + " is damaged (" + e.getMessage()
                        + "): \"" + line + "\"; restore it from a backup", e);
            }
        }
        if (total == null) {
            throw new IllegalArgumentException("ledger " + file + " has no \"total\" line; it is damaged");
        }
        return new State(total, List.copyOf(spends));
    }

    private static double field(String line, String key) {
        int at = line.indexOf(" " + key);
        if (at < 0) {
            throw new IllegalArgumentException("missing " + key);
        }
        int start = at + 1 + key.length();
        int end = line.indexOf(' ', start);
        return Double.parseDouble(line.substring(start, end < 0 ? line.length() : end));
    }
}
