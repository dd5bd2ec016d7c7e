package io.dpspectra.pca;

import io.dpspectra.linalg.MatrixTooLargeException;
import io.dpspectra.linalg.Projector;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.PrivacyParams;
import java.util.Objects;

/**
 * DP-Oja ([DS] Alg. 3) with minibatches: a private estimate of the top eigenvector of P Σ P from one
 * chunk of m samples by T = ⌊m/B⌋ Oja steps w ← P(w + η_t(ḡ_t + P z_t))/‖·‖, where ḡ_t is the mean of the
 * B clipped gradients clip_β(P A_j w) of batch t and z_t is Gaussian noise. B = 1 is Alg. 3.
 *
 * <p>Privacy (default, provable): (ε, δ)-DP in its chunk; the unit is one sample A_j (a row x_j for
 * A_j = x_j x_jᵀ), neighbouring = replace one with m and the processing order public (spec §0.1). Each
 * sample is read by exactly one step; replacing it moves the batch mean ḡ_t by at most 2β/B in L2, so
 * z_t ~ N(0, σ²I) with σ = {@link GaussianNoise#sigmaFor}(2β/B, (ε, δ)) (analytic calibration, any ε)
 * makes that step (ε, δ)-DP; earlier steps do not depend on the sample and later ones are
 * post-processing, so the whole pass is (ε, δ)-DP with no shuffling (spec §2.5 "SINGLE_STEP", §8 #17).
 * The clipping threshold β defaults to the source's declared trace bound (‖P A w‖ ≤ Tr A = ‖x‖² for
 * ‖w‖ = 1), so no gradient is clipped unless a smaller β is set.
 *
 * <p>Why B = ⌈√m⌉ is the default ({@link KDpOja}): batching leaves Oja's sampling error unchanged (every
 * sample is still used once) but divides the per-coordinate noise σ ∝ 2β/B by B while dividing the number
 * of noisy steps T = m/B only by B. With a 1/t schedule the final iterate averages the noise of the last
 * steps, so the privacy error scales like σ·√(d/T) ∝ β√d/√(mB), which falls as B grows; but T must stay
 * large for the 1/t schedule to forget the random start (its bias decays like 1/T). B = T = √m balances
 * the two; the paper's shuffling-based multiplier α = C'·ln(n/δ)/(ε√n) shrinks like 1/√n for the same
 * reason (averaging over √n-fold more samples per unit of noise).
 *
 * <p>Paper-literal mode ({@code paperLiteral}): B = 1, α = C'·ln(m/δ)/(ε√m) with C' = 1, noise std 2βα,
 * β = C·λ₁·√d·(Kγ(ln(md/ζ))^a + 1) from the public model constants. Its guarantee rests on amplification
 * by shuffling (Thm. 10 defers it to Liu et al.) that is outside this library; rows are processed in
 * stream order (i.i.d. data) without the shuffle, so the release is NOT certified and warns.
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt Alg. 3, Thm. 10, Cor. 4, App. G.1; spec
 * stochastic-and-power-methods.md §2.5, §8 #16–#18.
 *
 * <p>Cost: O(d·(i+1)) per sample (one product, one implicit projection) plus d Gaussian draws per step;
 * memory O(d·k); one pass over the chunk; no d × d matrix.
 */
public final class DpOja implements Deflation.Oracle {
    private final int batchSize;
    private final LearningRate learningRate;
    private final double clipThreshold;
    private final boolean paperLiteral;
    private final double noiseMultiplier;
    private final boolean isPrivate;
    private final double[] start;

    private DpOja(Builder b) {
        this.batchSize = b.batchSize;
        this.learningRate = b.learningRate;
        this.clipThreshold = b.clipThreshold;
        this.paperLiteral = b.paperLiteral;
        this.noiseMultiplier = b.noiseMultiplier;
        this.isPrivate = b.isPrivate;
        this.start = b.start;
    }

    /**
     * A builder; {@code clipThreshold} is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder {
        private int batchSize = 1;
        private LearningRate learningRate = LearningRate.paperOja();
        private double clipThreshold = Double.NaN;
        private boolean paperLiteral;
        private double noiseMultiplier = 1;
        private boolean isPrivate = true;
        private double[] start;

        /**
         * B ≥ 1; default 1 (Alg. 3). {@link KDpOja} defaults it to ⌈√m⌉.
         *
         * @param b B
         * @return this builder
         */
        public Builder batchSize(int b) {
            this.batchSize = DpPreconditions.checkAtLeast("batchSize", b, 1);
            return this;
        }

        /**
         * Default 1/(1 + t) (App. G.1).
         *
         * @param eta the schedule
         * @return this builder
         */
        public Builder learningRate(LearningRate eta) {
            this.learningRate = Objects.requireNonNull(eta, "learningRate");
            return this;
        }

        /**
         * The gradient clipping threshold β (public; never from the data). Required.
         *
         * @param beta β, &gt; 0
         * @return this builder
         */
        public Builder clipThreshold(double beta) {
            this.clipThreshold = DpPreconditions.checkBound("clipThreshold", beta);
            return this;
        }

