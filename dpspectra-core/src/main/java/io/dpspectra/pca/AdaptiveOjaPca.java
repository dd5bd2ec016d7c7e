package io.dpspectra.pca;

import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Projector;
import io.dpspectra.linalg.Vectors;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.StableHistogram;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Adaptive-noise Oja PCA: this project's provably private variant of ModifiedDP-PCA (papers/kdp-pca-adaptive-noise.txt
 * Alg. 1–2, [DS]) that keeps the paper's idea (privacy noise scaled to the stochastic spread of the gradients,
 * not to a worst-case bound) but needs no per-coordinate centre, so it releases at any n where a single
 * histogram over ⌊B/2⌋ values can (the literal {@link KDpPca}'s d PrivMean histograms need N·ε_h ≳ 1, n ≳ 5·10⁸
 * at the paper's settings). Deflation over k disjoint chunks as in Alg. 1.
 *
 * <p>Step (round i, projector P onto the complement of the earlier components, unit iterate w ∈ Im P, batch of B
 * samples, h = ⌊B/2⌋):
 * <ol>
 * <li>Orthogonal gradients g_j⊥ = (I − wwᵀ) P A_j w. Oja's update w + ηPA w = (1 + ηρ)w + η g⊥ (ρ = wᵀAw) only
 * rescales w along itself, so after normalisation it equals w + η_eff g⊥ with η_eff = η/(1 + ηρ); ρ is replaced
 * by the PUBLIC eigenvalue λ_i of the round ({@link Builder#publicEigenvalues}, App. G.1's model constants; 0 if
 * none), so nothing along w is privatised. E[g⊥] = (I − wwᵀ)PΣPw → 0 as w converges, so no centre is needed.
 * A g⊥ that overflows (an entry not a finite double) is replaced by 0, a fixed point inside every clip ball: still
 * a function of the one sample, so the proof below is unchanged, and no finite input makes a step throw.</li>
 * <li>Scale: a {@link StableHistogram} (replace-one, count sensitivity 2, the full (ε, δ)) over the first half's
 * values ‖g_j⊥‖² in geometric bins [4^q, 4^{q+1}) (zero: no bin; q = ⌊log₂ ‖g⊥‖⌋ from a power-of-two rescaling
 * when the square would overflow). Nothing released (⊥): the step is skipped.</li>
 * <li>Radius and noise: R = min(c·2^{q+1}, {@link #MAX_RADIUS}) (c = {@link Builder#radiusFactor}, default 4;
 * 2^{q+1} is the released bin's upper norm edge). The second half's g_j⊥ (j = h … 2h − 1; the last sample of an
 * odd B is unused) are clipped to ‖·‖ ≤ R (overflow-safe, {@link Vectors#clipL2InPlace}) and averaged; N(0, s²I_d) is added with s = {@link GaussianNoise#sigmaFor} of the L2
 * sensitivity 2R/h at the full (ε, δ) (analytic calibration). The noisy mean is projected onto
 * Im(P(I − wwᵀ)) and w ← P(w + η_eff ĝ)/‖·‖.</li>
 * </ol>
 *
 * <p>Privacy: (ε, δ)-DP under replace-one of one sample A_i (one row x_i for A_i = x_ix_iᵀ) with n and the
 * processing order public. Proof. Fix neighbours D, D' differing in sample j*. It belongs to exactly one batch
 * of one round (chunks and batches are disjoint, [DS] Lemma 15); everything before that batch (starting
 * vectors, earlier rounds and steps, hence P and w) has the same law under D and D'. Condition on that prefix.
 * (a) If j* is in the first half, the histogram is (ε, δ)-DP (its proof, including the tightened threshold, is
 * in {@link StableHistogram}); R is a function of its output and of public values; the second half is the same
 * under D and D', so the noisy mean given R has the same law: post-processing, (ε, δ). (b) If j* is in the
 * second half, the histogram input (the first half and w) is identical, so R has the same law; given R, the
 * clipped mean moves by at most 2R/h in L2 (one clipped vector of norm ≤ R replaced by another) and the
 * Gaussian of {@link GaussianNoise#sigmaFor} is (ε, δ)-DP for that sensitivity. Either way the batch's output
 * is (ε, δ)-close given every prefix: the histogram and the Gaussian never see the same sample, so their
 * budgets do not add (adaptive parallel composition). Later batches, later rounds and the released basis are
 * post-processing of it (they read other samples). Integrating over the prefix gives P_D(E) ≤ e^ε P_D'(E) + δ
 * for every event E of the whole run. Audited in AdaptiveOjaPcaAuditTest, with two broken twins that must be
 * caught: noise scaled down, and R taken from the second half (which makes the histogram and the Gaussian read
 * the same sample, so the step is only (2ε, 2δ)-DP). Written out in docs/privacy/adaptive-oja-pca.md.
 *
 * <p>Utility (no theorem is claimed): near convergence ‖g⊥‖ is the sample fluctuation of (A_j − Σ)w across w, so
 * R and the noise shrink with it, e.g. O(σ²√d) for [DS] App. G.1's A_i = VΛVᵀ + z_iz_iᵀ.
 *
 * <p>Cost: one pass, O(n·d·(k + r)) time for r earlier components, O(d·k) memory plus O(#bins) for the histogram
 * counts (no batch buffer: the first half is reduced to bin counts, the second half to a running sum); no d × d
 * matrix. Benchmark: docs/benchmarks/adaptive-oja.md.
 */
public final class AdaptiveOjaPca extends DeflationEstimator {
    private final int k;
    private final int batchSize;
    private final LearningRate learningRate;
    private final double radiusFactor;
    private final double[] eigenvalues;
    private final RandomSource random;
    private final double noiseMultiplier;
    private final boolean radiusFromSecondHalf;
    private final double[] start;

    private AdaptiveOjaPca(Builder b) {
        this.k = b.k;
        this.batchSize = b.batchSize;
        this.learningRate = b.learningRate;
        this.radiusFactor = b.radiusFactor;
        this.eigenvalues = b.eigenvalues.clone();
        this.random = b.random;
        this.noiseMultiplier = b.noiseMultiplier;
        this.radiusFromSecondHalf = b.radiusFromSecondHalf;
        this.start = b.start;
    }

    /**
     * A builder with the defaults its setters state.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration. */
    public static final class Builder extends StochasticOptions<Builder> {
        private int batchSize;
        private double radiusFactor = 4;
        private double[] eigenvalues = new double[0];
        private double noiseMultiplier = 1;
        private boolean radiusFromSecondHalf;
        private double[] start;

        @Override
        Builder self() {
            return this;
        }

        /**
         * B ≥ 4; 0 (default) means ⌊√n⌋ with n the total sample size (as k-DP-PCA, App. G.1).
         *
         * @param b B
         * @return this builder
         */
        public Builder batchSize(int b) {
            if (b != 0) {
                DpPreconditions.checkAtLeast("batchSize", b, 4);
            }
            this.batchSize = b;
            return this;
        }

        /**
         * c in R = c × (released bin's upper norm edge); default 4. Public, ≥ 1.
         *
         * @param c the radius factor
         * @return this builder
         */
        public Builder radiusFactor(double c) {
            if (!(c >= 1) || !Double.isFinite(c)) {
                throw new IllegalArgumentException("radius factor must be >= 1 and finite, got " + c);
            }
            this.radiusFactor = c;
            return this;
        }

        /**
         * PUBLIC eigenvalues λ_1 ≥ … used for the step scale η_eff = η/(1 + ηλ_i) of round i (the last one is
         * reused for later rounds); model constants, never estimated from the data. Default none (λ = 0).
         *
         * @param lambdas public eigenvalues, descending
         * @return this builder
         */
        public Builder publicEigenvalues(double... lambdas) {
            for (double l : lambdas) {
                if (!(l >= 0) || !Double.isFinite(l)) {
                    throw new IllegalArgumentException("public eigenvalues must be >= 0 and finite, got " + l);
                }
            }
            this.eigenvalues = lambdas.clone();
            return this;
        }

        /** Scales the Gaussian noise: package-private, for the auditor's broken twin only. */
        Builder noiseMultiplierForAuditTests(double m) {
            this.noiseMultiplier = DpPreconditions.checkPositive("noiseMultiplier", m);
            return this;
        }

        /** Broken twin: the histogram reads the second half (the same samples as the mean). Audit tests only. */
        Builder radiusFromSecondHalfForAuditTests() {
            this.radiusFromSecondHalf = true;
            return this;
        }

        /** A fixed starting vector instead of a random one: package-private, for audit tests only. */
        Builder startVectorForAuditTests(double[] w) {
            this.start = w.clone();
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         */
        public AdaptiveOjaPca build() {
            checkSubspaceOptions();
            return new AdaptiveOjaPca(this);
        }
    }

    /**
     * The batch size used for n samples.
     *
     * @param n the number of samples
     * @return B
     */
    public int batchSizeFor(long n) {
        return batchSize > 0 ? batchSize : Deflation.defaultBatchSize(n);
    }

    /**
     * The largest clip radius R: a released bin whose R = c·2^{q+1} would exceed it uses this R instead (a
     * public constant, so R stays a function of the released bin), which keeps R, the sensitivity 2R/h, σ and
     * the noisy mean finite for every bin. Only reached when gradients of norm ≳ 2^{900}/c are the mode.
     */
    static final double MAX_RADIUS = 0x1.0p900;

    /** The histogram bin ⌊log₄ v⌋ of a finite v = ‖g⊥‖², or {@link StableHistogram#NO_BIN} for v = 0. */
    static long bin(double squaredNorm) {
        if (!(squaredNorm > 0)) {
            return StableHistogram.NO_BIN;
        }
        return Math.floorDiv(Math.getExponent(squaredNorm), 2); // ⌊log₂ v⌋ halved, floored = ⌊log₄ v⌋
    }

    /**
     * The bin of a finite vector g: {@link #bin(double)} of ‖g‖² when that square is a double, else (‖g‖ ≥ 2^{512},
     * where squaring overflows) ⌊log₄ ‖g‖²⌋ = ⌊log₂ ‖g‖⌋ from g scaled by a power of two first. No finite g throws.
     */
    static long bin(double[] g) {
        double v = Vectors.dot(g, g);
        if (v < Double.POSITIVE_INFINITY) {
            return bin(v);
        }
        double largest = Vectors.normInf(g);
        int e = Math.getExponent(largest);
        double[] scaled = new double[g.length];
        for (int i = 0; i < g.length; i++) {
            scaled[i] = Math.scalb(g[i], -e); // exact up to the underflow of negligible entries
        }
        return e + Math.getExponent(Vectors.norm2(scaled)); // ‖g‖ = 2^e·‖scaled‖, ‖scaled‖ in [1, 2√d)
    }

    /** The upper norm edge 2^{q+1} of bin q (‖g⊥‖² &lt; 4^{q+1}). */
    static double upperNormEdge(long q) {
        return Math.scalb(1.0, (int) Math.max(-1100, Math.min(1100, q + 1)));
    }

    /** R for the released bin q: c·2^{q+1}, at most {@link #MAX_RADIUS}. */
    double radius(long q) {
        return Math.min(radiusFactor * upperNormEdge(q), MAX_RADIUS);
    }

    @Override
    int components() {
        return k;
    }

    @Override
    String algorithmName() {
        return "k-dp-pca-adaptive";
    }

    @Override
    PrivateSubspace fitChecked(AiSource samples, RowSource rows, PrivacyParams budget) {
        long n = Deflation.size(samples);
        int b = batchSizeFor(n);
        if (n / k < b) {
            throw new IllegalArgumentException("k-dp-pca-adaptive needs at least one batch of B = " + b + " samples "
                    + "per component: n = " + n + " rows give n/k = " + n / k + "; supply more rows or pass a smaller "
                    + "batch size (--batch-size, at least 4)");
        }
        Deflation.Result run = Deflation.run(samples, n, k, new Oracle(b), budget, random);
        PrivacyGuarantee g = new PrivacyGuarantee("k-DP-PCA-adaptive (adaptive-noise Oja + deflation)", budget,
                Neighbouring.REPLACE_ROW, "one sample A_i (one row x_i, A_i = x_i x_i^T); n and the processing order "
                + "public; no bound on the data is needed",
                "per step: stable histogram of the first half's |g_perp|^2 (count sensitivity 2, threshold "
                        + "1 + (2/eps) ln(1/(2 delta))), then Gaussian (analytic) on the mean of the second half's "
                        + "g_perp clipped to R = " + radiusFactor + " x the released bin's upper edge, L2 sensitivity "
                        + "2R/floor(B/2); disjoint halves, batches and chunks: parallel composition",
                "this project's variant of Duengler & Sanyal, An Iterative Algorithm for Differentially Private k-PCA "
                        + "with Adaptive Noise, Algorithms 1-2 (deflation, adaptive-noise Oja steps); proof in "
                        + "docs/privacy/adaptive-oja-pca.md");
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("rows", n);
        extra.put("batchSize", b);
        extra.put("stepsPerRound", (n / k) / b);
        extra.put("radiusFactor", radiusFactor);
        extra.put("publicEigenvalues", java.util.Arrays.toString(eigenvalues));
        return DeflationFits.finish("k-dp-pca-adaptive", run, rows, learningRate, g, random, List.of(), extra);
    }

    /** λ_i of round i (1-based), 0 without public eigenvalues. */
    private double eigenvalue(int round) {
        return eigenvalues.length == 0 ? 0 : eigenvalues[Math.min(round, eigenvalues.length) - 1];
    }

    /** One round: the adaptive-noise Oja pass over a chunk (see the class comment). */
    private final class Oracle implements Deflation.Oracle {
        private final int b;

        Oracle(int b) {
            this.b = b;
        }

        @Override
        public double[] topDirection(Deflation.Chunk chunk, Projector p, int round, PrivacyParams budget,
                                     RandomSource rnd, Deflation.Log log) {
            long steps = chunk.size() / b;
            int d = p.dimension();
            int h = b / 2;
            double[] w = start == null ? Deflation.randomUnit(p, rnd) : p.apply(start);
            Vectors.normalizeInPlace(w);
            double[] g = new double[d];
            double[] sum = new double[d];
            double[][] buffer = radiusFromSecondHalf ? new double[h][d] : null;
            TreeMap<Long, Long> counts = new TreeMap<>();
            StableHistogram histogram = new StableHistogram(rnd);
            GaussianNoise noise = new GaussianNoise(rnd);
            double lambda = eigenvalue(round);
            long bottoms = 0;
            double lastRadius = Double.NaN;
            double lastSigma = Double.NaN;
            for (long t = 1; t <= steps; t++) {
                counts.clear();
                java.util.Arrays.fill(sum, 0);
                for (int j = 0; j < h; j++) { // first half: bin counts only
                    perpendicularGradient(chunk.next(), w, p, g);
                    if (!radiusFromSecondHalf) {
                        tally(counts, g);
                    }
                }
                if (radiusFromSecondHalf) { // broken twin: read the second half before choosing R
                    for (int j = 0; j < h; j++) {
                        perpendicularGradient(chunk.next(), w, p, buffer[j]);
                        tally(counts, buffer[j]);
                    }
                }
                OptionalLong best = StableHistogram.argmax(histogram.release(counts, budget, Neighbouring.REPLACE_ROW));
                if (best.isEmpty()) {
                    for (int j = radiusFromSecondHalf ? h : 0; j < b - h; j++) {
                        chunk.next();
                    }
                    bottoms++;
                    continue;
                }
                double radius = radius(best.getAsLong());
                for (int j = 0; j < h; j++) { // second half: clip to R and sum
                    double[] gj = radiusFromSecondHalf ? buffer[j] : g;
                    if (!radiusFromSecondHalf) {
                        perpendicularGradient(chunk.next(), w, p, gj);
                    }
                    double nrm = Vectors.norm2(gj);
                    if (nrm < Double.POSITIVE_INFINITY) {
                        Vectors.axpy(nrm > radius ? radius / nrm / h : 1.0 / h, gj, sum);
                    } else { // ‖g‖ is beyond the doubles: the overflow-safe clip
                        Vectors.clipL2InPlace(gj, 0, d, radius);
                        Vectors.axpy(1.0 / h, gj, sum);
                    }
                }
                for (int j = 2 * h; j < b; j++) {
                    chunk.next(); // odd B: the last sample is not used
                }
                double sigma = noiseMultiplier * GaussianNoise.sigmaFor(2 * radius / h, budget, d);
                for (int c = 0; c < d; c++) {
                    sum[c] = noise.addNoise(sum[c], sigma);
                }
                p.applyInPlace(sum); // post-processing: back onto Im(P(I - w w^T))
                Vectors.axpy(-Vectors.dot(w, sum), w, sum);
                double eta = learningRate.eta(round, t);
                double etaEff = eta / (1 + eta * lambda);
                double[] next = w.clone();
                Vectors.axpy(etaEff, sum, next);
                p.applyInPlace(next);
                double nrm = Vectors.normalizeInPlace(next);
                lastRadius = radius;
                lastSigma = sigma;
                if (!(nrm > 0) || !Double.isFinite(nrm)) {
                    log.count("skippedUpdates", 1);
                    continue;
                }
                w = next;
            }
            log.count("steps", steps);
            log.count("histogramBottom", bottoms);
            log.note("round" + round + "LastRadius", lastRadius);
            log.note("round" + round + "LastNoiseSigma", lastSigma);
            return w;
        }
    }

    /**
     * out ← (I − wwᵀ) P A w for a unit w ∈ Im P; when that overflows (a sample so large that some entry of A w,
     * or of its projection, is not a finite double), out ← 0, a fixed point inside every clip ball. Either way
     * out is a function of the one sample (given w and P), so the histogram's count sensitivity and the mean's
     * L2 sensitivity 2R/h hold for every input, and no sample can make the step throw.
     */
    static void perpendicularGradient(SampleMatrix a, double[] w, Projector p, double[] out) {
        a.times(w, out);
        p.applyInPlace(out);
        Vectors.axpy(-Vectors.dot(w, out), w, out);
        if (!Vectors.isFinite(out)) {
            java.util.Arrays.fill(out, 0);
        }
    }

    private static void tally(TreeMap<Long, Long> counts, double[] g) {
        long q = bin(g);
        if (q != StableHistogram.NO_BIN) {
            counts.merge(q, 1L, Long::sum);
        }
    }
}
