package io.dpspectra.covariance;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.ClippedRows;
import io.dpspectra.data.GramPass;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.BinghamSampler;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateCovariance;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the two covariance releases that sample eigenvectors with the Bingham sampler share
 * ({@link IterativeEigenvectorSampling}, {@link KapralovTalwar}): their common options (k, randomness,
 * proposal cap, the audit tests' exponent hook), the way a release starts (the row bound, one Gram pass,
 * checks of C = XᵀX and n, a symmetric copy of C, the first diagnostics) and the proposal diagnostics
 * that end it. Each subclass draws the eigenvalues and vectors its own way in {@link #sample}.
 */
abstract sealed class SampledEigenvectorCovariance implements CovarianceEstimator
        permits IterativeEigenvectorSampling, KapralovTalwar {
    final int k;
    final RandomSource random;
    final long maxProposals;
    final double exponentMultiplier;
    private final String name;

    SampledEigenvectorCovariance(Options<?> b, String name) {
        this.k = b.k;
        this.random = b.random == null ? RandomSource.secure() : b.random;
        this.maxProposals = b.maxProposals;
        this.exponentMultiplier = b.exponentMultiplier;
        this.name = name;
    }

    /**
     * The options both builders share.
     *
     * @param <B> the concrete builder, returned by every setter
     */
    abstract static class Options<B extends Options<B>> {
        int k = -1;
        RandomSource random;
        long maxProposals = BinghamSampler.DEFAULT_MAX_PROPOSALS;
        double exponentMultiplier = 1.0;

        abstract B self();

        /**
         * The number k of eigenvectors to sample, 1 ≤ k ≤ d; default d (the full covariance).
         *
         * @param k the number of eigenvectors
         * @return this builder
         */
        public B vectors(int k) {
            this.k = DpPreconditions.checkAtLeast("vectors", k, 1);
            return self();
        }

        /**
         * Default {@link RandomSource#secure()}.
         *
         * @param random the randomness of the samples
         * @return this builder
         */
        public B randomSource(RandomSource random) {
            this.random = Objects.requireNonNull(random, "randomSource");
            return self();
        }

        /**
         * Proposal cap per sampled vector (default {@value BinghamSampler#DEFAULT_MAX_PROPOSALS}).
         *
         * @param maxProposals the cap, ≥ 1
         * @return this builder
         */
        public B maxProposals(long maxProposals) {
            if (maxProposals < 1) {
                throw new IllegalArgumentException("maxProposals must be >= 1, got " + maxProposals);
            }
            this.maxProposals = maxProposals;
            return self();
        }

        /**
         * Multiplies the sampler's exponent κ_i by {@code m}: package-private, for the auditor's broken twins
         * in tests only (the authors' public code uses 8× the paper's exponent for IT-U/AD and 32× for KT,
         * spec A-C19). A value above 1 can make the release NOT private.
         */
        B exponentMultiplierForAuditTests(double m) {
            this.exponentMultiplier = DpPreconditions.checkPositive("exponentMultiplier", m);
            return self();
        }
    }

    @Override
    public final PrivateCovariance release(RowSource rows, PrivacyParams budget) {
        Objects.requireNonNull(budget, "budget");
        double beta = SecondMomentSensitivity.rowL2Bound(rows, name);
        GramPass pass = GramPass.of(rows);
        long clipped = rows instanceof ClippedRows c ? c.clippedRows() : -1;
        return release(pass.gram(), pass.rows(), beta, budget, clipped);
    }

    /**
     * The release from C = XᵀX given directly (spec §5.1 {@code fromTrustedCovariance}). The caller
     * asserts that C is exactly XᵀX for n rows of L2 norm ≤ {@code rowL2Bound}; the guarantee holds only
     * then. Used by experiments that reuse one Gram matrix over many repetitions. Not modified: gram.
     *
     * @param gram       C = XᵀX, d × d
     * @param n          the number of rows, ≥ 1
     * @param rowL2Bound β, the L2 bound of every row
     * @param budget     the ε to spend (the sampling mechanisms are pure ε-DP)
     * @return the released eigenpairs and matrix with their guarantee
     */
    public final PrivateCovariance releaseFromTrustedGram(Matrix gram, long n, double rowL2Bound,
                                                          PrivacyParams budget) {
        return release(gram, n, rowL2Bound, budget, -1);
    }

    private PrivateCovariance release(Matrix gram, long n, double beta, PrivacyParams budget, long clippedRows) {
        Objects.requireNonNull(budget, "budget");
        DpPreconditions.checkBound("rowL2Bound", beta);
        if (!gram.isSquare()) {
            throw new IllegalArgumentException("Gram matrix must be square, got " + gram.rows() + " x " + gram.cols());
        }
        if (n < 1) {
            throw new IllegalArgumentException(name + " needs at least one row, got n = " + n);
        }
        if (!gram.isFinite()) {
            throw new IllegalArgumentException("the Gram matrix has a NaN or infinite entry; check the input rows");
        }
        int d = gram.rows();
        int kk = k < 0 ? d : DpPreconditions.checkComponents(k, d);
        Matrix c = gram.copy();
        c.symmetrizeInPlace();
        Diagnostics.Builder diag = Diagnostics.builder().put("rows", n);
        if (clippedRows >= 0) {
            diag.put("clippedRows", clippedRows);
        }
        return sample(c, n, beta, kk, budget.epsilon(), diag);
    }

    /**
     * The release from the symmetric C = XᵀX (a copy the method may modify) for k vectors and budget ε;
     * {@code diag} already holds the rows (and clipped rows).
     */
    abstract PrivateCovariance sample(Matrix c, long n, double beta, int k, double epsilon, Diagnostics.Builder diag);

    /** Appends the proposal counts and the notes every release carries about them. */
    final Diagnostics.Builder putProposals(Diagnostics.Builder diag, long[] proposals) {
        return diag.put("proposals", toList(proposals))
                .put("proposalsMedian", SampledEigenvalues.median(proposals))
                .put("proposalsMean", SampledEigenvalues.mean(proposals))
                .put("seededRandomness", random.isSeeded())
                .put("timingSideChannel", "proposal counts depend on the data (a timing side channel) and are "
                        + "not private; do not publish them with the release")
                .put("note", Diagnostics.PRIVATE_KEYS_NOTE);
    }

    static List<Double> toList(double[] v) {
        List<Double> l = new ArrayList<>(v.length);
        for (double x : v) {
            l.add(x);
        }
        return l;
    }

    static List<Long> toList(long[] v) {
        List<Long> l = new ArrayList<>(v.length);
        for (long x : v) {
            l.add(x);
        }
        return l;
    }
}
