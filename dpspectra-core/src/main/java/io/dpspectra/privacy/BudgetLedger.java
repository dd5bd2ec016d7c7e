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
 * <p>Composition: chosen when the ledger is made ({@link PrivacyAccountant.Accounting}). BASIC (the
 * default): Σε, Σδ (Dwork &amp; Roth 2014, Theorem 3.16), valid for any sequence of releases on the same rows
 * under one neighbouring relation. ZCDP: each spend records its zCDP cost ρ (ε²/2 for pure ε; for a release
 * made only of Gaussian mechanisms, {@code GaussianNoise.zcdpRho}), the spends' ρ add up, and a charge fits
 * while Σρ stays within the total's ρ (see {@link PrivacyAccountant#zcdp}); a spend without a ρ is refused.
 * PLD: each spend records the {@link PrivacyProfile} of what it runs (mechanism parameters, a few dozen bytes, from
 * which its privacy loss distribution is rebuilt exactly at every charge: in closed form for Gaussian spends, by
 * the pessimistic discretisation otherwise), and a charge fits while all spends composed are (ε, δ)-DP for the
 * total (see {@link PrivacyAccountant#pld}). Every spend records its (ε, δ), ρ and profile, so {@code ledger show}
 * can compose them every way. One mechanism does the checking: the ledger restores its spends into a
 * {@link PrivacyAccountant}.
 *
 * <p>Format (UTF-8 lines; '#' lines are comments). Version 3:
 * <pre>
 * dpspectra-ledger 3
 * total epsilon=1.0 delta=1.0E-6 accounting=pld
 * spend epsilon=0.25 delta=1.0E-8 rho=0.0012 profile=gaussian(mu=0.0489) at=2026-11-23T21:00:00Z purpose=fit ...
 * </pre>
 * {@code rho=none} marks a spend without a zCDP cost. Version 2 files (accounting basic or zcdp, no profile) and
 * version 1 files (no accounting, no rho) still load; their spends' profiles are their (ε, δ) points. A charge
 * rewrites a file as version 3.
 */
public final class BudgetLedger {
    private static final String MAGIC = "dpspectra-ledger 3";
    private static final String MAGIC_V2 = "dpspectra-ledger 2";
    private static final String MAGIC_V1 = "dpspectra-ledger 1";

    /**
     * One recorded spend.
     *
     * @param params  its (ε, δ)
     * @param rho     its zCDP cost, NaN when it has none
     * @param profile what the release ran
     * @param at      when it was charged (ISO-8601)
     * @param purpose what it was for
     */
    public record Spend(PrivacyParams params, double rho, PrivacyProfile profile, String at, String purpose) {
        /**
         * Validates the spend.
         *
         * @param params  its (ε, δ)
         * @param rho     its zCDP cost, NaN when it has none
         * @param profile what the release ran
         * @param at      when it was charged
         * @param purpose what it was for
         */
        public Spend {
            Objects.requireNonNull(params, "params");
            Objects.requireNonNull(profile, "profile");
        }

        /**
         * Whether the spend states a zCDP cost.
         *
         * @return true unless {@code rho} is NaN
         */
        public boolean hasRho() {
            return !Double.isNaN(rho);
        }
    }

    /** The ledger's content: its total, how it composes, and its spends, oldest first. */
    public record State(PrivacyParams total, PrivacyAccountant.Accounting accounting, List<Spend> spends) {
        /**
         * The basic composition of the spends (zero when none).
         *
         * @return Σε, ≥ 0
         */
        public double spentEpsilon() {
            return spends.stream().mapToDouble(s -> s.params().epsilon()).sum();
        }

        /**
         * The basic composition's δ of the spends (zero when none).
         *
         * @return Σδ, ≥ 0
         */
        public double spentDelta() {
            return spends.stream().mapToDouble(s -> s.params().delta()).sum();
        }

        /**
         * Σρ of the spends, NaN when one has no zCDP cost.
         *
         * @return Σρ, or NaN
         */
        public double spentRho() {
            return spends.stream().mapToDouble(Spend::rho).sum();
        }

        /**
         * An accountant over the total with every spend restored.
         *
         * @return a new accountant in the state the spends left it
         */
        public PrivacyAccountant accountant() {
            PrivacyAccountant a = PrivacyAccountant.of(accounting, total);
            List<PrivacyAccountant.Entry> entries = new ArrayList<>();
            for (Spend s : spends) {
                entries.add(new PrivacyAccountant.Entry(s.purpose(), s.params(), s.rho(), s.profile()));
            }
            a.restore(entries);
            return a;
        }

        /**
         * The composition of the spends' profiles, or null when nothing was spent.
         *
         * @return the composed profile, or null
         */
        public PrivacyProfile spentProfile() {
            return spends.isEmpty() ? null : PrivacyProfile.compose(spends.stream().map(Spend::profile).toList());
        }
    }

    private BudgetLedger() {
    }

    /**
     * Creates a new basic-composition ledger at {@code file}; refuses to overwrite an existing one.
     *
     * @param file  the ledger to create; must not exist
     * @param total the total budget the ledger will allow
     * @throws IllegalArgumentException when {@code file} exists
     * @throws java.io.UncheckedIOException when the file cannot be written
     */
    public static void init(Path file, PrivacyParams total) {
        init(file, total, PrivacyAccountant.Accounting.BASIC);
    }

    /**
     * Creates a new ledger at {@code file} with the total budget and its accounting; refuses to overwrite an
     * existing one. zCDP accounting needs a total δ &gt; 0.
     *
     * @param file       the ledger to create; must not exist
     * @param total      the total budget the ledger will allow
     * @param accounting how the spends compose
     * @throws IllegalArgumentException when {@code file} exists, or zCDP is asked with δ = 0
     * @throws java.io.UncheckedIOException when the file cannot be written
     */
    public static void init(Path file, PrivacyParams total, PrivacyAccountant.Accounting accounting) {
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(accounting, "accounting");
        PrivacyAccountant.of(accounting, total); // validates (zCDP needs delta > 0)
        if (Files.exists(file)) {
            throw new IllegalArgumentException("ledger " + file + " already exists; a ledger's total cannot be reset "
                    + "(that would forget what was spent); choose a new file name");
        }
        try {
            Path tmp = tempFile(file);
            Files.writeString(tmp, render(new State(total, accounting, List.of())), StandardCharsets.UTF_8);
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

    /**
     * Reads a ledger (without locking: for display).
     *
     * @param file the ledger
     * @return its total, accounting and spends
     * @throws java.io.UncheckedIOException when the file cannot be read
     * @throws IllegalArgumentException when the file is not a valid ledger (the message names the line)
     */
    public static State read(Path file) {
        try {
            return parse(file, Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read ledger " + file + ": " + e.getMessage()
                    + " (create one with 'dpspectra ledger init')", e);
        }
    }

    /**
     * {@link #charge(Path, String, PrivacyParams, double)} with ρ = ε²/2 for pure ε and none otherwise.
     *
     * @param file    the ledger
     * @param purpose what the spend is for, recorded in the ledger
     * @param params  the (ε, δ) to charge
     * @return the ledger after the charge
     * @throws BudgetExceededException when the spend would exceed the total (nothing is recorded)
     */
    public static State charge(Path file, String purpose, PrivacyParams params) {
        return charge(file, purpose, params, new PrivacyAccountant.Entry(purpose, params).rho());
    }

    /**
     * {@link #charge(Path, String, PrivacyParams, double, PrivacyProfile)} with the (ε, δ) point as profile.
     *
     * @param file    the ledger
     * @param purpose what the spend is for, recorded in the ledger
     * @param params  the (ε, δ) to charge
     * @param rho     the spend's zCDP cost, or NaN for none
     * @return the ledger after the charge
     * @throws BudgetExceededException when the spend would exceed the total (nothing is recorded)
     */
    public static State charge(Path file, String purpose, PrivacyParams params, double rho) {
        return charge(file, purpose, params, rho, PrivacyProfile.of(params));
    }

    /**
     * Charges {@code params}, whose zCDP cost is {@code rho} (NaN: none) and whose release runs {@code profile}, for
     * {@code purpose} against the ledger, atomically (see the class comment), and returns the ledger after the
     * charge.
     *
     * @param file    the ledger
     * @param purpose what the spend is for, recorded in the ledger
     * @param params  the (ε, δ) to charge
     * @param rho     the spend's zCDP cost, or NaN for none
     * @param profile what the release runs, composed by a PLD ledger
     * @return the ledger after the charge
     * @throws BudgetExceededException when the spend would exceed the total under the ledger's accounting
     *                                 (nothing is recorded)
     */
    public static synchronized State charge(Path file, String purpose, PrivacyParams params, double rho,
                                            PrivacyProfile profile) {
        return apply(file, purpose, params, rho, profile, true);
    }

    /**
     * Checks, without recording anything, that {@link #charge(Path, String, PrivacyParams, double, PrivacyProfile)}
     * would accept this spend now: for a refusal before any data are opened, when the charge itself is made later
     * (after checks that need the data's width, such as memory, so that a run refused for them is not charged).
     * The later charge checks again, atomically; another process may spend in between.
     *
     * @param file    the ledger
     * @param purpose what the spend is for
     * @param params  the (ε, δ) to charge
     * @param rho     the spend's zCDP cost, or NaN for none
     * @param profile what the release runs, composed by a PLD ledger
     * @return the ledger as it is (unchanged)
     * @throws BudgetExceededException when the spend would exceed the total under the ledger's accounting
     */
    public static synchronized State check(Path file, String purpose, PrivacyParams params, double rho,
                                           PrivacyProfile profile) {
        return apply(file, purpose, params, rho, profile, false);
    }

    private static State apply(Path file, String purpose, PrivacyParams params, double rho, PrivacyProfile profile,
                               boolean record) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(profile, "profile");
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
                accountant.chargePlan(List.of(new PrivacyAccountant.Entry(oneLine, params, rho, profile)));
            } catch (BudgetExceededException e) {
                String spent = switch (state.accounting()) {
                    case ZCDP -> "rho=" + state.spentRho() + " (zCDP)";
                    case PLD -> accountant.composedSpend() + " composed (PLD accounting, " + state.spends().size()
                            + " spends)";
                    case BASIC -> String.format(Locale.ROOT, "(ε=%s, δ=%s)", state.spentEpsilon(), state.spentDelta());
                };
                throw new BudgetExceededException("ledger " + file + " refuses " + params
                        + (state.accounting() == PrivacyAccountant.Accounting.ZCDP && !Double.isNaN(rho)
                        ? " (rho=" + rho + ")" : "")
                        + (state.accounting() == PrivacyAccountant.Accounting.PLD ? " (" + profile.describe() + ")" : "")
                        + " for " + oneLine + ": " + spent
                        + " of its total " + state.total() + " is spent, leaving " + accountant.remainingText()
                        + (state.accounting() == PrivacyAccountant.Accounting.ZCDP && Double.isNaN(rho)
                        ? "; this release has no zCDP cost (not pure epsilon, not Gaussian only): use a basic ledger"
                        : "; lower --epsilon/--delta, or start a new ledger for new data"), params, e.remaining(),
                        e.spent());
            }
            if (!record) {
                return state;
            }
            List<Spend> spends = new ArrayList<>(state.spends());
            spends.add(new Spend(params, rho, profile, Instant.now().toString(), oneLine));
            State next = new State(state.total(), state.accounting(), List.copyOf(spends));
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

    /**
     * What remains under the ledger's accounting, as text.
     *
     * @param s a ledger's state
     * @return the remaining budget in words
     */
    public static String remaining(State s) {
        return s.accountant().remainingText();
    }

    private static Path tempFile(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        return Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
    }

    static String render(State s) {
        StringBuilder sb = new StringBuilder(MAGIC).append('\n');
        sb.append("# a dpspectra privacy-budget ledger: every private command run with --ledger charges it before "
                + "reading data (" + switch (s.accounting()) {
                    case ZCDP -> "zCDP";
                    case PLD -> "privacy-loss-distribution";
                    case BASIC -> "basic";
                } + " composition). Do not edit by hand.\n");
        sb.append("total epsilon=").append(s.total().epsilon()).append(" delta=").append(s.total().delta())
                .append(" accounting=").append(s.accounting().name().toLowerCase(Locale.ROOT)).append('\n');
        for (Spend p : s.spends()) {
            sb.append("spend epsilon=").append(p.params().epsilon()).append(" delta=").append(p.params().delta())
                    .append(" rho=").append(p.hasRho() ? Double.toString(p.rho()) : "none")
                    .append(" profile=").append(p.profile().encode())
                    .append(" at=").append(p.at()).append(" purpose=").append(p.purpose()).append('\n');
        }
        return sb.toString();
    }

    static State parse(Path file, List<String> lines) {
        if (lines.isEmpty() || !lines.get(0).equals(MAGIC) && !lines.get(0).equals(MAGIC_V2)
                && !lines.get(0).equals(MAGIC_V1)) {
            throw new IllegalArgumentException(file + " is not a dpspectra ledger (its first line is not \"" + MAGIC
                    + "\", \"" + MAGIC_V2 + "\" or \"" + MAGIC_V1 + "\"); create one with 'dpspectra ledger init'");
        }
        PrivacyParams total = null;
        PrivacyAccountant.Accounting accounting = PrivacyAccountant.Accounting.BASIC;
        List<Spend> spends = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                if (line.startsWith("total ")) {
                    total = new PrivacyParams(field(line, "epsilon="), field(line, "delta="));
                    String acc = text(line, "accounting=");
                    if (acc != null) {
                        accounting = PrivacyAccountant.Accounting.valueOf(acc.toUpperCase(Locale.ROOT));
                    }
                } else if (line.startsWith("spend ")) {
                    int p = line.indexOf(" purpose=");
                    int a = line.indexOf(" at=");
                    String head = a < 0 ? (p < 0 ? line : line.substring(0, p)) : line.substring(0, a);
                    String at = a < 0 ? "" : line.substring(a + 4, p < 0 ? line.length() : p);
                    String purpose = p < 0 ? "" : line.substring(p + 9);
                    PrivacyParams params = new PrivacyParams(field(head, "epsilon="), field(head, "delta="));
                    String rho = text(head, "rho=");
                    double r = rho == null ? new PrivacyAccountant.Entry(purpose, params).rho()
                            : rho.equals("none") ? Double.NaN : Double.parseDouble(rho);
                    String profile = text(head, "profile=");
                    spends.add(new Spend(params, r, profile == null ? PrivacyProfile.of(params)
                            : PrivacyProfile.decode(profile), at, purpose));
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
        return new State(total, accounting, List.copyOf(spends));
    }

    private static double field(String line, String key) {
        String v = text(line, key);
        if (v == null) {
            throw new IllegalArgumentException("missing " + key);
        }
        return Double.parseDouble(v);
    }

    /** The value after " key" up to the next space, or null when the key is absent. */
    private static String text(String line, String key) {
        int at = line.indexOf(" " + key);
        if (at < 0) {
            return null;
        }
        int start = at + 1 + key.length();
        int end = line.indexOf(' ', start);
        return line.substring(start, end < 0 ? line.length() : end);
    }
}
