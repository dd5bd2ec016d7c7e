package io.dpspectra.cli.options;

import io.dpspectra.cli.output.CliException;
import io.dpspectra.data.DataBounds;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.release.RowBound;
import picocli.CommandLine.Option;

/**
 * The per-row L2 norm bound B that every private release is calibrated to: {@code --clip-norm B} (scale
 * rows above B down onto B), {@code --clip-norm private[:Q[:F]]} (B is a differentially private
 * Q-quantile of the row norms, bought with a share F of the budget, core's adaptive quantile) or {@code --norm-bound B} (rows
 * above B are an error). Optional with a {@code --schema} whose numeric columns all have bounds: the
 * bound then follows from the schema by construction.
 */
public final class BoundOptions {
    /**
     * The share of the budget for a private bound when n is not public (add/remove neighbouring, or standard
     * input): with a public n, {@code auto} takes what the quantile needs (core's).
     */
    public static final double DEFAULT_PRIVATE_FRACTION = RowBound.DEFAULT_PRIVATE_SHARE;
    /** The quantile of {@code --clip-norm private} without Q: the median norm (core's). */
    static final double DEFAULT_PRIVATE_QUANTILE = RowBound.DEFAULT_PRIVATE_QUANTILE;

    @Option(names = "--clip-norm", paramLabel = "B|private[:Q[:F]]",
            description = "Clip every row to L2 norm <= B (rows above B are scaled down onto B). Choose B from domain "
                    + "knowledge, never from the data: a data-derived bound leaks. Or private[:Q[:F]] to estimate B as "
                    + "the Q-quantile of the row norms (default Q = " + DEFAULT_PRIVATE_QUANTILE + ", the median: half "
                    + "the rows are clipped onto B, which keeps their directions and fills the bound; private:0.95 "
                    + "clips about 5%%) by a private search over the octaves of a public geometric ladder (2^-30 to "
                    + "2^50, or the 40 octaves below a bounded --schema's bound), then over the chosen octave's 8 "
                    + "cells, spending a share F of --epsilon: a number in (0, 1), or auto (the default): what the "
                    + "search needs for n rows (from 0.05 up to 0.5, more for fewer rows), n being public under "
                    + "replace neighbouring; " + DEFAULT_PRIVATE_FRACTION + " when n is not public (add-remove, "
                    + "standard input). The spend appears in the guarantee. Optional with a --schema whose numeric "
                    + "columns all have min and max.")
    public String clipNorm;

    @Option(names = "--norm-bound", paramLabel = "B",
            description = "Require every row to have L2 norm <= B; a row above B is an error (exit 3) "
                    + "naming its line. Choose B from domain knowledge, never from the data.")
    Double normBound;

    /** A parsed --clip-norm private[:Q[:F]], or null; fraction NaN for auto. */
    public record PrivateBound(double quantile, double fraction) {
        public boolean auto() {
            return Double.isNaN(fraction);
        }
    }

    /**
     * The largest row-norm bound accepted: the noise of a release scales with B² (times the dimension, over
     * ε), which overflows a double well before B = 1e154; no real data need a larger bound (rescale them by
     * a public constant instead).
     */
    static final double MAX_BOUND = 1e100;

    /** Checks the bound is finite and positive (a usage error otherwise), before any data is read. */
    public void validate() {
        if (privateBound() == null) {
            check(clipNorm != null ? "--clip-norm" : "--norm-bound", bound());
        }
    }

    /** A bound given as {@code option}: finite, positive and at most {@link #MAX_BOUND} (a usage error otherwise). */
    public static double check(String option, double bound) {
        DpPreconditions.checkBound(option, bound);
        if (bound > MAX_BOUND) {
            throw CliException.usage(option + " " + bound + " is too large: the noise, which grows as the bound "
                    + "squared, would overflow (the largest bound accepted is " + MAX_BOUND + ")",
                    "rescale the data by a public constant (and the bound with it)");
        }
        return bound;
    }

    /** The private-bound request, or null for a given bound. */
    public PrivateBound privateBound() {
        if (clipNorm == null || !clipNorm.toLowerCase(java.util.Locale.ROOT).startsWith("private")) {
            return null;
        }
        String[] p = clipNorm.split(":");
        if (p.length > 3 || !p[0].equalsIgnoreCase("private")) {
            throw CliException.usage("--clip-norm " + clipNorm + " is not B or private[:Q[:F]]",
                    "e.g. --clip-norm 1, or --clip-norm private, or --clip-norm private:0.9:auto");
        }
        double q = p.length >= 2 ? number(p[1], clipNorm) : DEFAULT_PRIVATE_QUANTILE;
        double f = p.length == 3 && !p[2].equalsIgnoreCase("auto") ? number(p[2], clipNorm) : Double.NaN;
        if (!(q > 0 && q < 1)) {
            throw CliException.usage("--clip-norm " + clipNorm + ": the quantile Q must be in (0, 1), got " + p[1],
                    "e.g. --clip-norm private:0.5");
        }
        if (!Double.isNaN(f) && !(f > 0 && f < 1)) {
            throw CliException.usage("--clip-norm " + clipNorm + ": the budget share F must be in (0, 1) or auto, got "
                    + p[2], "e.g. --clip-norm private:0.5:auto or private:0.5:0.2");
        }
        return new PrivateBound(q, f);
    }

    public static double number(String s, String whole) {
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

    public double bound() {
        if (clipNorm != null) {
            return number(clipNorm, clipNorm);
        }
        return normBound;
    }

    String policy() {
        return clipNorm != null ? "clip" : "reject";
    }
}
