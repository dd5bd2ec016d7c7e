package io.dpspectra.synthetic;

import io.dpspectra.data.RowCursor;
import io.dpspectra.data.RowSource;
import io.dpspectra.linalg.Matrix;
import io.dpspectra.noise.RandomSource;
import java.util.OptionalLong;

/**
 * Rows x = Σ_l a_l f_l v_l + σ z generated on the fly: v_l the orthonormal columns of V (d × k), f_l
 * i.i.d. factors (Rademacher ±1 or standard normal), z ~ N(0, I_d). Every {@link #open()} restarts the
 * same seeded stream, so each pass sees the same n rows and nothing is held in memory.
 *
 * <p>E[xxᵀ] = V diag(a²) Vᵀ + σ² I for either factor law (E f = 0, E f² = 1, factors independent of z).
 *
 * <p>Cost: O(d(k + 1)) time per row, O(dk) memory; the normals come from Marsaglia's polar method with
 * both variates of each pair used.
 */
final class LowRankPlusNoiseRows implements RowSource {

    /** The law of the factors f_l. */
    enum Factor { RADEMACHER, GAUSSIAN }

    private final int d;
    private final int k;
    private final long n;
    private final double[] basisRowMajor;
    private final double[] amplitudes;
    private final double sigma;
    private final Factor factor;
    private final long rowSeed;
    private final String name;

    LowRankPlusNoiseRows(Matrix basis, double[] amplitudes, double sigma, Factor factor, long n, long rowSeed,
            String name) {
        this.d = basis.rows();
        this.k = basis.cols();
        this.n = n;
        this.basisRowMajor = new double[d * k];
        for (int i = 0; i < d; i++) {
            for (int l = 0; l < k; l++) {
                basisRowMajor[i * k + l] = basis.get(i, l);
            }
        }
        this.amplitudes = amplitudes.clone();
        this.sigma = sigma;
        this.factor = factor;
        this.rowSeed = rowSeed;
        this.name = name;
    }

    @Override
    public int dimension() {
        return d;
    }

    @Override
    public OptionalLong knownSize() {
        return OptionalLong.of(n);
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public RowCursor open() {
        return new Cursor(RandomSource.seededForReproducibility(rowSeed));
    }

    private final class Cursor implements RowCursor {
        private final RandomSource random;
        private final double[] coeff = new double[k];
        private long produced;
        private boolean hasSpare;
        private double spare;

        Cursor(RandomSource random) {
            this.random = random;
        }

        @Override
        public boolean next(double[] into) {
            if (produced >= n) {
                return false;
            }
            if (into.length < d) {
                throw new IllegalArgumentException("row buffer has length " + into.length + " but rows have d = " + d);
            }
            for (int l = 0; l < k; l++) {
                double f = factor == Factor.RADEMACHER ? (random.nextBoolean() ? 1.0 : -1.0) : normal();
                coeff[l] = amplitudes[l] * f;
            }
            for (int i = 0; i < d; i++) {
                double s = 0;
                int base = i * k;
                for (int l = 0; l < k; l++) {
                    s += basisRowMajor[base + l] * coeff[l];
                }
                into[i] = s + sigma * normal();
            }
            produced++;
            return true;
        }

        /** Standard normal, polar method, both variates used (non-private use: synthetic data). */
        private double normal() {
            if (hasSpare) {
                hasSpare = false;
                return spare;
            }
            double u;
            double v;
            double s;
            do {
                u = 2 * random.nextDouble() - 1;
                v = 2 * random.nextDouble() - 1;
                s = u * u + v * v;
            } while (s >= 1 || s == 0);
            double m = Math.sqrt(-2 * Math.log(s) / s);
            spare = v * m;
            hasSpare = true;
            return u * m;
        }

        @Override
        public String position() {
            return name + " row " + produced;
        }

        @Override
        public long rowsRead() {
            return produced;
        }

        @Override
        public void close() {
        }
    }

    /** V diag(a²) Vᵀ + σ² I (d × d). */
    static Matrix secondMoment(Matrix basis, double[] amplitudes, double sigma) {
        int d = basis.rows();
        Matrix scaled = basis.copy();
        for (int l = 0; l < basis.cols(); l++) {
            for (int i = 0; i < d; i++) {
                scaled.set(i, l, scaled.get(i, l) * amplitudes[l] * amplitudes[l]);
            }
        }
        Matrix m = scaled.times(basis.transpose());
        m.symmetrizeInPlace();
        for (int i = 0; i < d; i++) {
            m.add(i, i, sigma * sigma);
        }
        return m;
    }

    static void checkDimension(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("dimension d must be >= 1, got " + d);
        }
    }

    static double[] checkLambdas(double[] lambdas, int d) {
        if (lambdas == null || lambdas.length == 0) {
            throw new IllegalArgumentException("lambdas must hold k >= 1 eigenvalues, got "
                    + (lambdas == null ? "null" : "none"));
        }
        if (lambdas.length > d) {
            throw new IllegalArgumentException("lambdas has k = " + lambdas.length + " values but d = " + d
                    + "; at most d components fit");
        }
        for (int l = 0; l < lambdas.length; l++) {
            if (!(lambdas[l] > 0) || !Double.isFinite(lambdas[l])) {
                throw new IllegalArgumentException("lambdas[" + l + "] must be > 0 and finite, got " + lambdas[l]);
            }
            if (l > 0 && lambdas[l] > lambdas[l - 1]) {
                throw new IllegalArgumentException("lambdas must be in descending order, but lambdas[" + l + "] = "
                        + lambdas[l] + " > lambdas[" + (l - 1) + "] = " + lambdas[l - 1] + "; sort them");
            }
        }
        return lambdas.clone();
    }

    static double checkNoise(String name, double sigma) {
        if (!(sigma >= 0) || !Double.isFinite(sigma)) {
            throw new IllegalArgumentException(name + " must be >= 0 and finite, got " + sigma);
        }
        return sigma;
    }

    static long checkRows(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("number of rows n must be >= 1, got " + n);
        }
        return n;
    }
}
