package io.dpspectra.local;

import io.dpspectra.covariance.GaussianCalibration;
import io.dpspectra.data.Clipping;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.Noise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyAccountant;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * The client side of the Local Gaussian Mechanism: one record x in, one privatised report out, the upper
 * triangle (diagonal included) of x xᵀ + Z, where x is first scaled into the L2 ball of radius B (the
 * clip norm) and Z is a symmetric matrix of independent N(0, σ²) entries on and above the diagonal.
 *
 * <p>Privacy: each report is an (ε, δ)-locally differentially private view of its record: for ANY two
 * records x, x' (the local model; the server and everyone else see only the reports) the output laws
 * satisfy P[Q(x) ∈ S] ≤ e^ε P[Q(x') ∈ S] + δ. Privacy unit: one client's record, of any norm (it is
 * clipped to B on the client, a per-record map). Sensitivity: the upper triangle of xxᵀ − x'x'ᵀ has L2
 * norm at most √2·B² (tight at x = B·e₁, x' = B·e₂); the paper calibrates to 1, which gives only about
 * (√2·ε, δ) — we use √2·B². σ comes from the analytic Gaussian calibration (default; valid for every ε)
 * or the classic rule ({@link GaussianCalibration}), and the noise from {@link GaussianNoise} (secure
 * source by default). Each client reports once; the server's work is post-processing, so no budget is
 * composed across clients. A client that reports twice spends 2ε, 2δ (basic composition).
 *
 * <p>Accounting: the spend goes through a {@link PrivacyAccountant} when the randomizer is built, before any
 * record is seen: (ε, δ) is charged once, because the budget is per record and the records one randomizer
 * reports on are distinct clients' (parallel composition: every record loses (ε, δ), not the sum over
 * records). An instance is therefore for one report per record; reporting a record again needs another
 * randomizer and another charge. {@link Builder#accountant} takes the record holder's own accountant (a
 * client's lifetime budget, or the budget of a data set whose rows are all randomised together, as
 * {@code ldp randomize --ledger} does); without one a fresh accountant of exactly (ε, δ) is used.
 *
 * <p>Reference: Wang &amp; Xu, "Principal Component Analysis in the Local Differential Privacy Model",
 * Algorithm 1 steps 1–3 (and the identical client of Algorithm 2), Theorem 2; sensitivity corrected
 * from 1 to √2 (the local model compares any two records).
 *
 * <p>Cost: O(p²) time, memory and communication per record; p(p+1)/2 Gaussian draws.
 * {@link #randomize(double[], int, double[])} draws the noise of a block of records in one bulk call
 * (the fast, parallel path of {@link GaussianNoise}); every report still gets its own independent noise.
 */
public final class LocalCovarianceRandomizer {
    private final ReportParameters parameters;
    private final GaussianNoise noise;
    private final Clipping clipping;
    private final boolean seeded;
    /** Test hook: multiplies the σ actually drawn (1 in every public configuration). */
    private final double noiseMultiplier;

    private LocalCovarianceRandomizer(Builder b) {
        this.parameters = ReportParameters.calibrated(b.dimension, b.privacy, b.clipNorm, b.calibration);
        this.noise = new GaussianNoise(b.random);
        this.clipping = Clipping.l2(b.clipNorm);
        this.seeded = b.random.isSeeded();
        this.noiseMultiplier = b.noiseMultiplier;
    }

    /**
     * A builder; {@code dimension} and {@code privacy} are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration; {@link #build()} validates every parameter. */
    public static final class Builder {
        private int dimension;
        private PrivacyParams privacy;
        private double clipNorm = 1.0;
        private GaussianCalibration calibration = GaussianCalibration.ANALYTIC;
        private RandomSource random = RandomSource.secure();
        private double noiseMultiplier = 1.0;
        private PrivacyAccountant accountant;

        private Builder() {
        }

        /**
         * The budget the reports are charged to: (ε, δ) once, at {@link #build()} (see the class comment);
         * an overspend throws {@link io.dpspectra.privacy.BudgetExceededException} and nothing is built.
         * Default: a fresh accountant holding exactly (ε, δ).
         *
         * @param accountant the budget to charge
         * @return this builder
         */
        public Builder accountant(PrivacyAccountant accountant) {
            this.accountant = Objects.requireNonNull(accountant, "accountant");
            return this;
        }

        /**
         * p, the length of a record. Required.
         *
         * @param dimension p, ≥ 1
         * @return this builder
         */
        public Builder dimension(int dimension) {
            this.dimension = dimension;
            return this;
        }

        /**
         * The local (ε, δ) of each report; δ &gt; 0. Required.
         *
         * @param privacy the local (ε, δ)
         * @return this builder
         */
        public Builder privacy(PrivacyParams privacy) {
            this.privacy = Objects.requireNonNull(privacy, "privacy");
            return this;
        }

        /**
         * B: records are scaled into the L2 ball of radius B. Default 1 (the paper's ‖x‖₂ ≤ 1).
         *
         * @param clipNorm B, &gt; 0
         * @return this builder
         */
        public Builder clipNorm(double clipNorm) {
            this.clipNorm = clipNorm;
            return this;
        }

        /**
         * Default {@link GaussianCalibration#ANALYTIC}; {@link GaussianCalibration#CLASSIC} is the
         * paper's σ = Δ√(2 ln(1.25/δ))/ε (here with Δ = √2·B²).
         *
         * @param calibration how σ is computed from (ε, δ) and B
         * @return this builder
         */
        public Builder calibration(GaussianCalibration calibration) {
            this.calibration = Objects.requireNonNull(calibration, "calibration");
            return this;
        }

        /**
         * Default {@link RandomSource#secure()}; a seeded source is for tests and experiments only.
         *
         * @param random the randomness of the noise
         * @return this builder
         */
        public Builder randomSource(RandomSource random) {
            this.random = Objects.requireNonNull(random, "randomSource");
            return this;
        }

        /**
         * Scales the σ actually drawn by {@code m} while the reports still claim the calibrated σ:
         * package-private, for the auditor's deliberately broken twin in tests only. m = 1/√2 is the
         * paper's sensitivity-1 calibration; a value below 1 makes the reports NOT (ε, δ)-LDP.
         */
        Builder noiseMultiplierForAuditTests(double m) {
            this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
            return this;
        }

        /**
         * Validates the configuration and charges (ε, δ) to the accountant.
         *
         * @return a new randomizer
         * @throws IllegalArgumentException for a missing or invalid parameter
         * @throws io.dpspectra.privacy.BudgetExceededException when the accountant cannot pay (ε, δ)
         */
        public LocalCovarianceRandomizer build() {
            if (dimension < 1) {
                throw new IllegalArgumentException("the record dimension p must be >= 1, got " + dimension);
            }
            if (privacy == null) {
                throw new IllegalArgumentException("the local privacy parameters are required: pass --epsilon and "
                        + "--delta");
            }
            DpPreconditions.checkBound("--clip-norm", clipNorm);
            LocalCovarianceRandomizer randomizer = new LocalCovarianceRandomizer(this);
            PrivacyAccountant budget = accountant != null ? accountant : PrivacyAccountant.total(privacy);
            budget.spend("local Gaussian mechanism: one report per client record (p = " + dimension + ")", privacy,
                    GaussianNoise.zcdpRho(privacy));
            return randomizer;
        }
    }

    /**
     * The public parameters every report of this randomizer carries.
     *
     * @return the report parameters, σ included
     */
    public ReportParameters parameters() {
        return parameters;
    }

    /**
     * What every report satisfies.
     *
     * @return the (ε, δ)-LDP guarantee of one report
     */
    public PrivacyGuarantee guarantee() {
        return guarantee(parameters);
    }

    /**
     * True when the noise is seeded (tests and experiments): such reports are NOT private.
     *
     * @return whether the randomness is seeded
     */
    public boolean seeded() {
        return seeded;
    }

    /**
     * The guarantee of a report made under {@code parameters}.
     *
     * @param parameters a report's public parameters
     * @return its (ε, δ)-LDP guarantee
     */
    public static PrivacyGuarantee guarantee(ReportParameters parameters) {
        return new PrivacyGuarantee("Local Gaussian Mechanism (client randomizer)", parameters.privacy(),
                Neighbouring.REPLACE_ROW,
                "one client's record, any record against any other (local model), clipped on the client to "
                        + "L2 norm <= " + parameters.clipNorm(),
                "L2 sensitivity of the upper triangle of x x^T (diagonal included) between any two records = "
                        + ReportParameters.sensitivity(parameters.clipNorm()) + " (sqrt(2)*B^2); sigma = "
                        + parameters.sigma() + " (" + parameters.calibration() + ")",
                "Wang & Xu, PCA in the Local Differential Privacy Model, Algorithm 1 and Theorem 2 "
                        + "(sensitivity sqrt(2), not the printed 1)");
    }

    /**
     * The report of one record. Not modified: record.
     *
     * @param record the client's record, length p
     * @return its report
     * @throws IllegalArgumentException if the record has the wrong length or a NaN or infinite entry
     */
    public LocalReport randomize(double[] record) {
        double[] out = new double[parameters.reportLength()];
        randomize(record, 1, out);
        return new LocalReport(parameters, out);
    }

    /**
     * The reports of {@code count} records stored row by row in {@code records} (length ≥ count·p),
     * written one after the other into {@code reports} (length ≥ count·p(p+1)/2). Each record is a separate
     * client: its report has its own noise. Not modified: records. Modified: reports.
     *
     * @param records the records, count·p values
     * @param count   the number of records
     * @param reports receives the reports, count·p(p+1)/2 values
     * @throws IllegalArgumentException if a record has a NaN or infinite entry (nothing is written then)
     */
    public void randomize(double[] records, int count, double[] reports) {
        int p = parameters.dimension();
        int m = parameters.reportLength();
        if (count < 0 || (long) count * p > records.length || (long) count * m > reports.length) {
            throw new IllegalArgumentException("need " + count + " records of length " + p + " and room for "
                    + count + " reports of length " + m + ", got arrays of length " + records.length + " and "
                    + reports.length);
        }
        double[] x = new double[p];
        for (int r = 0; r < count; r++) {
            for (int j = 0; j < p; j++) {
                if (!Double.isFinite(records[r * p + j])) {
                    throw new IllegalArgumentException("record " + (r + 1) + " has a non-finite value "
                            + records[r * p + j] + " in column " + (j + 1) + "; remove or impute it before "
                            + "randomizing (the report of a record must not depend on a failure)");
                }
            }
        }
        int values = count * m;
        Noise.Prepared drawn = noise.prepare(values, noiseMultiplier * parameters.sigma());
        double[] block = values == reports.length ? reports : new double[values];
        for (int r = 0; r < count; r++) {
            System.arraycopy(records, r * p, x, 0, p);
            clipping.clipInPlace(x);
            int at = r * m;
            for (int j = 0; j < p; j++) {
                double xj = x[j];
                for (int i = 0; i <= j; i++) {
                    block[at++] = x[i] * xj;
                }
            }
        }
        drawn.addTo(block);
        if (block != reports) {
            System.arraycopy(block, 0, reports, 0, values);
        }
    }
}
