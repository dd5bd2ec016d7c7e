package io.dpspectra.noise;

import static io.dpspectra.noise.NoiseTestSupport.laplaceCdf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** {@link LaplaceNoise} satisfies the {@link NoiseContractTest} with Laplace(0, b), plus its scale rule. */
class LaplaceNoiseTest extends NoiseContractTest {
    @Override
    Noise noise(RandomSource random) {
        return new LaplaceNoise(random);
    }

    @Override
    double cdf(double x, double scale) {
        return laplaceCdf(x, scale);
    }

    @Override
    double varianceAt(double scale) {
        return 2 * scale * scale;
    }

    @Override
    double varianceStandardError(double scale, int n) {
        // SE(sample variance) = √((μ4 − σ⁴)/n) with μ4 = 24b⁴, σ⁴ = 4b⁴
        return Math.sqrt(20 * Math.pow(scale, 4) / n);
    }

    @Override
    double granularity(double scale) {
        return LaplaceNoise.granularity(scale);
    }

    @Test
    void scaleForIsSmallestScaleCoveringRoundingInflatedSensitivity() {
        for (double eps : new double[] {0.01, 1, 10}) {
            for (long m : new long[] {1, 1000, LaplaceNoise.DEFAULT_COORDINATES}) {
                double b = LaplaceNoise.scaleFor(2.0, eps, m);
                double g = LaplaceNoise.granularity(b);
                assertThat(b).isGreaterThanOrEqualTo((2.0 + m * g) / eps);
                // relative cost m·g/Δ ≤ m·2^−43·b/Δ
                assertThat(b).isCloseTo(2.0 / eps, within(2.0 / eps * m * 0x1.0p-42 / eps));
            }
        }
    }

    @Test
    void scaleForRejectsNonPositiveEpsilon() {
        assertThatThrownBy(() -> LaplaceNoise.scaleFor(1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epsilon").hasMessageContaining("got 0.0");
    }
}
