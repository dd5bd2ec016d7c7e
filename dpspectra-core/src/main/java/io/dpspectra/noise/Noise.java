package io.dpspectra.noise;

import io.dpspectra.linalg.Matrix;

/**
 * An additive noise distribution with a scale parameter (Laplace b, Gaussian σ). Implementations are
 * floating-point safe: they round the value to a power-of-two granularity and add a discrete noise
 * sample times that granularity, so the output's low-order bits do not leak the input.
 */
public interface Noise {

    /** value + noise of the given scale. */
    double addNoise(double value, double scale);

    /** Adds independent noise to every entry. Modified: values. */
    default void addNoiseInPlace(double[] values, double scale) {
        for (int i = 0; i < values.length; i++) {
            values[i] = addNoise(values[i], scale);
        }
    }

    /**
     * Adds a symmetric noise matrix: independent noise on each entry of the upper triangle, diagonal
     * included, mirrored to the lower triangle (so sensitivities refer to the d(d+1)/2 upper-triangle
     * entries). Modified: m (must be square; its lower triangle is overwritten by the upper).
     */
    default void addSymmetricNoiseInPlace(Matrix m, double scale) {
        if (!m.isSquare()) {
            throw new IllegalArgumentException("symmetric noise needs a square matrix, got "
                    + m.rows() + " x " + m.cols());
        }
        int d = m.rows();
        for (int j = 0; j < d; j++) {
            for (int i = 0; i <= j; i++) {
                m.set(i, j, addNoise(m.get(i, j), scale));
            }
        }
        m.mirrorUpperToLower();
    }
}
