package io.dpspectra.pca;

/**
 * One PSD sample matrix A_i of papers/kdp-pca-adaptive-noise.txt ([DS]), accessed only through
 * products so that a rank-one sample x xᵀ costs O(d) and no d × d array is ever formed.
 *
 * <p>Reference: spec stochastic-and-power-methods.md §0 (sample matrices).
 */
public interface SampleMatrix {
    /**
     * The dimension d.
     *
     * @return d
     */
    int dimension();

    /**
     * out ← A w. Not modified: w. Modified: out (length d).
     *
     * @param w   a vector of length d
     * @param out receives A w
     */
    void times(double[] w, double[] out);

    /**
     * Tr(A).
     *
     * @return Tr(A), ≥ 0
     */
    double trace();

    /**
     * A rank-one sample x xᵀ over the given buffer (not copied: the caller owns it).
     *
     * @param x the row
     * @return the sample
     */
    static SampleMatrix rankOne(double[] x) {
        return new RankOne(x);
    }

    /** x xᵀ, stored as x. */
    final class RankOne implements SampleMatrix {
        private final double[] x;

        RankOne(double[] x) {
            this.x = x;
        }

        /**
         * The row x (the buffer itself).
         *
         * @return x
         */
        public double[] row() {
            return x;
        }

        @Override
        public int dimension() {
            return x.length;
        }

        @Override
        public void times(double[] w, double[] out) {
            double s = 0;
            for (int j = 0; j < x.length; j++) {
                s += x[j] * w[j];
            }
            for (int j = 0; j < x.length; j++) {
                out[j] = s * x[j];
            }
        }

        @Override
        public double trace() {
            double s = 0;
            for (double v : x) {
                s += v * v;
            }
            return s;
        }
    }
}
