package io.dpspectra.pca;

import io.dpspectra.data.GramPass;
import io.dpspectra.data.InMemoryRows;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import io.dpspectra.noise.RandomSubspace;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The k &gt; 1 sample model of [DS] App. G.1: A_i = V Λ Vᵀ + z_i z_iᵀ with V a random d × k orthonormal
 * basis shared by all samples (Gram–Schmidt of a Gaussian matrix), Λ = diag(λ) and z_i ~ N(0, σ²I), so
 * Σ = E[A_i] = VΛVᵀ + σ²I. Unlike rows x xᵀ, the fluctuation A_i − Σ = z_iz_iᵀ − σ²I scales with σ², which
 * is what the paper's σ claims (Figs. 1b, 2b) are about. Samples are products only (O(dk) per product,
 * never a d × d matrix) and are regenerated on every pass from the seed (deterministic, O(dk) memory).
 *
 * <p>Not a mechanism: synthetic data for experiments and tests (seeded randomness).
 *
 * <p>Reference: papers/kdp-pca-adaptive-noise.txt App. G.1; spec stochastic-and-power-methods.md §0
 * ("LowRankPlusRankOneSample") and §5.2.
 */
public final class LowRankPlusRankOneSamples implements AiSource {
    private final Matrix basis;
    private final double[] lambdas;
    private final double sigma;
    private final long n;
    private final long seed;
    /** The noise vectors z_i held in memory by {@link #inMemory()}; null when they are regenerated on every pass. */
    private final double[][] stored;

    private LowRankPlusRankOneSamples(Matrix basis, double[] lambdas, double sigma, long n, long seed, double[][] stored) {
        this.basis = basis;
        this.lambdas = lambdas;
        this.sigma = sigma;
        this.n = n;
        this.seed = seed;
        this.stored = stored;
    }

    /**
     * The same samples (bit for bit) with the n noise vectors generated once and kept in memory (n·d doubles), so that
     * several methods fitted on one data set do not each regenerate them: an experiment-harness speed-up.
     *
     * @return the same samples, held in memory
     */
    public LowRankPlusRankOneSamples inMemory() {
        if (stored != null) {
            return this;
        }
        int d = basis.rows();
        if (n > Integer.MAX_VALUE / Math.max(1, d)) {
            throw new IllegalArgumentException("inMemory holds the n x d noise vectors; n * d is too large");
        }
        double[][] z = new double[(int) n][];
        try (Cursor c = open()) {
            for (int i = 0; i < n; i++) {
                z[i] = ((Sample) c.next()).z.clone();
            }
        }
        return new LowRankPlusRankOneSamples(basis, lambdas, sigma, n, seed, z);
    }

    /**
     * n samples in R^d with spikes λ (descending) and noise σ; basis and samples are functions of the seed.
     *
     * @param d       the dimension
     * @param lambdas the spikes λ, descending
     * @param sigma   the noise σ
     * @param n       the number of samples
     * @param seed    the seed of the basis and of every sample
     * @return the samples
     */
    public static LowRankPlusRankOneSamples of(int d, double[] lambdas, double sigma, long n, long seed) {
        Objects.requireNonNull(lambdas, "lambdas");
        if (d < lambdas.length || lambdas.length < 1 || n < 1 || !(sigma >= 0)) {
            throw new IllegalArgumentException("need 1 <= k = " + lambdas.length + " <= d = " + d + ", n >= 1 and "
                    + "sigma >= 0 (got n = " + n + ", sigma = " + sigma + ")");
        }
        Matrix v = RandomSubspace.basis(d, lambdas.length, RandomSource.seededForReproducibility(seed));
        return new LowRankPlusRankOneSamples(v, lambdas.clone(), sigma, n, seed, null);
    }

    /**
     * The true top-k eigenvectors V (a copy).
     *
     * @return a new d × k matrix
     */
    public Matrix truthBasis() {
        return basis.copy();
    }

    /**
     * The spikes λ, descending.
     *
     * @return a copy of λ
     */
    public double[] lambdas() {
        return lambdas.clone();
    }

    /**
     * The noise level σ.
     *
     * @return σ
     */
    public double sigma() {
        return sigma;
    }

    @Override
    public int dimension() {
        return basis.rows();
    }

