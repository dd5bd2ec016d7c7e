package io.dpspectra.robust;

import io.dpspectra.Diagnostics;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.FantopeProjection;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.linalg.SymmetricEigen;
import io.dpspectra.noise.GaussianNoise;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.pca.SubspaceEstimator;
import io.dpspectra.privacy.DpPreconditions;
import io.dpspectra.privacy.Neighbouring;
import io.dpspectra.privacy.PrivacyAccountant;
import io.dpspectra.privacy.PrivacyGuarantee;
import io.dpspectra.privacy.PrivacyParams;
import io.dpspectra.result.PrivateSubspace;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * First-order methods for the convex REAPER relaxation of GLAD (Lerman, McCoy, Tropp &amp; Zhang 2015):
 * minimise G(P) = (1/N) Σ ‖(I − P)x‖ over H_r = {P = Pᵀ : 0 ⪯ P ⪯ I, tr P = r}, by projected subgradient
 * descent (GD, SGD: P ← Π_H(P − η_k Ĝ), the Fantope projection of {@link FantopeProjection}) or mirror descent
 * with the von Neumann entropy (MD, SMD: log P ← log P − η_k Ĝ, then a Bregman projection), with Gaussian noise
 * on each subgradient: dp-GD-REAP, dp-SGD-REAP, dp-MD-REAP and dp-SMD-REAP. The output is the top-r eigenspace
 * of the average iterate P̄ = (1/T) Σ P_k. Subgradient (MYL eq. (4.1) with the 1/|X| it omits):
 * ∂G = −(1/m) Σ_{ρ &gt; τ₀} (u xᵀ + x uᵀ)/(2ρ), u = (I − P)x, ρ = ‖u‖.
 *
 * <p>Privacy (dp presets): unit one row mapped to the unit sphere, REPLACE_ROW with N public. Each row's
 * subgradient term has Frobenius norm ≤ 1 (its square is (‖x‖² + (uᵀx)²/ρ²)/2), and the symmetric noise is
 * drawn on the D(D+1)/2 upper-triangle entries, whose L2 norm is at most the Frobenius norm. Full batch: Δ = 2/N,
 * T steps composed exactly (GDP); minibatch: Poisson sampling, the T steps' privacy loss distribution for
 * replace-one (as {@link GrassmannDescent}; {@link NoiseCalibration#ZCDP} and {@link NoiseCalibration#RDP_POISSON}
 * remain available). The random start
 * A ~ N(1, 0.01)^{D×D}, P₀ = Π(AᵀA), is data-independent. {@link NoiseCalibration#PAPER_LITERAL} uses Appendix A's
 * printed variances (σ² = 32T ln²(T/δ)/(ε²N²) full batch, after Talwar et al. 2014; σ² = c(B/N)²T ln(1/δ)/(ε²N²)
 * for minibatches, not private as printed) and carries no guarantee.
 *
 * <p>Mirror step: the state is L = log P; after L ← L − η Ĝ, L = W diag(m) Wᵀ, q = exp(m − max m) (exponents
 * floored at −700), and p is the capped-entropy projection (the c with Σ min(1, c q_i) = r, p = min(1, c q);
 * default, it keeps P ⪯ I) or the trace renormalisation r q/Σq of Algorithm 2 as printed
 * ({@link MirrorProjection#TRACE_ONLY}, may leave H_r). The paper's mirror map ¼(tr P log P + log D) implies a
 * factor 4 its Algorithm 2 omits; we follow Algorithm 2.
 *
 * <p>Reference: papers/private-robust-pca-grassmannian.txt §4.3 (REAP, eq. (4.1)), Appendix A (Algorithms 1
 * and 2), Theorem 9; step size η_k = 8/√k (§5.1).
 *
 * <p>Cost: per iteration O(m D²) for the subgradient plus one D × D symmetric eigendecomposition (O(D³));
 * memory about {@value #DENSE_MATRICES} dense D × D matrices. {@link #plan} states both before any work, and
 * {@link #fit} refuses when the heap cannot hold them.
 */
public final class Reaper implements SubspaceEstimator {
    /** Dense D × D matrices alive at once (P, P̄, the step matrix, L, the eigenvectors and LAPACK's copies). */
    static final int DENSE_MATRICES = 7;
    /** Rough pure-Java speed for the time estimate of {@link #plan}, in flop/s. */
    static final double FLOPS_PER_SECOND = 1.0e9;

    /** Projected subgradient or entropic mirror descent. */
    public enum Method {
        /** Projected subgradient descent: P ← Π_H(P − η_k Ĝ) (dp-GD-REAP, dp-SGD-REAP). */
        GD,
        /** Entropic mirror descent: log P ← log P − η_k Ĝ, then a Bregman projection (dp-MD-REAP, dp-SMD-REAP). */
        MD
    }

    /** The Bregman projection of the mirror step. */
    public enum MirrorProjection {
        /** Σ min(1, c q_i) = r: stays in H_r (default). */
        CAPPED,
        /** r q/Σq as Algorithm 2 prints it (may give eigenvalues above 1). */
        TRACE_ONLY
    }

    /** Called after every iteration with k, the iterate P_k and the running average P̄ (do not modify them). */
    @FunctionalInterface
    public interface Listener {
        /**
         * Receives iteration {@code k}'s iterate and running average.
         *
         * @param k       the iteration, 1..T
         * @param iterate P_k, D × D (do not modify it)
         * @param average P̄ over iterations 1..k, D × D (do not modify it)
         */
        void afterIteration(int k, Matrix iterate, Matrix average);
    }

    /**
     * What a fit will need, stated before it starts.
     *
     * @param bytes            heap for the dense D × D matrices
     * @param secondsPerIteration a rough estimate (pure-Java flop rate {@value #FLOPS_PER_SECOND})
     * @param iterations       T
     */
    public record Plan(long bytes, double secondsPerIteration, int iterations) {
        /**
         * The estimate for all iterations.
         *
         * @return the estimated seconds for T iterations
         */
        public double seconds() {
            return secondsPerIteration * iterations;
        }

        /**
         * One line for people.
         *
         * @param d the dimension D
         * @return the heap and time estimate in one sentence
         */
        public String describe(int d) {
            return String.format(Locale.ROOT, "REAPER at D = %d needs about %.2f GB of heap (%d dense %d x %d matrices) "
                    + "and about %.3g s per iteration, %.3g s for %d iterations", d, bytes / 1e9, DENSE_MATRICES, d, d,
                    secondsPerIteration, seconds(), iterations);
        }
    }

    private final String name;
    private final Method method;
    private final Batch batch;
    private final NoiseCalibration calibration;
    private final double paperConstant;
    private final int r;
    private final int iterations;
    private final double stepSize;
    private final int batchSize;
    private final MirrorProjection projection;
    private final double tolerance;
    private final RowNorm rowNorm;
    private final RandomSource random;
    private final Listener listener;
    private final Matrix start;
    private final double noiseMultiplier;
    private final long heapLimit;

    private Reaper(Builder b) {
        this.name = b.name;
        this.method = b.method;
        this.batch = b.batch;
        this.calibration = b.calibration;
        this.paperConstant = b.paperConstant;
        this.r = b.r;
        this.iterations = b.iterations;
        this.stepSize = b.stepSize;
        this.batchSize = b.batchSize;
        this.projection = b.projection;
        this.tolerance = b.tolerance;
        this.rowNorm = b.rowNorm;
        this.random = b.random;
        this.listener = b.listener;
        this.start = b.start;
        this.noiseMultiplier = b.noiseMultiplier;
        this.heapLimit = b.heapLimit;
    }

    /**
     * dp-GD-REAP: full batch, projected subgradient, zCDP noise.
     *
     * @return a builder with dp-GD-REAP's defaults
     */
    public static Builder dpGdReap() {
        return new Builder("dp-gd-reap", Method.GD, Batch.FULL, NoiseCalibration.PLD);
    }

    /**
     * dp-SGD-REAP (Algorithm 1): Poisson minibatches, projected subgradient, Rényi-calibrated noise.
     *
     * @return a builder with dp-SGD-REAP's defaults
     */
    public static Builder dpSgdReap() {
        return new Builder("dp-sgd-reap", Method.GD, Batch.POISSON, NoiseCalibration.PLD);
    }

    /**
     * dp-MD-REAP: full batch, entropic mirror descent, zCDP noise.
     *
     * @return a builder with dp-MD-REAP's defaults
     */
    public static Builder dpMdReap() {
        return new Builder("dp-md-reap", Method.MD, Batch.FULL, NoiseCalibration.PLD);
    }

    /**
     * dp-SMD-REAP (Algorithm 2): Poisson minibatches, entropic mirror descent, Rényi-calibrated noise.
     *
     * @return a builder with dp-SMD-REAP's defaults
     */
    public static Builder dpSmdReap() {
        return new Builder("dp-smd-reap", Method.MD, Batch.POISSON, NoiseCalibration.PLD);
    }

    /** Configuration; {@link #build()} checks every option. */
    public static final class Builder extends DescentOptions<Builder> {
        private final String name;
        private final Method method;
        private MirrorProjection projection = MirrorProjection.CAPPED;
        private Listener listener;
        private Matrix start;
        private long heapLimit = -1;

        private Builder(String name, Method method, Batch batch, NoiseCalibration calibration) {
            super(8.0, batch, calibration); // η_k = 8/√k: the paper's experiments
            this.name = name;
            this.method = method;
        }

        @Override
        Builder self() {
            return this;
        }

        /**
         * The Bregman projection of the mirror step (default {@link MirrorProjection#CAPPED}).
         *
         * @param p the projection
         * @return this builder
         */
        public Builder mirrorProjection(MirrorProjection p) {
            this.projection = Objects.requireNonNull(p, "mirrorProjection");
            return this;
        }

        /**
         * A callback after every iteration (for traces in experiments; none by default).
         *
         * @param l the listener
         * @return this builder
         */
        public Builder listener(Listener l) {
            this.listener = Objects.requireNonNull(l, "listener");
            return this;
        }

        /**
         * The heap the memory check compares with (default Runtime.maxMemory()); for tests and planning.
         *
         * @param bytes the heap limit in bytes
         * @return this builder
         */
        public Builder heapLimit(long bytes) {
            this.heapLimit = bytes;
            return this;
        }

        /** A data-independent start P₀ ∈ H_r instead of the random one: package-private, for audit tests. */
        Builder startForAuditTests(Matrix p0) {
            this.start = p0.copy();
            return this;
        }

        /**
         * The estimator with this configuration.
         *
         * @return a new estimator
         * @throws IllegalArgumentException when the configuration is incomplete or unsupported (a paper-literal
         *                                  minibatch calibration without c2, a fixed σ)
         */
        public Reaper build() {
            checkShared();
            if (calibration == NoiseCalibration.PAPER_LITERAL && batch != Batch.FULL && Double.isNaN(paperConstant)) {
                throw new IllegalArgumentException("the paper gives no value for c2 in its minibatch noise variance; "
                        + "pass paperConstant(c2) explicitly");
            }
            if (calibration == NoiseCalibration.FIXED_SIGMA) {
                throw new IllegalArgumentException("REAPER supports NONE, PLD, ZCDP, RDP_POISSON or PAPER_LITERAL noise");
            }
            return new Reaper(this);
        }
    }

    /**
     * The method's name, e.g. "dp-sgd-reap".
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Memory and time for N rows in dimension D, stated before any work.
     *
     * @param n the number of rows N
     * @param d the dimension D
     * @return the heap and time needed
     */
    public Plan plan(int n, int d) {
        int t = iterations > 0 ? iterations : n;
        double m = batch == Batch.FULL ? n : Math.max(1, batchSize > 0 ? batchSize : Math.sqrt(n));
        long bytes = (long) DENSE_MATRICES * d * (long) d * Double.BYTES;
        double flops = 4.0 * m * d * (double) d + 12.0 * Math.pow(d, 3);
        return new Plan(bytes, flops / FLOPS_PER_SECOND, t);
    }

    @Override
    public PrivateSubspace fit(RowSource rows, PrivacyParams budget) {
        checkMemory(rows.knownSize().isPresent() ? (int) Math.min(Integer.MAX_VALUE, rows.knownSize().getAsLong()) : 1,
                rows.dimension());
        return fitRows(rowNorm.load(rows), budget);
    }

    /**
     * Fits in-memory rows (copied and mapped by the row policy), after checking that the heap can hold the dense D × D
     * matrices.
     *
     * @param rows   the rows (N × D), not modified
     * @param budget the budget to spend, or null for a non-private configuration
     * @return the estimated basis (the top-r eigenvectors of P̄), with its guarantee and diagnostics
     */
    public PrivateSubspace fit(double[][] rows, PrivacyParams budget) {
        if (rows.length > 0) {
            checkMemory(rows.length, rows[0].length);
        }
        return fitRows(rowNorm.apply(rows), budget);
    }

    private void checkMemory(int n, int d) {
        Plan plan = plan(n, d);
        Runtime rt = Runtime.getRuntime();
        long available = heapLimit > 0 ? heapLimit : rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (plan.bytes() > available) {
            throw new IllegalStateException(plan.describe(d) + ", but only " + String.format(Locale.ROOT, "%.2f GB",
                    available / 1e9) + " of heap is available; raise the heap (java -Xmx) or reduce the dimension, "
                    + "or use dp-sggd / dp-ggd, which never form a D x D matrix");
        }
    }

    private PrivateSubspace fitRows(double[][] x, PrivacyParams budget) {
        int n = x.length;
        int d = x[0].length;
        if (r >= d) {
            throw new IllegalArgumentException("components r = " + r + " must be smaller than the number of columns D = "
                    + d + "; choose r < D");
        }
        boolean priv = calibration.isPrivate();
        if (priv || calibration == NoiseCalibration.PAPER_LITERAL) {
            Objects.requireNonNull(budget, "budget");
            DpPreconditions.checkPositiveDelta(budget.delta(), name);
        }
        int t = iterations > 0 ? iterations : n;
        int b = batch == Batch.FULL ? n : batchSize > 0 ? batchSize
                : NoisySteps.defaultBatchSize(n, t, budget == null ? 1.0 : budget.epsilon());
        if (batch == Batch.POISSON && b > n) {
            throw new IllegalArgumentException("batch size " + b + " exceeds the number of rows N = " + n);
        }
        PrivacyAccountant accountant = null;
        if (priv) {
            accountant = PrivacyAccountant.total(budget);
            accountant.spend(t + " noisy REAPER subgradient steps", budget);
        }
        long coords = (long) d * (d + 1) / 2;
        String warning = null;
        double sigma = switch (calibration) {
            case NONE -> 0.0;
            case PLD, ZCDP, RDP_POISSON -> NoisySteps.privateSigma(calibration, n, b, t, coords, budget);
            case PAPER_LITERAL -> {
                warning = "paper-literal noise (Appendix A): carries no privacy guarantee; for reproduction only";
                double eps = budget.epsilon();
                double del = budget.delta();
                yield batch == Batch.FULL
                        ? Math.sqrt(32.0 * t * Math.pow(Math.log(t / del), 2) / (eps * eps * (double) n * n))
                        : Math.sqrt(paperConstant * Math.pow((double) b / n, 2) * t * Math.log(1 / del)
                                / (eps * eps * (double) n * n));
            }
            case FIXED_SIGMA -> throw new IllegalStateException("refused in build()");
        } * noiseMultiplier;

        GaussianNoise gaussian = sigma > 0 ? new GaussianNoise(random) : null;
        Matrix p;
        Matrix logP = null;
        if (start != null) {
            p = start.copy();
            if (method == Method.MD) {
                SymmetricEigen e = SymmetricEigen.of(p);
                logP = spectral(e.vectors(), log(e.values()));
            }
        } else {
            Matrix a = new Matrix(d, d);
            for (int i = 0; i < d * d; i++) {
                a.data()[i] = 1 + 0.1 * random.standardNormal(); // N(1, 0.01): variance 0.01
            }
            Matrix ata = a.transposeTimes(a);
            ata.symmetrizeInPlace();
            if (method == Method.GD) {
                p = FantopeProjection.of(ata, r);
            } else {
                SymmetricEigen e = SymmetricEigen.of(ata);
                double[] q = e.values().clone();
                for (int i = 0; i < q.length; i++) {
                    q[i] = Math.max(q[i], 1e-300);
                }
                double[] w = bregman(q);
                p = spectral(e.vectors(), w);
                logP = spectral(e.vectors(), log(w));
            }
        }
        Matrix average = new Matrix(d, d);
        for (int k = 1; k <= t; k++) {
            int[] idx = NoisySteps.batch(batch, n, b, random);
            Matrix g = subgradient(x, idx, p, b, tolerance);
            if (gaussian != null) {
                gaussian.addSymmetricNoiseInPlace(g, sigma);
            }
            double eta = stepSize / Math.sqrt(k);
            if (method == Method.GD) {
                Matrix y = p.minus(g.scaled(eta));
                y.symmetrizeInPlace();
                p = FantopeProjection.of(y, r);
            } else {
                Matrix l = logP.minus(g.scaled(eta));
                l.symmetrizeInPlace();
                SymmetricEigen e = SymmetricEigen.of(l);
                double[] m = e.values();
                double max = m[0];
                double[] q = new double[d];
                for (int i = 0; i < d; i++) {
                    q[i] = Math.exp(Math.max(m[i] - max, -700));
                }
                double[] w = bregman(q);
                p = spectral(e.vectors(), w);
                logP = spectral(e.vectors(), log(w));
            }
            double[] ad = average.data();
            double[] pd = p.data();
            for (int i = 0; i < ad.length; i++) {
                ad[i] += (pd[i] - ad[i]) / k;
            }
            if (listener != null) {
                listener.afterIteration(k, p, average);
            }
        }
        Matrix v = SymmetricEigen.top(average, r).vectors();
        Diagnostics.Builder diag = Diagnostics.builder().put("iterations", t).put("method", method.name())
                .put("batch", batch.name()).put("calibration", calibration.name())
                .put("firstStepSize", stepSize).put("lastIterateTrace", p.trace());
        if (batch != Batch.FULL) {
            diag.put("batchSize", b);
        }
        if (method == Method.MD) {
            diag.put("mirrorProjection", projection.name());
        }
        if (sigma > 0) {
            diag.put("sigma", sigma);
        }
        if (accountant != null) {
            diag.put("ledger", List.of(accountant.ledger().get(0).purpose() + ": " + accountant.ledger().get(0).params()));
        }
        diag.put("seededRandomness", random.isSeeded());
        if (warning != null) {
            diag.put("warning", warning);
        }
        PrivacyGuarantee guarantee = priv ? new PrivacyGuarantee(name + " from a data-independent random start", budget,
                Neighbouring.REPLACE_ROW, "one row, mapped to the unit sphere (" + rowNorm.describe() + ")",
                NoisySteps.sensitivityText(calibration, n, b, "REAPER subgradient (upper triangle, noise on the "
                        + "D(D+1)/2 upper-triangle entries)"),
                "Maunu, Yu & Lerman, Stochastic and Private Nonconvex Outlier-Robust PCA (MSML 2022): eq. (4.1), Appendix A "
                        + "(Algorithms 1-2), noise recalibrated (" + (calibration == NoiseCalibration.PLD
                        ? "privacy loss distributions" : "zCDP / Renyi DP") + ")",
                NoisySteps.stepsProfile(batch, n, b, t, coords, sigma)) : null;
        return new PrivateSubspace(name, v, null, guarantee, diag.build());
    }

    /** ∂G(P; rows[idx]) = −(1/divisor) Σ_{ρ &gt; τ₀} (u xᵀ + x uᵀ)/(2ρ), u = (I − P)x; idx null = all rows. */
    static Matrix subgradient(double[][] x, int[] idx, Matrix p, double divisor, double tolerance) {
        int d = p.rows();
        int m = idx == null ? x.length : idx.length;
        double[] pd = p.data();
        double[] acc = new double[d * d]; // A = Σ (u/ρ) xᵀ, column-major: A[i + j d] = Σ u_i x_j / ρ
        double[] u = new double[d];
        for (int t = 0; t < m; t++) {
            double[] row = x[idx == null ? t : idx[t]];
            System.arraycopy(row, 0, u, 0, d);
            for (int j = 0; j < d; j++) { // u = x − P x (P symmetric: column j of P times x_j)
                double xj = row[j];
                if (xj != 0) {
                    int off = j * d;
                    for (int i = 0; i < d; i++) {
                        u[i] -= pd[off + i] * xj;
                    }
                }
            }
            double s = 0;
            for (double v : u) {
                s += v * v;
            }
            double rho = Math.sqrt(s);
            if (rho <= tolerance) {
                continue;
            }
            double inv = 1 / rho;
            for (int j = 0; j < d; j++) {
                double xj = row[j] * inv;
                if (xj != 0) {
                    int off = j * d;
                    for (int i = 0; i < d; i++) {
                        acc[off + i] += u[i] * xj;
                    }
                }
            }
        }
        Matrix g = new Matrix(d, d);
        double[] gd = g.data();
        double scale = -1 / (2 * divisor);
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < d; i++) {
                gd[i + j * d] = scale * (acc[i + j * d] + acc[j + i * d]);
            }
        }
        return g;
    }

    /** The Bregman projection of positive weights q onto {0 ≤ p ≤ 1, Σp = r} (capped) or {Σp = r} (trace). */
    double[] bregman(double[] q) {
        return projection == MirrorProjection.CAPPED ? cappedEntropy(q, r) : traceOnly(q, r);
    }

    static double[] traceOnly(double[] q, int r) {
        double s = 0;
        for (double v : q) {
            s += v;
        }
        double[] p = new double[q.length];
        for (int i = 0; i < q.length; i++) {
            p[i] = r * q[i] / s;
        }
        return p;
    }

    /**
     * p_i = min(1, c q_i) with Σ p = r: with q sorted descending, the first j entries capped, c = (r − j)/Σ_{i≥j} q_i,
     * accepting the first j with c·q_(j) ≤ 1 (the largest uncapped entry). O(D log D).
     */
    static double[] cappedEntropy(double[] q, int r) {
        int d = q.length;
        Integer[] order = new Integer[d];
        for (int i = 0; i < d; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(q[b], q[a]));
        double[] suffix = new double[d + 1];
        for (int i = d - 1; i >= 0; i--) {
            suffix[i] = suffix[i + 1] + q[order[i]];
        }
        double c = 0;
        int capped = 0;
        for (int j = 0; j < r; j++) {
            c = (r - j) / suffix[j];
            if (c * q[order[j]] <= 1) {
                capped = j;
                break;
            }
            capped = j + 1;
        }
        if (capped == r) { // only possible when the top r are all capped
            c = 0;
        }
        double[] p = new double[d];
        for (int i = 0; i < d; i++) {
            p[order[i]] = i < capped ? 1.0 : Math.min(1.0, c * q[order[i]]);
        }
        return p;
    }

    private static double[] log(double[] w) {
        double[] out = new double[w.length];
        for (int i = 0; i < w.length; i++) {
            out[i] = Math.log(Math.max(w[i], Double.MIN_NORMAL));
        }
        return out;
    }

    /** W diag(f) Wᵀ. */
    private static Matrix spectral(Matrix w, double[] f) {
        int d = w.rows();
        Matrix scaled = w.copy();
        double[] sd = scaled.data();
        for (int j = 0; j < f.length; j++) {
            for (int i = 0; i < d; i++) {
                sd[i + j * d] *= f[j];
            }
        }
        Matrix out = scaled.times(w.transpose());
        out.symmetrizeInPlace();
        return out;
    }
}
