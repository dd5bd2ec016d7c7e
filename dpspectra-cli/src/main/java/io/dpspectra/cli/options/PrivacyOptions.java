package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.BudgetLedger;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.privacy.PrivacyProfile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Option;

/** The privacy budget, neighbouring relation and randomness of a release. */
public final class PrivacyOptions {
    @Option(names = "--epsilon", paramLabel = "E",
            description = "Privacy parameter epsilon (> 0, finite) spent by this release. Required for every "
                    + "private algorithm.")
    public Double epsilon;

    @Option(names = "--delta", paramLabel = "D", defaultValue = "0",
            description = "Privacy parameter delta in [0, 1). Gaussian mechanisms need delta > 0 "
                    + "(use well below 1/n, e.g. 1e-6); 0 means pure epsilon-DP. Default: ${DEFAULT-VALUE}.")
    double delta;

    @Option(names = "--neighbouring", paramLabel = "add-remove|replace",
            description = "Neighbouring relation of the guarantee: add-remove (datasets differ by adding or "
                    + "removing one row) or replace (same public n, one row replaced). "
                    + "Default: the algorithm's own (add-remove for analyze-gauss, replace for covariance).")
    public String neighbouring;

    @Option(names = "--seed", paramLabel = "S",
            description = "Seed the noise for reproducibility. A seeded release is NOT private against anyone "
                    + "who knows the seed; omit it for real releases (default: SecureRandom).")
    public Long seed;

    @Option(names = "--ledger", paramLabel = "FILE",
            description = "A privacy-budget ledger (made by 'dpspectra ledger init'): this release's whole --epsilon "
                    + "and --delta are checked against what remains before INPUT is opened (an overspend is refused, "
                    + "exit 4, with what remains) and recorded, atomically, BEFORE its first row is read; a run refused "
                    + "before that (a missing file, a d too large for memory) is not charged. Spends compose as the ledger was made: basic, "
                    + "zCDP ('ledger init --accounting zcdp') or privacy loss distributions ('--accounting pld').")
    public Path ledger;

    /**
     * Charges {@code params} whose zCDP cost is {@code rho} (NaN: none; see {@link io.dpspectra.release.NoiseKind#rho})
     * and whose release runs {@code profile} to {@code ledger} (a no-op when null); exit 4 on an overspend, with what
     * remains, and nothing recorded then.
     */
    private static void chargeLedger(Path ledger, String purpose, PrivacyParams params, double rho, PrivacyProfile profile) {
        if (ledger == null) {
            return;
        }
        ledgerCall(ledger, () -> BudgetLedger.charge(ledger, purpose, params, rho, profile));
    }

    /**
     * Checks now, before any data are opened, that the --ledger (if one was given) can pay for this release (exit 4
     * on an overspend), and returns the charge to make once the last check that needs the data's width (memory)
     * has passed, before any row is read: a run refused for such a reason is not charged.
     */
    public PendingCharge pendingCharge(String purpose, PrivacyParams params, double rho, PrivacyProfile profile) {
        return pendingCharge(ledger, purpose, params, rho, profile);
    }

    /**
     * As {@link #pendingCharge(String, PrivacyParams, double, PrivacyProfile)} for a given ledger file (none when
     * null).
     */
    public static PendingCharge pendingCharge(Path ledger, String purpose, PrivacyParams params, double rho,
                                              PrivacyProfile profile) {
        if (ledger != null) {
            ledgerCall(ledger, () -> BudgetLedger.check(ledger, purpose, params, rho, profile));
        }
        return new PendingCharge(ledger, purpose, params, rho, profile);
    }

    /** A ledger charge checked before the data were opened and made, once, before any row is read. */
    public static final class PendingCharge {
        /** No charge (a run without a private release). */
        public static final PendingCharge NONE = new PendingCharge(null, "", null, Double.NaN, null);

        private final Path ledger;
        private final String purpose;
        private final PrivacyParams params;
        private final double rho;
        private final PrivacyProfile profile;
        private boolean charged;

        private PendingCharge(Path ledger, String purpose, PrivacyParams params, double rho, PrivacyProfile profile) {
            this.ledger = ledger;
            this.purpose = purpose;
            this.params = params;
            this.rho = rho;
            this.profile = profile;
        }

        /** Makes the charge (checked again, atomically), the first time only; a no-op without a ledger. */
        public synchronized void commit() {
            if (!charged) {
                chargeLedger(ledger, purpose, params, rho, profile);
                charged = true;
            }
        }
    }

    private static void ledgerCall(Path ledger, Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--ledger " + ledger + ": " + e.getMessage(),
                    "create one with 'dpspectra ledger init --epsilon E --delta D " + ledger + "'");
        }
    }

    /** The validated (ε, δ), or a usage error naming the missing option. */
    public PrivacyParams params(String algorithm) {
        if (epsilon == null) {
            throw CliException.usage(algorithm + " is differentially private and needs --epsilon",
                    "pass a privacy budget such as --epsilon 1");
        }
        if (epsilon != null && epsilon > 0 && epsilon < MIN_EPSILON) {
            throw CliException.usage("--epsilon " + epsilon + " is too small: the noise would exceed any number",
                    "pass --epsilon of at least " + MIN_EPSILON + " (typical budgets are 0.1 to a few units)");
        }
        return PrivacyParams.of(epsilon, delta);
    }

    /** Below this the noise scales overflow (and the release would carry no information anyway). */
    static final double MIN_EPSILON = 1e-9;

    /** Checks δ &gt; 0 for a Gaussian mechanism. */
    public void requirePositiveDelta(String mechanism) {
        DpPreconditions.checkPositiveDelta(delta, mechanism);
    }

    /** The requested relation, or null for the algorithm's default. */
    public Neighbouring neighbouringOrNull() {
        if (neighbouring == null) {
            return null;
        }
        return parseNeighbouring(neighbouring);
    }

    public static Neighbouring parseNeighbouring(String value) {
        switch (value.toLowerCase(Locale.ROOT)) {
            case "add-remove":
            case "add_remove":
            case "add-remove-row":
                return Neighbouring.ADD_REMOVE_ROW;
            case "replace":
            case "replace-row":
            case "replace-one":
                return Neighbouring.REPLACE_ROW;
            default:
                throw CliException.usage("--neighbouring must be add-remove or replace, got '" + value + "'",
                        "see --help for what each relation protects");
        }
    }

    public static String cliName(Neighbouring n) {
        return switch (n) {
            case ADD_REMOVE_ROW -> "add-remove";
            case REPLACE_ROW -> "replace";
            case MATRIX_ENTRY -> "matrix-entry";
            case SPECTRAL_NORM -> "spectral-norm";
        };
    }

    /**
     * Test hook: applied to the noise source of the command (the identity in every public configuration), so
     * that a test can observe when randomness is drawn.
     */
    public java.util.function.UnaryOperator<RandomSource> sourceWrapperForTests = java.util.function.UnaryOperator.identity();

    /** The noise source: secure by default; seeded (with a warning on {@code err}) if --seed was given. */
    public RandomSource randomSource(PrintWriter err) {
        if (seed == null) {
            return sourceWrapperForTests.apply(RandomSource.secure());
        }
        err.println("dpspectra: warning: --seed " + seed + " makes the noise reproducible; the release is for "
                + "reproducibility only and is NOT private against anyone who knows the seed");
        err.flush();
        return sourceWrapperForTests.apply(RandomSource.seededForReproducibility(seed));
    }
}