    @Override
    public OptionalLong knownSize() {
        return OptionalLong.of(n);
    }

    /** No declared bound: ‖z_i‖ is unbounded (a clipping method must be given its own public threshold). */
    @Override
    public double traceBound() {
        return Double.NaN;
    }

    @Override
    public Cursor open() {
        Sample sample = new Sample();
        RandomSource random = stored != null ? null : RandomSource.seededForReproducibility(seed).split();
        return new Cursor() {
            long produced;

            @Override
            public SampleMatrix next() {
                if (produced >= n) {
                    return null;
                }
                if (stored != null) {
                    System.arraycopy(stored[(int) produced], 0, sample.z, 0, sample.z.length);
                } else {
                    for (int q = 0; q < sample.z.length; q++) {
                        sample.z[q] = sigma * random.standardNormal();
                    }
                }
                produced++;
                return sample;
            }

            @Override
            public void close() {
            }
        };
    }

    /** A = VΛVᵀ + z zᵀ over the cursor's buffer z; products in O(dk). */
    private final class Sample implements SampleMatrix {
        final double[] z = new double[basis.rows()];
        private final int k = lambdas.length;
        private final double[] v = rowMajor();
        private final double[] vw = new double[k];

        private double[] rowMajor() {
            int d = basis.rows();
            double[] out = new double[d * k];
            for (int q = 0; q < d; q++) {
                for (int c = 0; c < k; c++) {
                    out[q * k + c] = basis.get(q, c);
                }
            }
            return out;
        }

        @Override
        public int dimension() {
            return z.length;
        }

        @Override
        public void times(double[] w, double[] out) {
            int d = z.length;
            java.util.Arrays.fill(vw, 0);
            double zw = 0;
            for (int q = 0, off = 0; q < d; q++, off += k) {
                double wq = w[q];
                zw += z[q] * wq;
                for (int c = 0; c < k; c++) {
                    vw[c] += v[off + c] * wq;
                }
            }
            for (int c = 0; c < k; c++) {
                vw[c] *= lambdas[c];
            }
            for (int q = 0, off = 0; q < d; q++, off += k) {
                double s = zw * z[q];
                for (int c = 0; c < k; c++) {
                    s += v[off + c] * vw[c];
                }
                out[q] = s;
            }
        }

        @Override
        public double trace() {
            double t = 0;
            for (double l : lambdas) {
                t += l;
            }
            for (double x : z) {
                t += x * x;
            }
            return t;
        }
    }

    /**
     * Σ_i clip(A_i) with clip(A) = A·min(1, β²/Tr A) ([DS] App. G, DP-Gauss-1's trace clipping): the d × d sum
     * (Σ c_i)·VΛVᵀ + Σ c_i z_iz_iᵀ, formed by one blocked Gram pass over the rows √c_i z_i. Each clipped sample
     * is PSD with Tr ≤ β², so it moves the sum by at most β² in Frobenius norm, as a row of L2 norm β does.
     *
     * @param traceBound β², the bound on Tr A_i
     * @return a new d × d matrix
     */
    public Matrix clippedSum(double traceBound) {
        int d = basis.rows();
        if (n > Integer.MAX_VALUE / Math.max(1, d)) {
            throw new IllegalArgumentException("clippedSum holds the n x d noise rows in memory; n * d is too large");
        }
        double[][] rows = new double[(int) n][];
        double cSum = 0;
        try (Cursor c = open()) {
            for (int i = 0; i < n; i++) {
                SampleMatrix a = c.next();
                double tr = a.trace();
                double ci = Math.min(1, traceBound / tr);
                cSum += ci;
                double s = Math.sqrt(ci);
                double[] zi = ((Sample) a).z.clone();
                for (int q = 0; q < d; q++) {
                    zi[q] *= s;
                }
                rows[i] = zi;
            }
        }
        Matrix sum = GramPass.of(InMemoryRows.of(rows)).gram();
        int k = lambdas.length;
        for (int r = 0; r < d; r++) {
            for (int col = 0; col < d; col++) {
                double s = 0;
                for (int j = 0; j < k; j++) {
                    s += basis.get(r, j) * lambdas[j] * basis.get(col, j);
                }
                sum.set(r, col, sum.get(r, col) + cSum * s);
            }
        }
        return sum;
    }
}
