package io.dpspectra.noise;

import io.dpspectra.linalg.Matrix;

/**
 * An additive noise distribution with a scale parameter (Laplace b, Gaussian σ). Implementations are
 * floating-point safe: they round the value to a power-of-two granularity and add a discrete noise
 * sample times that granularity, so the output's low-order bits do not leak the input.
 */
public interface Noise {

    /**
     * value + noise of the given scale.
     *
     * @param value the exact value
     * @param scale the noise scale (σ for Gaussian noise, b for Laplace noise), &gt; 0
     * @return the noisy value, a multiple of the granularity for the lattice noises
     */
    double addNoise(double value, double scale);

    /**
     * Adds independent noise to every entry. Modified: values.
     *
     * @param values the exact values, perturbed in place
     * @param scale  the noise scale, &gt; 0
     */
    default void addNoiseInPlace(double[] values, double scale) {
        prepare(values.length, scale).addTo(values);
    }

    /**
     * Noise of the given scale for {@code count} values, to be added later, once, by
     * {@link Prepared#addTo}: the same release as {@link #addNoiseInPlace} at that moment. The noise does
     * not depend on the values, so an implementation may draw it in the background meanwhile (the
     * lattice noises do, on the common fork-join pool, once count exceeds a chunk), which lets an
     * algorithm overlap its noise with the computation of the values it protects.
     *
     * @param count the number of values the noise is for, ≥ 0
     * @param scale the noise scale, &gt; 0
     * @return the prepared noise, to be added once with {@link Prepared#addTo}
     */
    default Prepared prepare(int count, double scale) {
        return values -> {
            LatticeNoise.checkPreparedLength(values, count);
            for (int i = 0; i < values.length; i++) {
                values[i] = addNoise(values[i], scale);
            }
        };
    }

    /**
     * Noise of one scale for a sequence of arrays that together hold {@code count} values, each value getting a
     * fresh independent sample of the same law as {@link #addNoise}: for an algorithm that releases many small
     * arrays with the same scale (one per iteration), so the noise can be drawn in bulk, ahead of use. The lattice
     * noises draw more than one chunk of values as {@link #prepare} does, in chunks from splits of their source
     * (taken in order on the calling thread as the stream advances) with their bulk samplers, the next chunk in the
     * background while the current one is used; up to one chunk, on the calling thread as each array is given.
     *
     * @param count the number of values in all the arrays the stream is for, ≥ 0
     * @param scale the noise scale, &gt; 0
     * @return the stream, used by {@link Stream#addTo} until its count is spent
     */
    default Stream stream(long count, double scale) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        long[] left = {count};
        return values -> {
            LatticeNoise.takeFromStream(left, values);
            for (int i = 0; i < values.length; i++) {
                values[i] = addNoise(values[i], scale);
            }
        };
    }

    /** Noise for a sequence of arrays; see {@link #stream}. */
    interface Stream {
        /**
         * Adds the stream's next {@code values.length} samples, one to each entry; a sample is never used twice. A
         * NaN or infinite value throws and leaves the array and the stream as they were. Modified: values.
         *
         * @param values the exact values, perturbed in place
         * @throws IllegalStateException when the stream has fewer values left than the array holds
         */
        void addTo(double[] values);
    }

    /** Noise prepared for an array of a fixed length; see {@link #prepare}. */
    interface Prepared {
        /**
         * Adds the noise to every entry (at most once). Modified: values.
         *
         * @param values exactly {@code count} values, perturbed in place
         */
        void addTo(double[] values);
    }

    /**
     * Adds a symmetric noise matrix: independent noise on each entry of the upper triangle, diagonal
     * included, mirrored to the lower triangle (so sensitivities refer to the d(d+1)/2 upper-triangle
     * entries). Modified: m (must be square; its lower triangle is overwritten by the upper).
     *
     * @param m     a square matrix, made symmetric and noisy in place
     * @param scale the noise scale of each upper-triangle entry, &gt; 0
     */
    default void addSymmetricNoiseInPlace(Matrix m, double scale) {
        if (!m.isSquare()) {
            throw new IllegalArgumentException("symmetric noise needs a square matrix, got "
                    + m.rows() + " x " + m.cols());
        }
        int d = m.rows();
        double[] upper = new double[d * (d + 1) / 2]; // column by column, so one bulk draw covers it
        for (int j = 0, at = 0; j < d; j++) {
            for (int i = 0; i <= j; i++) {
                upper[at++] = m.get(i, j);
            }
        }
        addNoiseInPlace(upper, scale);
        for (int j = 0, at = 0; j < d; j++) {
            for (int i = 0; i <= j; i++) {
                m.set(i, j, upper[at++]);
            }
        }
        m.mirrorUpperToLower();
    }
}
