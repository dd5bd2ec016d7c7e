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
            description = "Seed the noise (and the random start of a non-private reference algorithm) for "
                    + "reproducibility. A seeded release is NOT private against anyone who knows the seed; omit it "
                    + "for real releases (default: SecureRandom).")
    public Long seed;

    @Option(names = "--ledger", paramLabel = "FILE",
            description = "A privacy-budget ledger (made by 'dpspectra ledger init'): this release's whole --epsilon "
                    + "and --delta are checked against what remains and recorded, atomically, BEFORE the data are read; "
                    + "an overspend is refused (exit 4) with what remains. Spends compose as the ledger was made: basic, "
                    + "zCDP ('ledger init --accounting zcdp') or privacy loss distributions ('--accounting pld').")
    public Path ledger;

    /**
     * Charges {@code params} whose zCDP cost is {@code rho} (NaN: none; see
     * {@link io.dpspectra.release.NoiseKind#rho}) and whose release runs {@code profile} (see
     * {@link io.dpspectra.release.NoiseKind#profile}) to the --ledger, if one was given, before any data is read
     * (exit 4 on an overspend, with what remains; nothing is recorded then).
     */
    public void chargeLedger(String purpose, PrivacyParams params, double rho, PrivacyProfile profile) {
        chargeLedger(ledger, purpose, params, rho, profile);
    }

    /** As {@link #chargeLedger(String, PrivacyParams, double, PrivacyProfile)} for a given ledger file (no-op when null). */
    public static void chargeLedger(Path ledger, String purpose, PrivacyParams params, double rho, PrivacyProfile profile) {
        if (ledger == null) {
            return;
        }
        try {
            BudgetLedger.charge(ledger, purpose, params, rho, profile);
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

    /**
     * The randomness of a non-private reference algorithm (the random start of streaming-power and noisy-power,
     * noisy-power's perturbation): secure by default; seeded if --seed was given, so that a reference run can be
     * repeated bit for bit.
     */
    public RandomSource referenceSource() {
        return sourceWrapperForTests.apply(seed == null ? RandomSource.secure()
                : RandomSource.seededForReproducibility(seed));
    }

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