        /**
         * Paper-literal noise (shuffling-based α, B must be 1); not certified, warns.
         *
         * @param on whether to use the paper-literal noise
         * @return this builder
         */
        public Builder paperLiteral(boolean on) {
            this.paperLiteral = on;
            return this;
        }

        /** Non-private Oja (no clipping, no noise): package-private, used by {@link Oja}. */
        Builder nonPrivate() {
            this.isPrivate = false;
            return this;
        }

        /** Scales σ: package-private, for the auditor's broken twin in tests only. */
        Builder noiseMultiplierForAuditTests(double m) {
            this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
            return this;
        }

        /** A fixed starting vector instead of a random one: package-private, for audit tests only. */
        Builder startVectorForAuditTests(double[] w) {
            this.start = w.clone();
            return this;
        }

        /**
         * The oracle with this configuration.
         *
         * @return a new oracle
         */
        public DpOja build() {
            if (isPrivate && Double.isNaN(clipThreshold)) {
                throw new IllegalArgumentException("clipThreshold beta was not set; pass the public bound on the "
                        + "gradient norm (e.g. the square of the rows' L2 bound)");
            }
            if (paperLiteral && batchSize != 1) {
                throw new IllegalArgumentException("paper-literal DP-Oja uses batch size 1 (Alg. 3), got " + batchSize);
            }
            return new DpOja(this);
        }
    }

    /**
     * The minibatch size B.
     *
     * @return B
     */
    public int batchSize() {
        return batchSize;
    }

    /**
     * The learning-rate schedule.
     *
     * @return the schedule
     */
    public LearningRate learningRate() {
        return learningRate;
    }

    /**
     * The per-coordinate noise standard deviation of a step over a chunk of m samples.
     *
     * @param m      the number of samples in the chunk
     * @param budget the round's (ε, δ)
     * @return σ
     */
    public double sigma(long m, PrivacyParams budget) {
        if (paperLiteral) {
            double alpha = Math.log(m / budget.delta()) / (budget.epsilon() * Math.sqrt(m));
            return noiseMultiplier * 2 * clipThreshold * alpha;
        }
        return noiseMultiplier * GaussianNoise.sigmaFor(2 * clipThreshold / batchSize, budget);
    }

    /**
     * The paper's clipping threshold β = C·λ₁·√d·(Kγ(ln(md/ζ))^a + 1) (Alg. 3; spec §2.5).
     *
     * @param c       C
     * @param lambda1 λ₁
     * @param d       the dimension
     * @param tailK   K of the tail assumption
     * @param gamma   γ
     * @param tailA   a of the tail assumption
     * @param m       the number of samples
     * @param zeta    ζ, the failure probability
     * @return β
     */
    public static double paperClipThreshold(double c, double lambda1, int d, double tailK, double gamma,
                                            double tailA, long m, double zeta) {
        return c * lambda1 * Math.sqrt(d) * (tailK * gamma * Math.pow(Math.log(m * (double) d / zeta), tailA) + 1);
    }

    /**
     * A warning for the result's diagnostics, or null.
     *
     * @return the warning, or null
     */
    public String warning() {
        return paperLiteral ? "paper-literal DP-Oja: noise multiplier C' ln(m/delta)/(eps sqrt(m)) with C' = 1 relies "
                + "on amplification by shuffling ([DS] Thm 10) that this library neither performs nor proves; this "
                + "release is NOT certified (epsilon, delta)-DP" : null;
    }

    @Override
    public double[] topDirection(Deflation.Chunk chunk, Projector p, int round, PrivacyParams budget,
                                 RandomSource random, Deflation.Log log) {
        long m = chunk.size();
        if (m < batchSize) {
            throw new IllegalArgumentException("DP-Oja needs at least batchSize = " + batchSize
                    + " samples per round, got m = " + m + "; use a smaller batch size or more rows");
        }
        long steps = m / batchSize;
        int d = p.dimension();
        double sigma = isPrivate ? sigma(m, budget) : 0;
        GaussianNoise noise = isPrivate ? new GaussianNoise(random) : null;
        double[] w = start == null ? Deflation.randomUnit(p, random) : p.apply(start);
        if (start != null) {
            Vectors.normalizeInPlace(w);
        }
        double[] g = new double[d];
        double[] mean = new double[d];
        int r = p.rank();
        double[] uRows = rowMajor(p); // U row by row, so one pass over x gives x.w, |x|^2 and U^T x
        double[] ux = new double[r];
        long clipped = 0;
        for (long t = 1; t <= steps; t++) {
            java.util.Arrays.fill(mean, 0);
            boolean projectMean = false;
            for (int j = 0; j < batchSize; j++) {
                SampleMatrix a = chunk.next();
                if (a instanceof SampleMatrix.RankOne one) {
                    // rank one: P A w = (x.w) P x, |P x|^2 = |x|^2 - |U^T x|^2; sum the unprojected (x.w) x and
                    // project the batch sum once (P is linear): O(d(r + 3)) per sample
                    double[] x = one.row();
                    double sw0 = 0;
                    double sw1 = 0;
                    double sx0 = 0;
                    double sx1 = 0;
                    int q = 0;
                    for (; q + 1 < d; q += 2) { // two accumulators each: independent chains for the JIT
                        double x0 = x[q];
                        double x1 = x[q + 1];
                        sw0 += x0 * w[q];
                        sw1 += x1 * w[q + 1];
                        sx0 += x0 * x0;
                        sx1 += x1 * x1;
                    }
                    if (q < d) {
                        sw0 += x[q] * w[q];
                        sx0 += x[q] * x[q];
                    }
                    double sw = sw0 + sw1;
                    double sx = sx0 + sx1;
                    // |P A w| = |x.w| |P x| <= |x.w| |x|: only when that bound exceeds beta is |U^T x| needed
                    double nrm = Math.abs(sw) * Math.sqrt(sx);
                    if (isPrivate && r > 0 && nrm > clipThreshold) {
                        java.util.Arrays.fill(ux, 0);
                        for (int qq = 0, off = 0; qq < d; qq++, off += r) {
                            for (int cc = 0; cc < r; cc++) {
                                ux[cc] += x[qq] * uRows[off + cc];
                            }
                        }
                        double px2 = sx;
                        for (int cc = 0; cc < r; cc++) {
                            px2 -= ux[cc] * ux[cc];
                        }
                        nrm = Math.abs(sw) * Math.sqrt(Math.max(0, px2));
                    }
                    if (!(nrm < Double.POSITIVE_INFINITY && Math.abs(sw) < Double.POSITIVE_INFINITY)) {
                        // |x|^2, x.w or their product overflowed: the general path, overflow-safe
                        a.times(w, g);
                        p.applyInPlace(g);
                        if (addClipped(g, mean)) {
                            clipped++;
                        }
                        continue;
                    }
                    double c = isPrivate && nrm > clipThreshold ? clipThreshold / nrm : 1;
                    if (c < 1) {
                        clipped++;
                    }
                    Vectors.axpy(c * sw / batchSize, x, mean);
                    projectMean = true;
                } else {
                    a.times(w, g);
                    p.applyInPlace(g);
                    if (addClipped(g, mean)) {
                        clipped++;
                    }
                }
            }
            if (projectMean) {
                p.applyInPlace(mean);
            }
            if (isPrivate) {
                // the lattice mechanism releases the (projected) mean itself, rounded to the noise granularity, and
                // P(ḡ + z) = ḡ + P z is post-processing. Adding a noise sample to the unrounded mean in floating point
                // instead would let the low-order bits of the sum reveal ḡ (Mironov 2012).
                noise.addNoiseInPlace(mean, sigma);
                p.applyInPlace(mean);
            }
            double eta = learningRate.eta(round, t);
            double[] next = w.clone();
            Vectors.axpy(eta, mean, next);
            p.applyInPlace(next);
            double nrm = Vectors.normalizeInPlace(next);
            if (!(nrm > 0) || !Double.isFinite(nrm)) {
                log.count("skippedUpdates", 1);
                continue;
            }
            w = next;
        }
        log.count("steps", steps);
        if (isPrivate) {
            log.count("clippedGradients", clipped);
            log.note("noiseSigmaPerCoordinate", sigma);
        }
        return w;
    }

    /**
     * mean ← mean + clip_β(g)/b for the projected gradient g of one sample, and true if it was clipped: the
     * overflow-safe clip ({@link Vectors#clipL2InPlace}); a g that is not finite (the sample's product
     * overflowed) counts as the fixed point 0, so every sample adds a vector of norm ≤ β/b and no sample can
     * make the step throw or turn the mean into NaN. Modified: g, mean.
     */
    private boolean addClipped(double[] g, double[] mean) {
        if (!Vectors.isFinite(g)) {
            return isPrivate; // the fixed point 0: nothing to add
        }
        if (!isPrivate) {
            Vectors.axpy(1.0 / batchSize, g, mean);
            return false;
        }
        double nrm = Vectors.norm2(g);
        boolean clip = nrm > clipThreshold;
        if (nrm < Double.POSITIVE_INFINITY) { // the bits of the plain clip for every ordinary gradient
            Vectors.axpy((clip ? clipThreshold / nrm : 1) / batchSize, g, mean);
        } else {
            Vectors.clipL2InPlace(g, 0, g.length, clipThreshold);
            Vectors.axpy(1.0 / batchSize, g, mean);
        }
        return clip;
    }

    /** The d × r basis of P, row by row. */
    private static double[] rowMajor(Projector p) {
        io.dpspectra.linalg.Matrix u = p.basis();
        int d = u.rows();
        int r = u.cols();
        double[] out = new double[MatrixTooLargeException.checkedLength("the d x k iterate", d, r)];
        for (int q = 0; q < d; q++) {
            for (int c = 0; c < r; c++) {
                out[q * r + c] = u.get(q, c);
            }
        }
        return out;
    }
}
