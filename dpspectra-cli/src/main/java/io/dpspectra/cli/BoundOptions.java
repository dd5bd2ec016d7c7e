package io.dpspectra.cli;

import io.dpspectra.data.DataBounds;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.release.RowBound;
import picocli.CommandLine.Option;

/**
 * The per-row L2 norm bound B that every private release is calibrated to: {@code --clip-norm B} (scale
 * rows above B down onto B), {@code --clip-norm private:Q[:F]} (B is a differentially private
 * Q-quantile of the row norms, bought with a share F of the budget) or {@code --norm-bound B} (rows
 * above B are an error). Optional with a {@code --schema} whose numeric columns all have bounds: the
 * bound then follows from the schema by construction.
 */
final class BoundOptions {
    /** Default share of the budget for a private bound (core's). */
    static final double DEFAULT_PRIVATE_FRACTION = RowBound.DEFAULT_PRIVATE_SHARE;

    @Option(names = "--clip-norm", paramLabel = "B|private:Q[:F]",
            description = "Clip every row to L2 norm <= B (rows above B are scaled down onto B). Choose B from domain "
                    + "knowledge, never from the data: a data-derived bound leaks. Or private:Q[:F] to estimate B as "
                    + "the Q-quantile of the row norms (e.g. private:0.95 clips about 5%% of the rows) by the "
                    + "exponential mechanism over the public geometric grid T * 1e-8 * 1.1^i up to T (T = the schema's bound by "
                    + "construction with a bounded --schema, else 1e6), spending a share F "
                    + "of --epsilon (default " + DEFAULT_PRIVATE_FRACTION + "); the spend appears in the guarantee. "
                    + "Optional with a --schema whose numeric columns all have min and max.")
    String clipNorm;

    @Option(names = "--norm-bound", paramLabel = "B",
            description = "Require every row to have L2 norm <= B; a row above B is an error (exit 3) "
                    + "naming its line. Choose B from domain knowledge, never from the data.")
    Double normBound;

    /** A parsed --clip-norm private:Q[:F], or null. */
    record PrivateBound(double quantile, double fraction) {
    }

    /**
     * The largest row-norm bound accepted: the noise of a release scales with B² (times the dimension, over
     * ε), which overflows a double well before B = 1e154; no real data need a larger bound (rescale them by
     * a public constant instead).
     */
    static final double MAX_BOUND = 1e100;

    /** Checks the bound is finite and positive (a usage error otherwise), before any data is read. */
    void validate() {
        if (privateBound() == null) {
            check(clipNorm != null ? "--clip-norm" : "--norm-bound", bound());
        }
    }

    /** A bound given as {@code option}: finite, positive and at most {@link #MAX_BOUND} (a usage error otherwise). */
    static double check(String option, double bound) {
        DpPreconditions.checkBound(option, bound);
        if (bound > MAX_BOUND) {
            throw CliException.usage(option + " " + bound + " is too large: the noise, which grows as the bound "
                    + "squared, would overflow (the largest bound accepted is " + MAX_BOUND + ")",
                    "rescale the data by a public constant (and the bound with it)");
        }
        return bound;
    }

    /** The private-bound request, or null for a given bound. */
    PrivateBound privateBound() {
        if (clipNorm == null || !clipNorm.toLowerCase(java.util.Locale.ROOT).startsWith("private")) {
            return null;
        }
        String[] p = clipNorm.split(":");
        if (p.length < 2 || p.length > 3 || !p[0].equalsIgnoreCase("private")) {
            throw CliException.usage("--clip-norm " + clipNorm + " is not B or private:Q[:F]",
                    "e.g. --clip-norm 1, or --clip-norm private:0.95, or --clip-norm private:0.95:0.1");
        }
        double q = number(p[1], clipNorm);
        double f = p.length == 3 ? number(p[2], clipNorm) : DEFAULT_PRIVATE_FRACTION;
        if (!(q > 0 && q < 1)) {
            throw CliException.usage("--clip-norm " + clipNorm + ": the quantile Q must be in (0, 1), got " + p[1],
                    "e.g. --clip-norm private:0.95");
        }
        if (!(f > 0 && f < 1)) {
            throw CliException.usage("--clip-norm " + clipNorm + ": the budget share F must be in (0, 1), got " + p[2],
                    "e.g. --clip-norm private:0.95:0.1");
        }
        return new PrivateBound(q, f);
    }

    static double number(String s, String whole) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw CliException.usage("'" + whole + "': '" + s + "' is not a number", "see --help for the form");
        }
    }

    /** The bound as the library declares it: L2, user-given, clip or reject. */
    DataBounds dataBounds() {
        return new DataBounds(DataBounds.Norm.L2, bound(), DataBounds.Origin.USER_GIVEN,
                clipNorm != null ? DataBounds.Policy.CLIP : DataBounds.Policy.REJECT);
    }

    double bound() {
        if (clipNorm != null) {
            return number(clipNorm, clipNorm);
        }
        return normBound;
    }

    String policy() {
        return clipNorm != null ? "clip" : "reject";
    }
}
